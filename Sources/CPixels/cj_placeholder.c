// The placeholders' small copy of an output (docs/job-file.md, "placeholders"): an area
// average of the 8-bit pixels, premultiplied, computed in one pass over the rows in place,
// without a libvips operation or image; and the area average of such a copy again (the
// LQIP's), the one implementation of the area average (the same taps).
#include "cj_pixels_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// For each of `to` cells over `from` pixels: the pixels it covers (first, count) and the share
// of each (the area covered over the cell's width; they sum to 1).
typedef struct {
  int *first;
  int *count;
  double *weight;  // the cell's shares in order, `offset[cell]` onwards
  int *offset;
  int uniform;  // every cell covers `from / to` whole pixels (then each share is to / from)
} cj_taps;

static void cj_taps_free(cj_taps *t) {
  free(t->first);
  free(t->count);
  free(t->weight);
  free(t->offset);
}

static int cj_taps_make(int from, int to, cj_taps *t) {
  memset(t, 0, sizeof *t);
  t->first = malloc(sizeof(int) * (size_t)to);
  t->count = malloc(sizeof(int) * (size_t)to);
  t->offset = malloc(sizeof(int) * (size_t)to);
  t->weight = malloc(sizeof(double) * ((size_t)from + (size_t)to));
  if (!t->first || !t->count || !t->offset || !t->weight) {
    cj_taps_free(t);
    return -1;
  }
  t->uniform = from % to == 0;
  const double step = (double)from / to;
  int n = 0;
  for (int o = 0; o < to; o++) {
    const double begin = o * step;
    const double end = o == to - 1 ? (double)from : (o + 1) * step;
    t->offset[o] = n;
    t->first[o] = -1;
    t->count[o] = 0;
    for (int i = (int)begin; i < from && (double)i < end; i++) {
      const double overlap = (end < i + 1 ? end : i + 1) - (begin > i ? begin : i);
      if (overlap <= 0) continue;
      if (t->first[o] < 0) t->first[o] = i;
      t->weight[n++] = overlap / (end - begin);
      t->count[o]++;
    }
  }
  return 0;
}

// sum[i] += row[i] for n values (a loop the compiler vectorises: nothing aliases).
// Across one row of 4-channel cells: output cell x is the weighted sum, from 0 in tap order,
// of the input cells its taps cover (both area passes share it, so they sum alike).
static void sum_across(const cj_taps *across, const double *row, int w, double *o) {
  for (int x = 0; x < w; x++) {
    const double *wt = across->weight + across->offset[x];
    const double *c = row + 4 * (size_t)across->first[x];
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int k = 0; k < across->count[x]; k++, c += 4) {
      s0 += c[0] * wt[k];
      s1 += c[1] * wt[k];
      s2 += c[2] * wt[k];
      s3 += c[3] * wt[k];
    }
    o[4 * x] = s0;
    o[4 * x + 1] = s1;
    o[4 * x + 2] = s2;
    o[4 * x + 3] = s3;
  }
}

static void cj_add_row(uint32_t *restrict sum, const unsigned char *restrict row, size_t n) {
  for (size_t i = 0; i < n; i++) sum[i] += row[i];
}

