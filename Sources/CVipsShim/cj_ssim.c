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

// Row `y` of x, y, x², y², xy filtered horizontally at every valid column, into `out`
// (5 maps of `cols` values).
static void cj_ssim_row(const double *a, const double *b, int width, int y, const double k[],
                        double *out, int cols) {
  const double *ra = a + (size_t)y * width, *rb = b + (size_t)y * width;
  for (int x = 0; x < cols; x++) {
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (int i = 0; i < CJ_SSIM_SIDE; i++) {
      const double va = ra[x + i], vb = rb[x + i], w = k[i];
      sa += w * va;
      sb += w * vb;
      saa += w * va * va;
      sbb += w * vb * vb;
      sab += w * va * vb;
    }
    out[x] = sa;
    out[cols + x] = sb;
    out[2 * cols + x] = saa;
    out[3 * cols + x] = sbb;
    out[4 * cols + x] = sab;
  }
}

int cj_ssim(const double *a, const double *b, int width, int height, double *score) {
  if (width < CJ_SSIM_SIDE || height < CJ_SSIM_SIDE) return 1;
  double k[CJ_SSIM_SIDE];
  cj_ssim_kernel(k);
  const int cols = width - 2 * CJ_SSIM_RADIUS, rows = height - 2 * CJ_SSIM_RADIUS;
  // A ring of the last 11 horizontally filtered rows, 5 maps each.
  double *ring = malloc(sizeof(double) * 5 * (size_t)cols * CJ_SSIM_SIDE);
  if (!ring) return -1;
  const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
  double total = 0;
  for (int y = 0; y < height; y++) {
    cj_ssim_row(a, b, width, y, k, ring + (size_t)(y % CJ_SSIM_SIDE) * 5 * cols, cols);
    if (y < CJ_SSIM_SIDE - 1) continue;
    const int top = y - (CJ_SSIM_SIDE - 1);
    double line = 0;
    for (int x = 0; x < cols; x++) {
      double m[5] = {0, 0, 0, 0, 0};
      for (int i = 0; i < CJ_SSIM_SIDE; i++) {
        const double *r = ring + (size_t)((top + i) % CJ_SSIM_SIDE) * 5 * cols + x;
        const double w = k[i];
        for (int j = 0; j < 5; j++) m[j] += w * r[(size_t)j * cols];
      }
      const double ux = m[0], uy = m[1];
      const double vx = m[2] - ux * ux, vy = m[3] - uy * uy, vxy = m[4] - ux * uy;
      line += ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
    }
    total += line;
  }
  free(ring);
  *score = total / ((double)cols * rows);
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
