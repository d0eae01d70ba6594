// Colour: conversion to 8-bit sRGB (through the embedded ICC profile or not), RGB test.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_to_srgb(VipsImage *in, int use_icc, VipsImage **out) {
  VipsImage *t = NULL;
  int rc;
  if (use_icc && cj_has_icc(in)) {
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
