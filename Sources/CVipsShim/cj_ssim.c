// The perceptual score of a quality target (docs/job-file.md, "Perceptual quality target"):
// SSIM on luma, and the decode of an encoded candidate it is computed on.
//
// Luma: Y = 0.299 R + 0.587 G + 0.114 B (BT.601, unrounded doubles), or the grey band;
// with alpha, Y × A / 255 (premultiplied: composited over black, so that the colour of
// transparent pixels, which lossy savers may change, counts for nothing).
// SSIM (Wang et al. 2004) as scikit-image's structural_similarity computes it with
// gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255: an 11x11
// Gaussian window (σ = 1.5, truncated at radius 5, normalised), C1 = (0.01 × 255)²,
// C2 = (0.03 × 255)², the mean over every window lying wholly inside the image.
#include "cvips_shim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <vips/vips.h>

enum { CJ_SSIM_RADIUS = 5, CJ_SSIM_SIDE = 2 * CJ_SSIM_RADIUS + 1 };

static double cj_luma_at(const unsigned char *p, int bands) {
  switch (bands) {
  case 1: return p[0];
  case 2: return p[0] * (p[1] / 255.0);
  case 3: return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
  default: return (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) * (p[3] / 255.0);
  }
}

int cj_luma(const unsigned char *pixels, int width, int height, int bands, double *luma) {
  if (width <= 0 || height <= 0 || bands < 1 || bands > 4) return -1;
  const size_t n = (size_t)width * height;
  for (size_t i = 0; i < n; i++) luma[i] = cj_luma_at(pixels + i * bands, bands);
  return 0;
}

static void cj_ssim_kernel(double k[CJ_SSIM_SIDE]) {
  double sum = 0;
  for (int i = 0; i < CJ_SSIM_SIDE; i++) {
    const double d = i - CJ_SSIM_RADIUS;
    k[i] = exp(-0.5 * d * d / (1.5 * 1.5));
    sum += k[i];
  }
  for (int i = 0; i < CJ_SSIM_SIDE; i++) k[i] /= sum;
}

// `out[x] = Σ k[i] × in[x + i]` for every valid column x (`cols` of them): tap by tap over
// the whole row, which compilers vectorise.
static void cj_ssim_filter_row(const double *in, const double k[], double *out, int cols) {
  for (int x = 0; x < cols; x++) out[x] = k[0] * in[x];
  for (int i = 1; i < CJ_SSIM_SIDE; i++) {
    const double w = k[i];
    const double *p = in + i;
    for (int x = 0; x < cols; x++) out[x] += w * p[x];
  }
}

// `out[x] = Σ k[i] × rows[i][x]`, the 11 rows of a ring starting at `first`.
static void cj_ssim_filter_column(double *const ring[], int first, const double k[], double *out,
                                  int cols) {
  const double *r0 = ring[first % CJ_SSIM_SIDE];
  for (int x = 0; x < cols; x++) out[x] = k[0] * r0[x];
  for (int i = 1; i < CJ_SSIM_SIDE; i++) {
    const double w = k[i];
    const double *r = ring[(first + i) % CJ_SSIM_SIDE];
    for (int x = 0; x < cols; x++) out[x] += w * r[x];
  }
}

// The Gaussian means of `count` maps at every valid window, row by row: `products` fills the
// maps' values for input row y (`width` each), and `window` gets, for output row y, the
// filtered maps (`cols` each). Returns -1 when memory is short.
typedef void (*cj_ssim_products)(const void *context, int y, double *maps[]);
typedef void (*cj_ssim_window)(void *context, int y, double *const means[]);

static int cj_ssim_windows(int width, int height, int count, cj_ssim_products products,
                           cj_ssim_window window, void *context) {
  double k[CJ_SSIM_SIDE];
  cj_ssim_kernel(k);
  const int cols = width - 2 * CJ_SSIM_RADIUS;
  // Per map: one input row, a ring of the last 11 horizontally filtered rows, one output row.
  const size_t per = (size_t)width + (size_t)cols * (CJ_SSIM_SIDE + 1);
  double *memory = malloc(sizeof(double) * per * count);
  if (!memory) return -1;
  double *input[5], *ring[5][CJ_SSIM_SIDE], *means[5];
  for (int j = 0; j < count; j++) {
    double *base = memory + per * j;
    input[j] = base;
    for (int i = 0; i < CJ_SSIM_SIDE; i++) ring[j][i] = base + width + (size_t)cols * i;
    means[j] = base + width + (size_t)cols * CJ_SSIM_SIDE;
  }
  for (int y = 0; y < height; y++) {
    products(context, y, input);
    for (int j = 0; j < count; j++)
      cj_ssim_filter_row(input[j], k, ring[j][y % CJ_SSIM_SIDE], cols);
    if (y < CJ_SSIM_SIDE - 1) continue;
    const int top = y - (CJ_SSIM_SIDE - 1);
    for (int j = 0; j < count; j++) cj_ssim_filter_column(ring[j], top, k, means[j], cols);
    window(context, top, means);
  }
  free(memory);
  return 0;
}

