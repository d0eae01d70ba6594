// Resampling: box shrink, affine resample, separable Catmull-Rom for axis-aligned placements.
#include "cvips_shim.h"

#include <math.h>
#include <vips/vips.h>

int cj_shrink(VipsImage *in, double hshrink, double vshrink, VipsImage **out) {
  return vips_shrink(in, out, hshrink, vshrink, NULL);
}

int cj_affine_edges(VipsImage *in, double a, double b, double c, double d, double idx,
                    double idy, double odx, double ody, int ox, int oy, int ow, int oh,
                    const char *interpolator, const double *background, int n, int copy_edges,
                    VipsImage **out) {
  VipsInterpolate *interp = vips_interpolate_new(interpolator);
  if (!interp) return -1;
  VipsArrayInt *area = vips_array_int_newv(4, ox, oy, ow, oh);
  VipsArrayDouble *bg = vips_array_double_new(background, n);
  // "premultiplied": the renderer premultiplies an image with alpha itself (before its box
  // shrink). Without it, libvips premultiplies the input again and unpremultiplies the
  // output, background included, which it never premultiplied: a background of alpha
  // 128 came out with its colour doubled.
  int rc = vips_affine(in, out, a, b, c, d, "interpolate", interp, "idx", idx, "idy", idy,
                       "odx", odx, "ody", ody, "oarea", area, "background", bg, "extend",
                       copy_edges ? VIPS_EXTEND_COPY : VIPS_EXTEND_BACKGROUND, "premultiplied",
                       TRUE, NULL);
  vips_area_unref(VIPS_AREA(bg));
  vips_area_unref(VIPS_AREA(area));
  g_object_unref(interp);
  return rc;
}

// ---- Separable Catmull-Rom resample for axis-aligned placements (cj_resample_axis) ----------

// Taps and weights of the Catmull-Rom cubic (a = -1/2) at the preimages u = (i - o) / s of the
// n output positions, indices clamped to [0, extent - 1] (edge pixels repeat).
static void cj_axis_taps(int n, double s, double o, int extent, int *idx, float *w) {
  for (int i = 0; i < n; i++) {
    double u = ((double)i - o) / s;
    double fl = floor(u);
    double f = u - fl;
    long base = (long)fl - 1;
    double wt[4] = {((-f + 2) * f - 1) * f / 2, ((3 * f - 5) * f * f + 2) / 2,
                    ((-3 * f + 4) * f + 1) * f / 2, (f - 1) * f * f / 2};
    for (int k = 0; k < 4; k++) {
      long j = base + k;
      idx[4 * i + k] = (int)(j < 0 ? 0 : j >= extent ? extent - 1 : j);
      w[4 * i + k] = (float)wt[k];
    }
  }
}

// One input row filtered horizontally: ow * nb floats.
#define CJ_HROW(TYPE, NB)                                                               \
  do {                                                                                  \
    const TYPE *p = (const TYPE *)src;                                                  \
    for (int x = 0; x < ow; x++) {                                                      \
      const int *ix = xi + 4 * x;                                                       \
      const float *w = xw + 4 * x;                                                      \
      const TYPE *p0 = p + (size_t)ix[0] * (NB), *p1 = p + (size_t)ix[1] * (NB);        \
      const TYPE *p2 = p + (size_t)ix[2] * (NB), *p3 = p + (size_t)ix[3] * (NB);        \
      for (int b = 0; b < (NB); b++)                                                    \
        dst[x * (NB) + b] = w[0] * p0[b] + w[1] * p1[b] + w[2] * p2[b] + w[3] * p3[b];  \
    }                                                                                   \
  } while (0)

static void cj_hrow(const VipsPel *src, int is_float, int nb, int ow, const int *xi,
                    const float *xw, float *dst) {
  if (is_float) {
    if (nb == 3) CJ_HROW(float, 3);
    else if (nb == 4) CJ_HROW(float, 4);
    else CJ_HROW(float, nb);
  } else {
    if (nb == 3) CJ_HROW(unsigned char, 3);
    else if (nb == 4) CJ_HROW(unsigned char, 4);
    else CJ_HROW(unsigned char, nb);
  }
}

int cj_resample_axis(VipsImage *in, double a, double d, double odx, double ody, int ow, int oh,
                     VipsImage **out) {
  *out = NULL;
  VipsBandFormat format = in->BandFmt;
  if (!(a > 0 && d > 0) || ow < 1 || oh < 1 || in->Xsize < 1 || in->Ysize < 1 ||
      (format != VIPS_FORMAT_UCHAR && format != VIPS_FORMAT_FLOAT))
    return 1;
  const int is_float = format == VIPS_FORMAT_FLOAT;
  const int iw = in->Xsize, ih = in->Ysize, nb = in->Bands;
  const size_t row = (size_t)ow * nb;
  int *xi = g_new(int, 4 * (size_t)ow), *yi = g_new(int, 4 * (size_t)oh);
  float *xw = g_new(float, 4 * (size_t)ow), *yw = g_new(float, 4 * (size_t)oh);
  float *ring = g_new(float, 4 * row);
  int ring_row[4] = {-1, -1, -1, -1};
  VipsRegion *region = NULL;
  VipsImage *o = NULL;
  int rc = -1;
  cj_axis_taps(ow, a, odx, iw, xi, xw);
  cj_axis_taps(oh, d, ody, ih, yi, yw);

  o = vips_image_new_memory();
  if (vips_image_pipelinev(o, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) goto done;
  o->Xsize = ow;
  o->Ysize = oh;
  if (vips_image_write_prepare(o)) goto done;
  region = vips_region_new(in);
  // Input rows are read in strips of the whole width, top to bottom.
  const int strip = 32;
  VipsRect have = {0, 0, 0, 0};
  for (int y = 0; y < oh; y++) {
    const float *rows[4];
    for (int k = 0; k < 4; k++) {
      int r = yi[4 * y + k];
      float *slot = ring + (size_t)(r & 3) * row;
      if (ring_row[r & 3] != r) {
        if (have.height == 0 || r < have.top || r >= have.top + have.height) {
          VipsRect want = {0, r, iw, VIPS_MIN(strip, ih - r)};
          if (vips_region_prepare(region, &want)) goto done;
          have = want;
        }
        cj_hrow(VIPS_REGION_ADDR(region, 0, r), is_float, nb, ow, xi, xw, slot);
        ring_row[r & 3] = r;
      }
      rows[k] = slot;
    }
    const float *w = yw + 4 * y;
    const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    VipsPel *q = VIPS_IMAGE_ADDR(o, 0, y);
    if (is_float) {
      float *qf = (float *)q;
      for (size_t i = 0; i < row; i++) qf[i] = w[0] * r0[i] + w[1] * r1[i] + w[2] * r2[i] + w[3] * r3[i];
    } else {
      for (size_t i = 0; i < row; i++) {
        float v = w[0] * r0[i] + w[1] * r1[i] + w[2] * r2[i] + w[3] * r3[i];
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        q[i] = (unsigned char)(v + 0.5f);
      }
    }
  }
  rc = 0;
done:
  if (region) g_object_unref(region);
  g_free(xi);
  g_free(yi);
  g_free(xw);
  g_free(yw);
  g_free(ring);
  if (rc == 0) *out = o;
  else if (o) g_object_unref(o);
  return rc;
}
