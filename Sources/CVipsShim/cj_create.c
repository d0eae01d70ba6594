// Images made from nothing: a constant colour, rendered text.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_constant(int width, int height, const double *colour, int n, VipsImage **out) {
  VipsImage *black = NULL, *t = NULL;
  if (vips_black(&black, width, height, "bands", n, NULL)) return -1;
  int rc = vips_linear(black, &t, (double[]){1, 1, 1, 1}, (double *)colour, n, NULL);
  g_object_unref(black);
  if (rc) return -1;
  rc = vips_cast(t, out, VIPS_FORMAT_UCHAR, NULL);
  g_object_unref(t);
  if (rc) return -1;
  (*out)->Type = n >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
  return 0;
}

int cj_text(const char *text, const char *font, int width, int dpi, VipsImage **out) {
  if (width > 0) return vips_text(out, text, "font", font, "width", width, "dpi", dpi, NULL);
  return vips_text(out, text, "font", font, "dpi", dpi, NULL);
}