struct cj_ssim_reference_context {
  const double *a;
  int width, cols;
  double *mean, *variance;
};

static void cj_ssim_reference_products(const void *context, int y, double *maps[]) {
  const struct cj_ssim_reference_context *c = context;
  const double *a = c->a + (size_t)y * c->width;
  for (int x = 0; x < c->width; x++) {
    maps[0][x] = a[x];
    maps[1][x] = a[x] * a[x];
  }
}

static void cj_ssim_reference_window(void *context, int y, double *const means[]) {
  struct cj_ssim_reference_context *c = context;
  double *mean = c->mean + (size_t)y * c->cols, *variance = c->variance + (size_t)y * c->cols;
  for (int x = 0; x < c->cols; x++) {
    mean[x] = means[0][x];
    variance[x] = means[1][x] - means[0][x] * means[0][x];
  }
}

int cj_ssim_reference(const double *a, int width, int height, double *mean, double *variance) {
  if (width < CJ_SSIM_SIDE || height < CJ_SSIM_SIDE) return 1;
  struct cj_ssim_reference_context c = {a, width, width - 2 * CJ_SSIM_RADIUS, mean, variance};
  return cj_ssim_windows(width, height, 2, cj_ssim_reference_products, cj_ssim_reference_window,
                         &c);
}

struct cj_ssim_context {
  const double *a, *b, *mean, *variance;
  int width, cols;
  double total;
};

static void cj_ssim_products_of(const void *context, int y, double *maps[]) {
  const struct cj_ssim_context *c = context;
  const double *a = c->a + (size_t)y * c->width, *b = c->b + (size_t)y * c->width;
  for (int x = 0; x < c->width; x++) {
    maps[0][x] = b[x];
    maps[1][x] = b[x] * b[x];
    maps[2][x] = a[x] * b[x];
  }
}

static void cj_ssim_window_of(void *context, int y, double *const means[]) {
  struct cj_ssim_context *c = context;
  const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
  const double *ma = c->mean + (size_t)y * c->cols, *va = c->variance + (size_t)y * c->cols;
  double line = 0;
  for (int x = 0; x < c->cols; x++) {
    const double ux = ma[x], uy = means[0][x];
    const double vx = va[x], vy = means[1][x] - uy * uy, vxy = means[2][x] - ux * uy;
    line += ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
  }
  c->total += line;
}

int cj_ssim_score(const double *a, const double *mean, const double *variance, const double *b,
                  int width, int height, double *score) {
  if (width < CJ_SSIM_SIDE || height < CJ_SSIM_SIDE) return 1;
  const int cols = width - 2 * CJ_SSIM_RADIUS, rows = height - 2 * CJ_SSIM_RADIUS;
  struct cj_ssim_context c = {a, b, mean, variance, width, cols, 0};
  if (cj_ssim_windows(width, height, 3, cj_ssim_products_of, cj_ssim_window_of, &c)) return -1;
  *score = c.total / ((double)cols * rows);
  return 0;
}

int cj_decode_buffer(const void *data, size_t length, void **pixels, size_t *size, int *width,
                     int *height, int *bands) {
  VipsImage *image = vips_image_new_from_buffer(data, length, "", NULL);
  if (!image) return -1;
  VipsImage *cast = NULL;
  if (vips_cast_uchar(image, &cast, NULL)) {
    g_object_unref(image);
    return -1;
  }
  g_object_unref(image);
  *pixels = vips_image_write_to_memory(cast, size);
  *width = cast->Xsize;
  *height = cast->Ysize;
  *bands = cast->Bands;
  g_object_unref(cast);
  return *pixels ? 0 : -1;
}
