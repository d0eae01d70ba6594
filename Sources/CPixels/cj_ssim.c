// The perceptual score of a quality target (docs/job-file.md, "Perceptual quality target"):
// SSIM on luma (the candidate is decoded by cj_decode_buffer, CVipsShim).
//
// Luma: Y = 0.299 R + 0.587 G + 0.114 B (BT.601, unrounded doubles), or the grey band;
// with alpha, Y × A / 255 (premultiplied: composited over black, so that the colour of
// transparent pixels, which lossy savers may change, counts for nothing).
// SSIM (Wang et al. 2004) as scikit-image's structural_similarity computes it with
// gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255: an 11x11
// Gaussian window (σ = 1.5, truncated at radius 5, normalised), C1 = (0.01 × 255)²,
// C2 = (0.03 × 255)², the mean over every window lying wholly inside the image.
#include "cj_pixels_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CJ_SSIM_RADIUS = 5, CJ_SSIM_SIDE = 2 * CJ_SSIM_RADIUS + 1 };
_Static_assert(CJ_SSIM_SIDE == 11, "the filters below spell out 11 taps");

// The filters are built twice on x86-64 Linux, for AVX2 (four doubles a lane) and the
// baseline (two), the one the CPU runs chosen at load: half the time on AVX2 machines, the
// same bits (AVX2 without FMA: every multiply and add rounded as in the baseline).
#if defined(__x86_64__) && defined(__linux__)
#define CJ_SSIM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CJ_SSIM_CLONES
#endif

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

// `out[x] = Σ k[i] × in[x + i]` for every valid column x (`cols` of them). Each sum is
// taken tap by tap from k[0] (the same additions in the same order whatever the loop's
// shape, so every score is the same to the last bit), all 11 taps of one column at once:
// one store a column rather than one a tap, and compilers vectorise it across columns.
CJ_SSIM_CLONES static void cj_ssim_filter_row(const double *in, const double k[], double *out,
                                              int cols) {
  for (int x = 0; x < cols; x++) {
    const double *p = in + x;
    double s = k[0] * p[0];
    s += k[1] * p[1];
    s += k[2] * p[2];
    s += k[3] * p[3];
    s += k[4] * p[4];
    s += k[5] * p[5];
    s += k[6] * p[6];
    s += k[7] * p[7];
    s += k[8] * p[8];
    s += k[9] * p[9];
    s += k[10] * p[10];
    out[x] = s;
  }
}

// `out[x] = Σ k[i] × rows[i][x]`, the 11 rows of a ring starting at `first`, in the same
// order as the row filter.
CJ_SSIM_CLONES static void cj_ssim_filter_column(double *const ring[], int first, const double k[],
                                                 double *out, int cols) {
  const double *r[CJ_SSIM_SIDE];
  for (int i = 0; i < CJ_SSIM_SIDE; i++) r[i] = ring[(first + i) % CJ_SSIM_SIDE];
  for (int x = 0; x < cols; x++) {
    double s = k[0] * r[0][x];
    s += k[1] * r[1][x];
    s += k[2] * r[2][x];
    s += k[3] * r[3][x];
    s += k[4] * r[4][x];
    s += k[5] * r[5][x];
    s += k[6] * r[6][x];
    s += k[7] * r[7][x];
    s += k[8] * r[8][x];
    s += k[9] * r[9][x];
    s += k[10] * r[10][x];
    out[x] = s;
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
  const double *a, *mean, *variance;
  const unsigned char *pixels;
  int width, cols, bands;
  double total;
};

// The candidate's luma (the same `cj_luma_at` as the reference's) straight from its pixels,
// row by row, with its square and its product with the reference's.
static void cj_ssim_products_of(const void *context, int y, double *maps[]) {
  const struct cj_ssim_context *c = context;
  const double *a = c->a + (size_t)y * c->width;
  const unsigned char *p = c->pixels + (size_t)y * c->width * c->bands;
  double *luma = maps[0];
  // One loop per band count (the switch out of the pixel loop), each `cj_luma_at`'s formula.
  switch (c->bands) {
  case 1:
    for (int x = 0; x < c->width; x++) luma[x] = cj_luma_at(p + x, 1);
    break;
  case 2:
    for (int x = 0; x < c->width; x++) luma[x] = cj_luma_at(p + 2 * x, 2);
    break;
  case 3:
    for (int x = 0; x < c->width; x++) luma[x] = cj_luma_at(p + 3 * x, 3);
    break;
  default:
    for (int x = 0; x < c->width; x++) luma[x] = cj_luma_at(p + 4 * x, 4);
    break;
  }
  for (int x = 0; x < c->width; x++) {
    maps[1][x] = luma[x] * luma[x];
    maps[2][x] = a[x] * luma[x];
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

int cj_ssim_score(const double *a, const double *mean, const double *variance,
                  const unsigned char *pixels, int bands, int width, int height, double *score) {
  if (width < CJ_SSIM_SIDE || height < CJ_SSIM_SIDE) return 1;
  if (bands < 1 || bands > 4) return -1;
  const int cols = width - 2 * CJ_SSIM_RADIUS, rows = height - 2 * CJ_SSIM_RADIUS;
  struct cj_ssim_context c = {a, mean, variance, pixels, width, cols, bands, 0};
  if (cj_ssim_windows(width, height, 3, cj_ssim_products_of, cj_ssim_window_of, &c)) return -1;
  *score = c.total / ((double)cols * rows);
  return 0;
}
