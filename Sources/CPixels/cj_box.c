// Box shrink and EXIF orientation of 8-bit images in memory, without libvips operations
// (docs/resampling.md, "Box shrink"; docs/decoding.md): the pixels vips_shrink and
// vips_autorot give, computed in place of the lazy operations that every output's resample
// otherwise pulls through regions.
#include "cj_pixels_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

static int cj_in_memory(VipsImage *in) {
  return (in->dtype == VIPS_IMAGE_SETBUF || in->dtype == VIPS_IMAGE_SETBUF_FOREIGN) && in->data;
}

// A memory image of `width` x `height` pixels in `format`, the rest of its header from `in`,
// ready for its pixels; NULL when libvips refuses it.
static VipsImage *cj_new_output(VipsImage *in, int width, int height, VipsBandFormat format) {
  VipsImage *o = vips_image_new_memory();
  if (vips_image_pipelinev(o, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
    g_object_unref(o);
    return NULL;
  }
  o->Xsize = width;
  o->Ysize = height;
  o->BandFmt = format;
  if (vips_image_write_prepare(o)) {
    g_object_unref(o);
    return NULL;
  }
  return o;
}

int cj_box_shrink(VipsImage *in, int left, int top, int width, int height, int factor,
                  VipsImage **out) {
  *out = NULL;
  if (factor < 2 || factor >= 4096 || in->BandFmt != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE ||
      !cj_in_memory(in) || left < 0 || top < 0 || width < factor || height < factor ||
      left + width > in->Xsize || top + height > in->Ysize)
    return 1;
  // vips_shrink's output size: the input's divided by the factor, rounded to nearest (half
  // up); a partial last block repeats the window's edge pixel (and a block beyond the
  // rounded size is dropped).
  const int nb = in->Bands;
  const int ow = (int)((double)width / factor + 0.5), oh = (int)((double)height / factor + 0.5);
  const size_t n = (size_t)width * nb;
  VipsImage *o = cj_new_output(in, ow, oh, VIPS_FORMAT_UCHAR);
  if (!o) return -1;
  // As vips_shrink on 8-bit pixels: the columns first (vips_shrinkv: the mean of `factor`
  // rows, rounded to nearest, back to 8 bits), then the rows (vips_shrinkh, the same).
  // (n + factor / 2) / factor is computed as a multiply by ceil(2^32 / factor) and a shift,
  // exact for every n below 256 * factor (factor < 4096).
  unsigned int *sum = g_new(unsigned int, n);
  unsigned char *row = g_new(unsigned char, n);
  const unsigned int half = (unsigned int)factor / 2;
  const uint64_t reciprocal = ((UINT64_C(1) << 32) + (uint64_t)factor - 1) / (uint64_t)factor;
#define CJ_MEAN(s) ((unsigned char)(((uint64_t)((s) + half) * reciprocal) >> 32))
  const int full = width / factor;  // output columns whose block lies inside the window
  for (int y = 0; y < oh; y++) {
    const VipsPel *p0 = VIPS_IMAGE_ADDR(in, left, top + VIPS_MIN(y * factor, height - 1));
    for (size_t i = 0; i < n; i++) sum[i] = p0[i];
    for (int k = 1; k < factor; k++) {
      const int r = VIPS_MIN(y * factor + k, height - 1);
      const VipsPel *p = VIPS_IMAGE_ADDR(in, left, top + r);
      for (size_t i = 0; i < n; i++) sum[i] += p[i];
    }
    for (size_t i = 0; i < n; i++) row[i] = CJ_MEAN(sum[i]);
    VipsPel *q = VIPS_IMAGE_ADDR(o, 0, y);
    int x = 0;
    if (nb == 3) {
      for (; x < VIPS_MIN(full, ow); x++) {
        const unsigned char *p = row + (size_t)x * factor * 3;
        unsigned int s0 = 0, s1 = 0, s2 = 0;
        for (int k = 0; k < factor; k++, p += 3) {
          s0 += p[0];
          s1 += p[1];
          s2 += p[2];
        }
        q[3 * x] = CJ_MEAN(s0);
        q[3 * x + 1] = CJ_MEAN(s1);
        q[3 * x + 2] = CJ_MEAN(s2);
      }
    }
    for (; x < ow; x++) {
      for (int b = 0; b < nb; b++) {
        unsigned int s = 0;
        for (int k = 0; k < factor; k++) s += row[(size_t)VIPS_MIN(x * factor + k, width - 1) * nb + b];
        q[(size_t)x * nb + b] = CJ_MEAN(s);
      }
    }
  }
#undef CJ_MEAN
  g_free(sum);
  g_free(row);
  *out = o;
  return 0;
}

int cj_orient_owned(void *data, size_t stride, int width, int height, int bands, int orientation,
                    double xres, double yres, VipsImage **out) {
  *out = NULL;
  if (orientation < 2 || orientation > 8)
    return cj_from_memory_owned(data, stride, width, height, bands, xres, yres, 1, out);
  const int swap = orientation >= 5;
  const int ow = swap ? height : width, oh = swap ? width : height;
  unsigned char *src = data;
  unsigned char *dst = g_try_malloc((size_t)ow * oh * bands);
  if (!dst) {
    g_free(data);
    vips_error("autorot", "out of memory");
    return -1;
  }
  // Output pixel (X, Y) of the upright image is stored pixel (x, y): what vips_autorot does
  // for each orientation (2 mirror, 3 half turn, 4 flip, 5 transpose, 6 quarter turn
  // clockwise, 7 transverse, 8 quarter turn anticlockwise).
  for (int Y = 0; Y < oh; Y++) {
    unsigned char *q = dst + (size_t)Y * ow * bands;
    for (int X = 0; X < ow; X++) {
      int x, y;
      switch (orientation) {
      case 2: x = width - 1 - X; y = Y; break;
      case 3: x = width - 1 - X; y = height - 1 - Y; break;
      case 4: x = X; y = height - 1 - Y; break;
      case 5: x = Y; y = X; break;
      case 6: x = Y; y = height - 1 - X; break;
      case 7: x = width - 1 - Y; y = height - 1 - X; break;
      default: x = width - 1 - Y; y = X; break;
      }
      const unsigned char *p = src + (size_t)y * stride + (size_t)x * bands;
      for (int b = 0; b < bands; b++) q[(size_t)X * bands + b] = p[b];
    }
  }
  g_free(data);
  // vips_autorot keeps the resolution as it is (not swapped) and drops the orientation.
  return cj_from_memory_owned(dst, (size_t)ow * bands, ow, oh, bands, xres, yres, 1, out);
}

// One premultiplied pixel value as vips_premultiply computes it for 8-bit input (max alpha 255):
// the alpha scaled to [0, 1] in double and stored as a float, times the 8-bit value in float.
static inline float cj_premultiplied(unsigned char value, float nalpha) { return (float)value * nalpha; }

// The 256 scaled alphas, (float)(alpha / 255.0) computed in double as vips_premultiply does:
// looked up instead of divided per pixel (the same floats).
static float cj_nalpha[256];
static void cj_nalpha_init(void) {
  for (int a = 0; a < 256; a++) cj_nalpha[a] = (float)((double)a / 255.0);
}
static pthread_once_t cj_nalpha_once = PTHREAD_ONCE_INIT;

int cj_premultiply_shrink(VipsImage *in, int left, int top, int width, int height, int factor,
                          VipsImage **out) {
  *out = NULL;
  if (factor < 1 || in->BandFmt != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE ||
      in->Bands < 2 || !cj_in_memory(in) || left < 0 || top < 0 || width < factor ||
      height < factor || left + width > in->Xsize || top + height > in->Ysize)
    return 1;
  const int nb = in->Bands;
  const int ow = factor == 1 ? width : (int)((double)width / factor + 0.5);
  const int oh = factor == 1 ? height : (int)((double)height / factor + 0.5);
  VipsImage *o = cj_new_output(in, ow, oh, VIPS_FORMAT_FLOAT);
  if (!o) return -1;
  // vips_premultiply (float out), then vips_shrink on floats: per axis, columns first, the
  // sum of `factor` values in double divided by `factor`, stored as a float. The double sums
  // of at most a few thousand floats in [0, 255] are exact, so their order does not matter.
  pthread_once(&cj_nalpha_once, cj_nalpha_init);
  const size_t n = (size_t)width * nb;
  float *pre = g_new(float, n);
  double *sum = g_new(double, n);
  float *row = g_new(float, n);
  for (int y = 0; y < oh; y++) {
    for (size_t i = 0; i < n; i++) sum[i] = 0;
    for (int k = 0; k < factor; k++) {
      const int r = VIPS_MIN(y * factor + k, height - 1);
      const VipsPel *p = VIPS_IMAGE_ADDR(in, left, top + r);
      if (nb == 4) {  // RGBA, the usual case, unrolled
        for (int x = 0; x < width; x++) {
          const VipsPel *px = p + (size_t)x * 4;
          const float nalpha = cj_nalpha[px[3]];
          float *q = pre + (size_t)x * 4;
          q[0] = cj_premultiplied(px[0], nalpha);
          q[1] = cj_premultiplied(px[1], nalpha);
          q[2] = cj_premultiplied(px[2], nalpha);
          q[3] = px[3];
        }
      } else {
        for (int x = 0; x < width; x++) {
          const VipsPel *px = p + (size_t)x * nb;
          const unsigned char alpha = px[nb - 1];
          const float nalpha = cj_nalpha[alpha];
          float *q = pre + (size_t)x * nb;
          for (int b = 0; b < nb - 1; b++) q[b] = cj_premultiplied(px[b], nalpha);
          q[nb - 1] = alpha;
        }
      }
      if (factor == 1) break;
      for (size_t i = 0; i < n; i++) sum[i] += pre[i];
    }
    float *q = (float *)VIPS_IMAGE_ADDR(o, 0, y);
    if (factor == 1) {
      memcpy(q, pre, n * sizeof(float));
      continue;
    }
    for (size_t i = 0; i < n; i++) row[i] = (float)(sum[i] / factor);
    // Output columns whose `factor` inputs all lie inside the window need no clamp.
    const int inside = width / factor;
    for (int x = 0; x < ow; x++) {
      if (x < inside) {
        const float *r = row + (size_t)x * factor * nb;
        for (int b = 0; b < nb; b++) {
          double s = 0;
          for (int k = 0; k < factor; k++) s += r[(size_t)k * nb + b];
          q[(size_t)x * nb + b] = (float)(s / factor);
        }
        continue;
      }
      for (int b = 0; b < nb; b++) {
        double s = 0;
        for (int k = 0; k < factor; k++) s += row[(size_t)VIPS_MIN(x * factor + k, width - 1) * nb + b];
        q[(size_t)x * nb + b] = (float)(s / factor);
      }
    }
  }
  g_free(pre);
  g_free(sum);
  g_free(row);
  *out = o;
  return 0;
}
