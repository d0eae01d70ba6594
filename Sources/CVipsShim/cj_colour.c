// Colour: conversion to 8-bit sRGB (through the embedded ICC profile or not), RGB test.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_to_srgb(VipsImage *in, int use_icc, VipsImage **out) {
  VipsImage *t = NULL;
  int rc;
  if (use_icc && cj_has_icc(in) && vips_image_hasalpha(in) && in->BandFmt != VIPS_FORMAT_UCHAR) {
    // libvips 8.14's icc_transform copies a 16-bit alpha unscaled beside its 8-bit colour
    // (0...65535 next to 0...255): the cast to 8 bits below then made every alpha above 255
    // opaque. So the colour is transformed alone and the alpha brought to 8 bits as
    // vips_colourspace brings it (its top byte, as for a file without a profile), then joined.
    VipsImage *colour = NULL, *alpha = NULL, *shifted = NULL, *alpha8 = NULL, *converted = NULL;
    rc = vips_extract_band(in, &colour, 0, "n", in->Bands - 1, NULL) ||
         vips_extract_band(in, &alpha, in->Bands - 1, NULL) ||
         vips_icc_transform(colour, &converted, "srgb", "embedded", TRUE, "intent",
                            VIPS_INTENT_PERCEPTUAL, NULL);
    if (!rc) {
      if (alpha->BandFmt == VIPS_FORMAT_USHORT) {
        rc = vips_rshift_const1(alpha, &shifted, 8, NULL) ||
             vips_cast(shifted, &alpha8, VIPS_FORMAT_UCHAR, NULL);
      } else {
        rc = vips_cast(alpha, &alpha8, VIPS_FORMAT_UCHAR, NULL);
      }
    }
    if (!rc && converted->BandFmt != VIPS_FORMAT_UCHAR) {
      VipsImage *c = NULL;
      rc = vips_cast(converted, &c, VIPS_FORMAT_UCHAR, NULL);
      g_object_unref(converted);
      converted = rc ? NULL : c;
    }
    if (!rc) rc = vips_bandjoin2(converted, alpha8, &t, NULL);
    VIPS_UNREF(colour);
    VIPS_UNREF(alpha);
    VIPS_UNREF(shifted);
    VIPS_UNREF(alpha8);
    VIPS_UNREF(converted);
  } else if (use_icc && cj_has_icc(in)) {
    rc = vips_icc_transform(in, &t, "srgb", "embedded", TRUE, "intent",
                            VIPS_INTENT_PERCEPTUAL, NULL);
  } else {
    // Greyscale (with or without alpha) too becomes sRGB: the renderer works in RGB(A).
    rc = vips_colourspace(in, &t, VIPS_INTERPRETATION_sRGB, NULL);
  }
  if (rc) return -1;
  if (t->BandFmt != VIPS_FORMAT_UCHAR) {
    VipsImage *c = NULL;
    rc = vips_cast(t, &c, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(t);
    if (rc) return -1;
    t = c;
  }
  *out = t;
  return 0;
}

int cj_is_rgb(VipsImage *image) {
  VipsInterpretation kind = vips_image_guess_interpretation(image);
  return image->Bands >= 3 && (kind == VIPS_INTERPRETATION_sRGB || kind == VIPS_INTERPRETATION_RGB16);
}
