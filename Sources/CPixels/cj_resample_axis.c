// Separable resample for axis-aligned placements (cj_resample_axis), on the calling thread.
//
// Per axis, at scale s (output px per input px): s >= 1 (same size or larger), the Catmull-Rom
// cubic (a = -1/2) on 4 taps; s < 1 (smaller), Lanczos3 widened by the ratio 1 / s, on
// 2 * ceil(3 / s) + 1 taps, so that every input pixel under the output pixel's footprint
// counts (a point-sampled kernel aliases: docs/resampling.md, bench/aliasing.py).
#include "cj_pixels_internal.h"

#include <math.h>
#include <string.h>

typedef struct {
  int taps;    // taps per output position
  int *idx;    // n * taps input indices, clamped to [0, extent - 1] (edge pixels repeat)
  float *w;    // n * taps weights, summing to 1
} cj_axis;

static double cj_sinc(double x) {
  if (x == 0) return 1;
  double px = M_PI * x;
  return sin(px) / px;
}

// Taps and weights at the preimages u = (i - o) / s of the n output positions.
// A negative s mirrors the axis (a flip): the same taps, taken in the other direction.
static void cj_axis_taps(int n, double s, double o, int extent, cj_axis *ax) {
  const int widen = fabs(s) < 1;
  const double ratio = widen ? 1 / fabs(s) : 1;
  const double support = widen ? 3 * ratio : 2;
  ax->taps = widen ? 2 * (int)ceil(support) + 1 : 4;
  ax->idx = g_new(int, (size_t)n * ax->taps);
  ax->w = g_new(float, (size_t)n * ax->taps);
  double *wt = g_new(double, ax->taps);
  for (int i = 0; i < n; i++) {
    double u = ((double)i - o) / s;
    long base;
    if (!widen) {
      double fl = floor(u);
      double f = u - fl;
      base = (long)fl - 1;
      wt[0] = ((-f + 2) * f - 1) * f / 2;
      wt[1] = ((3 * f - 5) * f * f + 2) / 2;
      wt[2] = ((-3 * f + 4) * f + 1) * f / 2;
      wt[3] = (f - 1) * f * f / 2;
    } else {
      base = (long)floor(u - support) + 1;
      double sum = 0;
      for (int k = 0; k < ax->taps; k++) {
        double x = ((double)(base + k) - u) / ratio;
        wt[k] = fabs(x) < 3 ? cj_sinc(x) * cj_sinc(x / 3) : 0;
        sum += wt[k];
      }
      for (int k = 0; k < ax->taps; k++) wt[k] /= sum;
    }
    for (int k = 0; k < ax->taps; k++) {
      long j = base + k;
      ax->idx[(size_t)ax->taps * i + k] = (int)(j < 0 ? 0 : j >= extent ? extent - 1 : j);
      ax->w[(size_t)ax->taps * i + k] = (float)wt[k];
    }
  }
  g_free(wt);
}

// One input row filtered horizontally: ow * nb floats, the taps summed in order. With a
// constant NB the sums stay in registers (dst may alias nothing, but the compiler cannot
// know); the generic band count sums in dst.
#define CJ_HROW(TYPE, NB)                                                      \
  do {                                                                         \
    const TYPE *p = (const TYPE *)src;                                         \
    for (int x = 0; x < ow; x++) {                                             \
      const int *ix = ax->idx + (size_t)T * x;                                 \
      const float *w = ax->w + (size_t)T * x;                                  \
      float s[NB];                                                             \
      const TYPE *p0 = p + (size_t)ix[0] * (NB);                               \
      for (int b = 0; b < (NB); b++) s[b] = w[0] * p0[b];                      \
      if (ix[T - 1] - ix[0] == T - 1) {                                        \
        /* Consecutive taps (none clamped at an edge): no index loads. */     \
        const TYPE *pk = p0 + (NB);                                            \
        for (int k = 1; k < T; k++, pk += (NB))                                \
          for (int b = 0; b < (NB); b++) s[b] += w[k] * pk[b];                 \
      } else {                                                                 \
        for (int k = 1; k < T; k++) {                                          \
          const TYPE *pk = p + (size_t)ix[k] * (NB);                           \
          for (int b = 0; b < (NB); b++) s[b] += w[k] * pk[b];                 \
        }                                                                      \
      }                                                                        \
      for (int b = 0; b < (NB); b++) dst[(size_t)x * (NB) + b] = s[b];         \
    }                                                                          \
  } while (0)

