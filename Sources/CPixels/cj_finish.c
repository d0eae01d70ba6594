// The last pass of an output, on its final small raster (CONVENTIONS.md, "Small outputs on a
// raster"): undo the premultiplication, multiply the circle's coverage into alpha and flatten
// onto the background, one pixel at a time, into one new memory image. The arithmetic is that
// of the libvips chain it replaces, so the pixels are the same bytes: vips_unpremultiply, then
// + 0.5 and a cast to uchar (cj_unpremultiply_uchar); alpha × mask / 255 rounded to nearest
// (cj_apply_mask); vips_flatten (cj_flatten).
#include "cj_pixels_internal.h"

#include <string.h>

// vips_cast of a float to uchar: clipped to [0, 255], then truncated.
static inline unsigned char cj_to_uchar(float v) {
  return v <= 0 ? 0 : v >= 255 ? 255 : (unsigned char)v;
}

int cj_finish(VipsImage *in, const unsigned char *mask, int keep_alpha, const double *background,
              VipsImage **out) {
  *out = NULL;
  const int nb = in->Bands;
  const int is_float = in->BandFmt == VIPS_FORMAT_FLOAT;
  if (in->Coding != VIPS_CODING_NONE || nb < 3 || nb > 4 ||
      (in->BandFmt != VIPS_FORMAT_UCHAR && !is_float) || (is_float && nb != 4))
    return 1;
  const int has_alpha = nb == 4;
  // Nothing to do: an opaque raster that stays opaque and uncut.
  if (!has_alpha && !mask && !keep_alpha) return 1;
  // A lazy image (an affine's output) is rendered into memory first; a memory one is read in
  // place.
  if (vips_image_wio_input(in)) return -1;
  const int w = in->Xsize, h = in->Ysize;
  const int ob = keep_alpha ? 4 : 3;
  VipsImage *o = vips_image_new_memory();
  if (vips_image_pipelinev(o, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
    g_object_unref(o);
    return -1;
  }
  o->Bands = ob;
  o->BandFmt = VIPS_FORMAT_UCHAR;
  if (o->Type != VIPS_INTERPRETATION_sRGB && o->Type != VIPS_INTERPRETATION_RGB) o->Type = VIPS_INTERPRETATION_sRGB;
  if (vips_image_write_prepare(o)) {
    g_object_unref(o);
    return -1;
  }
  unsigned char bg[3];
  for (int b = 0; b < 3; b++) bg[b] = cj_to_uchar((float)background[b]);
  for (int y = 0; y < h; y++) {
    const VipsPel *row = VIPS_IMAGE_ADDR(in, 0, y);
    const unsigned char *m = mask ? mask + (size_t)y * w : NULL;
    unsigned char *q = VIPS_IMAGE_ADDR(o, 0, y);
    for (int x = 0; x < w; x++, q += ob) {
      unsigned char c[3];
      int alpha;
      if (is_float) {
        // vips_unpremultiply (float): colour × 255 × vips_recip(alpha), where vips_recip is
        // 1 / alpha, or 0 for |alpha| <= 0.01; alpha clipped to [0, 255]; then + 0.5 and the
        // cast.
        const float *p = (const float *)row + (size_t)x * 4;
        const float a = p[3];
        const double ad = a;
        const float factor = (float)(255.0 * (ad >= -0.01 && ad <= 0.01 ? 0.0 : 1.0 / ad));
        for (int b = 0; b < 3; b++) c[b] = cj_to_uchar(factor * p[b] + 0.5f);
        alpha = cj_to_uchar((a <= 0 ? 0 : a >= 255 ? 255 : a) + 0.5f);
      } else {
        const unsigned char *p = row + (size_t)x * nb;
        c[0] = p[0], c[1] = p[1], c[2] = p[2];
        alpha = has_alpha ? p[3] : 255;
      }
      // round(alpha × coverage / 255), exactly: alpha × coverage is never 127.5 mod 255.
      if (m) alpha = (2 * alpha * m[x] + 255) / 510;
      if (keep_alpha) {
        q[0] = c[0], q[1] = c[1], q[2] = c[2], q[3] = (unsigned char)alpha;
      } else {
        // vips_flatten (uchar): (colour × alpha + background × (255 − alpha)) / 255, truncated.
        for (int b = 0; b < 3; b++) q[b] = (unsigned char)((c[b] * alpha + bg[b] * (255 - alpha)) / 255);
      }
    }
  }
  *out = o;
  return 0;
}
