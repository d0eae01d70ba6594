// Resampling through libvips: box shrink (vips_shrink) and the affine resample (vips_affine).
#include "cj_internal.h"

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
