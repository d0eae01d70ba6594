// Alpha: add an opaque band, premultiply and back, apply a mask, flatten.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_ensure_alpha(VipsImage *in, VipsImage **out) {
  if (vips_image_hasalpha(in)) {
    g_object_ref(in);
    *out = in;
    return 0;
  }
  return vips_bandjoin_const1(in, out, 255.0, NULL);
}

int cj_premultiply(VipsImage *in, VipsImage **out) { return vips_premultiply(in, out, NULL); }

int cj_unpremultiply_uchar(VipsImage *in, VipsImage **out) {
  VipsImage *t = NULL, *r = NULL;
  if (vips_unpremultiply(in, &t, NULL)) return -1;
  // Round to nearest on the way back to 8 bits.
  int rc = vips_linear1(t, &r, 1.0, 0.5, NULL);
  g_object_unref(t);
  if (rc) return -1;
  rc = vips_cast(r, out, VIPS_FORMAT_UCHAR, NULL);
  g_object_unref(r);
  return rc;
}

int cj_apply_mask(VipsImage *in, VipsImage *mask, VipsImage **out) {
  int bands = in->Bands;
  VipsImage *alpha = NULL, *colour = NULL, *prod = NULL, *scaled = NULL, *cast = NULL;
  int rc = -1;
  if (vips_extract_band(in, &alpha, bands - 1, NULL)) goto done;
  if (vips_extract_band(in, &colour, 0, "n", bands - 1, NULL)) goto done;
  if (vips_multiply(alpha, mask, &prod, NULL)) goto done;
  // Round to nearest: (alpha * mask + 127.5) / 255.
  if (vips_linear1(prod, &scaled, 1.0 / 255.0, 0.5, NULL)) goto done;
  if (vips_cast(scaled, &cast, VIPS_FORMAT_UCHAR, NULL)) goto done;
  rc = vips_bandjoin2(colour, cast, out, NULL);
done:
  if (alpha) g_object_unref(alpha);
  if (colour) g_object_unref(colour);
  if (prod) g_object_unref(prod);
  if (scaled) g_object_unref(scaled);
  if (cast) g_object_unref(cast);
  return rc;
}

int cj_flatten(VipsImage *in, const double *background, int n, VipsImage **out) {
  if (!vips_image_hasalpha(in)) {
    g_object_ref(in);
    *out = in;
    return 0;
  }
  VipsArrayDouble *bg = vips_array_double_new(background, n);
  VipsImage *t = NULL;
  int rc = vips_flatten(in, &t, "background", bg, NULL);
  vips_area_unref(VIPS_AREA(bg));
  if (rc) return -1;
  rc = vips_cast(t, out, VIPS_FORMAT_UCHAR, NULL);
  g_object_unref(t);
  return rc;
}