#define CJ_HROW_ANY(TYPE)                                                      \
  do {                                                                         \
    const TYPE *p = (const TYPE *)src;                                         \
    for (int x = 0; x < ow; x++) {                                             \
      const int *ix = ax->idx + (size_t)T * x;                                 \
      const float *w = ax->w + (size_t)T * x;                                  \
      float *d = dst + (size_t)x * nb;                                         \
      const TYPE *p0 = p + (size_t)ix[0] * nb;                                 \
      for (int b = 0; b < nb; b++) d[b] = w[0] * p0[b];                        \
      for (int k = 1; k < T; k++) {                                            \
        const TYPE *pk = p + (size_t)ix[k] * nb;                               \
        for (int b = 0; b < nb; b++) d[b] += w[k] * pk[b];                     \
      }                                                                        \
    }                                                                          \
  } while (0)

static void cj_hrow(const VipsPel *src, int is_float, int nb, int ow, const cj_axis *ax,
                    float *dst) {
  const int T = ax->taps;
  if (is_float) {
    if (nb == 3) CJ_HROW(float, 3);
    else if (nb == 4) CJ_HROW(float, 4);
    else CJ_HROW_ANY(float);
  } else {
    if (nb == 3) CJ_HROW(unsigned char, 3);
    else if (nb == 4) CJ_HROW(unsigned char, 4);
    else CJ_HROW_ANY(unsigned char);
  }
}

// Rows of the input window, kept in a ring of `slots` (a power of two at least the vertical
// taps or the window's height, whichever is smaller) after `fill` made them float rows: the
// rows one output row needs are consecutive indices (clamped), so never two in one slot. A
// memory image's rows are read in place; any other is read through a region, in strips of the
// window's whole width.
typedef struct {
  VipsRegion *region;
  VipsRect have;
  VipsRect window;   // the part of the image resampled: its row r is image row window.top + r
  int in_memory;
  int slots, width;  // width: floats per ring row
  float *ring;
  int *row_of;
} cj_rows;

typedef void (*cj_fill)(const VipsPel *src, int is_float, int nb, int iw, int ow,
                        const cj_axis *ax, float *dst);

static void cj_fill_filtered(const VipsPel *src, int is_float, int nb, int iw, int ow,
                             const cj_axis *ax, float *dst) {
  (void)iw;
  cj_hrow(src, is_float, nb, ow, ax, dst);
}