int cj_area_average(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                    int w, int h, double *out) {
  if (!pixels || bands < 1 || bands > 4 || w < 1 || h < 1 || w > width || h > height) return 1;
  const int alpha = bands == 2 || bands == 4;
  const int green = bands < 3 ? 0 : 1, blue = bands < 3 ? 0 : 2;
  const size_t n = (size_t)width * bands;
  cj_taps across, down;
  if (cj_taps_make(width, w, &across)) return -1;
  if (cj_taps_make(height, h, &down)) {
    cj_taps_free(&across);
    return -1;
  }
  // Down first, into column sums (premultiplied, 4 a column), then across.
  double *column = malloc(sizeof(double) * 4 * (size_t)width);
  uint32_t *sum = malloc(sizeof(uint32_t) * (alpha ? 4 * (size_t)width : n));
  if (!column || !sum) {
    free(column);
    free(sum);
    cj_taps_free(&across);
    cj_taps_free(&down);
    return -1;
  }
  const double unit = 1.0 / 255;
  for (int oy = 0; oy < h; oy++) {
    const unsigned char *p = pixels + (size_t)down.first[oy] * stride;
    double *o = out + (size_t)oy * w * 4;
    if (down.uniform) {
      // Whole blocks of rows: integer sums (the bytes' own rows added, vectorised), scaled once.
      if (!alpha) {
        for (size_t i = 0; i < n; i++) sum[i] = p[i];
        for (int k = 1; k < down.count[oy]; k++) cj_add_row(sum, p + (size_t)k * stride, n);
      } else {
        memset(sum, 0, sizeof(uint32_t) * 4 * (size_t)width);
        for (int k = 0; k < down.count[oy]; k++) {
          const unsigned char *q = p + (size_t)k * stride;
          for (int x = 0; x < width; x++, q += bands) {
            const uint32_t a = q[bands - 1];
            sum[4 * x] += q[0] * a;
            sum[4 * x + 1] += q[green] * a;
            sum[4 * x + 2] += q[blue] * a;
            sum[4 * x + 3] += a;
          }
        }
      }
      const int step = alpha ? 4 : bands;  // sum's values a column
      const double share = 1.0 / (height / h), scale = alpha ? share * unit : share;
      if (across.uniform) {
        // Whole blocks both ways: integer sums to the end, one scale a cell.
        const int factor = width / w;
        const double cell = scale / factor;
        for (int x = 0; x < w; x++) {
          const uint32_t *q = sum + (size_t)x * factor * step;
          uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
          for (int i = 0; i < factor; i++, q += step) {
            s0 += q[0];
            s1 += q[green];
            s2 += q[blue];
            if (alpha) s3 += q[3];
          }
          o[4 * x] = s0 * cell;
          o[4 * x + 1] = s1 * cell;
          o[4 * x + 2] = s2 * cell;
          o[4 * x + 3] = alpha ? s3 * cell : 1;
        }
        continue;
      }
      for (int x = 0; x < width; x++) {
        const uint32_t *q = sum + (size_t)x * step;
        column[4 * x] = q[0] * scale;
        column[4 * x + 1] = q[alpha ? 1 : green] * scale;
        column[4 * x + 2] = q[alpha ? 2 : blue] * scale;
        column[4 * x + 3] = alpha ? q[3] * scale : 1;
      }
    } else {
      memset(column, 0, sizeof(double) * 4 * (size_t)width);
      for (int k = 0; k < down.count[oy]; k++) {
        const unsigned char *q = p + (size_t)k * stride;
        const double s = down.weight[down.offset[oy] + k];
        for (int x = 0; x < width; x++, q += bands) {
          const double a = alpha ? q[bands - 1] * (s * unit) : s;
          column[4 * x] += q[0] * a;
          column[4 * x + 1] += q[green] * a;
          column[4 * x + 2] += q[blue] * a;
          column[4 * x + 3] += a;
        }
      }
    }
    // Across: each cell the weighted sum of the columns it covers.
    sum_across(&across, column, w, o);
  }
  free(column);
  free(sum);
  cj_taps_free(&across);
  cj_taps_free(&down);
  return 0;
}

int cj_area_resize(const double *in, int width, int height, int w, int h, double *out) {
  if (!in || width < 1 || height < 1 || w < 1 || h < 1 || w > width || h > height) return 1;
  cj_taps across, down;
  if (cj_taps_make(width, w, &across)) return -1;
  if (cj_taps_make(height, h, &down)) {
    cj_taps_free(&across);
    return -1;
  }
  // Across first (width -> w; nothing to do at the same width), then down (height -> h), each
  // cell summed from 0 in tap order.
  double *rows = NULL;
  const double *source = in;
  if (w != width) {
    rows = malloc(sizeof(double) * 4 * (size_t)w * (size_t)height);
    if (!rows) {
      cj_taps_free(&across);
      cj_taps_free(&down);
      return -1;
    }
    for (int y = 0; y < height; y++) sum_across(&across, in + (size_t)y * width * 4, w, rows + (size_t)y * w * 4);
    source = rows;
  }
  const size_t stride = 4 * (size_t)w;
  memset(out, 0, sizeof(double) * stride * (size_t)h);
  for (int y = 0; y < h; y++) {
    double *o = out + (size_t)y * stride;
    for (int k = 0; k < down.count[y]; k++) {
      const double *from = source + (size_t)(down.first[y] + k) * stride;
      const double share = down.weight[down.offset[y] + k];
      for (size_t i = 0; i < stride; i++) o[i] += from[i] * share;
    }
  }
  free(rows);
  cj_taps_free(&across);
  cj_taps_free(&down);
  return 0;
}

int cj_placeholder_copy(VipsImage *in, int w, int h, double *out) {
  if (in->Coding != VIPS_CODING_NONE || in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 ||
      in->Bands > 4 || w < 1 || h < 1 || w > in->Xsize || h > in->Ysize)
    return 1;
  // A memory image is read in place; a lazy one is rendered into memory first.
  if (vips_image_wio_input(in)) return -1;
  int rc = cj_area_average(VIPS_IMAGE_ADDR(in, 0, 0), VIPS_IMAGE_SIZEOF_LINE(in), in->Xsize,
                           in->Ysize, in->Bands, w, h, out);
  if (rc < 0) vips_error("placeholders", "out of memory");
  return rc;
}
