// Header facts: size, bands, alpha, y offset, orientation, pages, ICC profile.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_width(VipsImage *image) { return vips_image_get_width(image); }
int cj_height(VipsImage *image) { return vips_image_get_height(image); }
int cj_bands(VipsImage *image) { return vips_image_get_bands(image); }
int cj_has_alpha(VipsImage *image) { return vips_image_hasalpha(image) ? 1 : 0; }
int cj_is_float(VipsImage *image) { return image->BandFmt == VIPS_FORMAT_FLOAT; }
int cj_yoffset(VipsImage *image) { return vips_image_get_yoffset(image); }

int cj_orientation(VipsImage *image) {
  int v = 1;
  if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
      !vips_image_get_int(image, VIPS_META_ORIENTATION, &v) && v >= 1 && v <= 8)
    return v;
  return 1;
}

int cj_pages(VipsImage *image) {
  int v = 1;
  if (vips_image_get_typeof(image, VIPS_META_N_PAGES) &&
      !vips_image_get_int(image, VIPS_META_N_PAGES, &v) && v >= 1)
    return v;
  return 1;
}

int cj_has_icc(VipsImage *image) {
  return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

int cj_xmp(VipsImage *image, const void **data, size_t *length) {
  *data = NULL;
  *length = 0;
  if (!vips_image_get_typeof(image, VIPS_META_XMP_NAME)) return 0;
  return vips_image_get_blob(image, VIPS_META_XMP_NAME, data, length) ? -1 : 0;
}