static void cj_fill_float(const VipsPel *src, int is_float, int nb, int iw, int ow,
                          const cj_axis *ax, float *dst) {
  (void)ow;
  (void)ax;
  const size_t n = (size_t)iw * nb;
  if (is_float) memcpy(dst, src, n * sizeof(float));
  else for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

static const float *cj_row(cj_rows *rows, VipsImage *in, int r, cj_fill fill, int is_float,
                           int ow, const cj_axis *xa) {
  const int slot = r & (rows->slots - 1);
  float *dst = rows->ring + (size_t)slot * rows->width;
  if (rows->row_of[slot] != r) {
    const VipsRect *w = &rows->window;
    const VipsPel *src;
    if (rows->in_memory) {
      src = VIPS_IMAGE_ADDR(in, w->left, w->top + r);
    } else {
      if (rows->have.height == 0 || r < rows->have.top || r >= rows->have.top + rows->have.height) {
        // Strips grow in the direction rows are asked for (upwards for a vertical flip).
        int top = rows->have.height != 0 && r < rows->have.top ? VIPS_MAX(0, r - 31) : r;
        VipsRect want = {w->left, w->top + top, w->width, VIPS_MIN(32, w->height - top)};
        if (vips_region_prepare(rows->region, &want)) return NULL;
        rows->have = (VipsRect){0, top, w->width, want.height};
      }
      src = VIPS_REGION_ADDR(rows->region, w->left, w->top + r);
    }
    fill(src, is_float, in->Bands, w->width, ow, xa, dst);
    rows->row_of[slot] = r;
  }
  return dst;
}

// acc[0, n) = sum over k of w[k] * rows[k][0, n), in tap order.
// In blocks of 1,024 floats, so that the accumulator stays in the L1 cache across the taps
// (a 2,016-px RGB row is 24 KB; 13 to 25 taps): the same sums, in the same order.
static void cj_vsum(const float *const *rows, const float *w, int taps, size_t n, float *acc) {
  for (size_t i0 = 0; i0 < n; i0 += 1024) {
    const size_t i1 = n - i0 < 1024 ? n : i0 + 1024;
    const float w0 = w[0], *r0 = rows[0];
    for (size_t i = i0; i < i1; i++) acc[i] = w0 * r0[i];
    for (int k = 1; k < taps; k++) {
      const float wk = w[k], *rk = rows[k];
      for (size_t i = i0; i < i1; i++) acc[i] += wk * rk[i];
    }
  }
}

int cj_resample_axis(VipsImage *in, int left, int top, int width, int height, double a, double d,
                     double odx, double ody, int ow, int oh, VipsImage **out) {
  *out = NULL;
  VipsBandFormat format = in->BandFmt;
  if (width <= 0 || height <= 0) {
    left = top = 0;
    width = in->Xsize;
    height = in->Ysize;
  }
  if (!(a != 0 && d != 0 && isfinite(a) && isfinite(d)) || ow < 1 || oh < 1 || width < 1 || height < 1 ||
      left < 0 || top < 0 || left + width > in->Xsize || top + height > in->Ysize ||
      in->Coding != VIPS_CODING_NONE || (format != VIPS_FORMAT_UCHAR && format != VIPS_FORMAT_FLOAT))
    return 1;
  const int is_float = format == VIPS_FORMAT_FLOAT;
  const int iw = width, ih = height, nb = in->Bands;
  const size_t row = (size_t)ow * nb;
  cj_axis xa, ya;
  cj_axis_taps(ow, a, odx, iw, &xa);
  cj_axis_taps(oh, d, ody, ih, &ya);
  const int T = ya.taps;
  // A vertical downscale sums columns first (T input rows into one, contiguous and cheap),
  // then filters that one row: fewer rows go through the horizontal taps than input rows.
  // Otherwise each input row is filtered horizontally once and the output rows sum those.
  const int columns_first = fabs(d) < 1;
  // A memory image (decoded into memory, or wrapping a decoder's buffer) needs no region.
  const int in_memory =
      (in->dtype == VIPS_IMAGE_SETBUF || in->dtype == VIPS_IMAGE_SETBUF_FOREIGN) && in->data;
  cj_rows rows = {NULL, {0, 0, 0, 0}, {left, top, width, height}, in_memory, 1,
                  columns_first ? iw * nb : (int)row, NULL, NULL};
  // At most ih distinct rows exist: a short image with a wide kernel (its box shrink skipped
  // because the image is thinner than the factor) needs no more slots than it has rows.
  while (rows.slots < VIPS_MIN(T, ih)) rows.slots <<= 1;
  rows.ring = g_new(float, (size_t)rows.slots * rows.width);
  rows.row_of = g_new(int, rows.slots);
  for (int k = 0; k < rows.slots; k++) rows.row_of[k] = -1;
  const float **tap_rows = g_new(const float *, T);
  float *acc = g_new(float, VIPS_MAX((size_t)iw * nb, row));
  float *res = columns_first ? g_new(float, row) : acc;
  cj_fill fill = columns_first ? cj_fill_float : cj_fill_filtered;
  VipsImage *o = NULL;
  int rc = -1;

  o = vips_image_new_memory();
  if (vips_image_pipelinev(o, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) goto done;
  o->Xsize = ow;
  o->Ysize = oh;
  if (vips_image_write_prepare(o)) goto done;
  if (!in_memory) rows.region = vips_region_new(in);
  for (int y = 0; y < oh; y++) {
    for (int k = 0; k < T; k++) {
      tap_rows[k] = cj_row(&rows, in, ya.idx[(size_t)T * y + k], fill, is_float, ow, &xa);
      if (!tap_rows[k]) goto done;
    }
    cj_vsum(tap_rows, ya.w + (size_t)T * y, T, (size_t)rows.width, acc);
    if (columns_first) cj_hrow((const VipsPel *)acc, 1, nb, ow, &xa, res);
    VipsPel *q = VIPS_IMAGE_ADDR(o, 0, y);
    if (is_float) {
      memcpy(q, res, row * sizeof(float));
    } else {
      for (size_t i = 0; i < row; i++) {
        float v = res[i];
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        q[i] = (unsigned char)(v + 0.5f);
      }
    }
  }
  rc = 0;
done:
  if (rows.region) g_object_unref(rows.region);
  g_free(xa.idx);
  g_free(xa.w);
  g_free(ya.idx);
  g_free(ya.w);
  g_free(rows.ring);
  g_free(rows.row_of);
  g_free(tap_rows);
  if (res != acc) g_free(res);
  g_free(acc);
  if (rc == 0) *out = o;
  else if (o) g_object_unref(o);
  return rc;
}
