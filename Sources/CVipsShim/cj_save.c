// Savers into malloc'd buffers: JPEG, PNG, WebP, HEIF/AVIF, JPEG XL, TIFF.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_png_filter(int compression) {
  // libpng's adaptive choice per row among the five filters (what Pillow and ImageMagick
  // write); stored rows (level 0) gain nothing from a filter. libvips' filter flags are
  // libpng's (VIPS_FOREIGN_PNG_FILTER_ALL is PNG_ALL_FILTERS, _NONE is PNG_FILTER_NONE), so
  // that cj_png_encode (CPixels) passes this value to libpng as it is.
  return compression == 0 ? VIPS_FOREIGN_PNG_FILTER_NONE : VIPS_FOREIGN_PNG_FILTER_ALL;
}

int cj_jpegsave(VipsImage *in, int quality, int progressive, int subsample, int optimize,
                int strip, void **buf, size_t *len) {
  VipsForeignSubsample mode = subsample == 0   ? VIPS_FOREIGN_SUBSAMPLE_AUTO
                              : subsample == 1 ? VIPS_FOREIGN_SUBSAMPLE_ON
                                               : VIPS_FOREIGN_SUBSAMPLE_OFF;
  return vips_jpegsave_buffer(in, buf, len, "Q", quality, "interlace", progressive,
                              "subsample_mode", mode, "optimize_coding", optimize, "strip",
                              strip, NULL);
}

int cj_pngsave(VipsImage *in, int compression, int palette, int quality, int strip,
               void **buf, size_t *len) {
  // Rows filtered as the direct path filters them (cj_png_filter), a palette's unfiltered.
  int filter = palette ? VIPS_FOREIGN_PNG_FILTER_NONE : cj_png_filter(compression);
  return vips_pngsave_buffer(in, buf, len, "compression", compression, "palette", palette,
                             "Q", quality, "strip", strip, "filter", filter, NULL);
}

int cj_webpsave(VipsImage *in, int quality, int lossless, int effort, int strip, void **buf,
                size_t *len) {
  return vips_webpsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort",
                              effort, "strip", strip, NULL);
}

int cj_heifsave(VipsImage *in, int quality, int lossless, int effort, int compression,
                int strip, void **buf, size_t *len) {
  VipsForeignHeifCompression c =
      compression == 1 ? VIPS_FOREIGN_HEIF_COMPRESSION_AV1 : VIPS_FOREIGN_HEIF_COMPRESSION_HEVC;
  return vips_heifsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort",
                              effort, "compression", c, "strip", strip, NULL);
}

int cj_jxlsave(VipsImage *in, int quality, int lossless, int effort, int strip, void **buf,
               size_t *len) {
  return vips_jxlsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort",
                             effort, "strip", strip, NULL);
}

int cj_tiffsave(VipsImage *in, int quality, int strip, void **buf, size_t *len) {
  return vips_tiffsave_buffer(in, buf, len, "Q", quality, "strip", strip, NULL);
}
