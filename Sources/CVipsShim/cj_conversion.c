// Conversions that move or cast pixels: autorotate, extract an area, smart crop, cast.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

int cj_extract_area(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
  return vips_extract_area(in, out, left, top, width, height, NULL);
}

int cj_smartcrop_position(VipsImage *in, int width, int height, const char *interesting,
                          int *left, int *top) {
  int i = vips_enum_from_nick("cropjob", VIPS_TYPE_INTERESTING, interesting);
  if (i < 0) return -1;
  VipsImage *t = NULL;
  int ax = 0, ay = 0;
  if (vips_smartcrop(in, &t, width, height, "interesting", i, "attention_x", &ax,
                     "attention_y", &ay, NULL))
    return -1;
  *left = -vips_image_get_xoffset(t);
  *top = -vips_image_get_yoffset(t);
  g_object_unref(t);
  (void)ax;
  (void)ay;
  return 0;
}

int cj_cast_uchar(VipsImage *in, VipsImage **out) {
  // Already 8-bit: the same image (no operation to build: issue 15, libvips' per-operation cost).
  if (in->BandFmt == VIPS_FORMAT_UCHAR) {
    *out = g_object_ref(in);
    return 0;
  }
  return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}
