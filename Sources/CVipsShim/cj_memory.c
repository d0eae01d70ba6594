// Images and pixel buffers in memory: wrap pixels, read pixels out, render into memory.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_from_memory(const void *data, size_t size, int width, int height, int bands,
                   VipsImage **out) {
  *out = vips_image_new_from_memory_copy(data, size, width, height, bands, VIPS_FORMAT_UCHAR);
  return *out ? 0 : -1;
}

int cj_from_memory_float(const float *data, int width, int height, int bands, VipsImage **out) {
  *out = vips_image_new_from_memory_copy(data, (size_t)width * height * bands * sizeof(float), width,
                                         height, bands, VIPS_FORMAT_FLOAT);
  if (*out) (*out)->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
  return *out ? 0 : -1;
}

int cj_write_to_memory(VipsImage *in, void **data, size_t *size) {
  *data = vips_image_write_to_memory(in, size);
  return *data ? 0 : -1;
}

int cj_copy_memory(VipsImage *in, VipsImage **out) {
  *out = vips_image_copy_memory(in);
  return *out ? 0 : -1;
}

void *cj_alloc(size_t size) { return g_try_malloc(size ? size : 1); }

static void cj_free_pixels(VipsImage *image, void *data) {
  (void)image;
  g_free(data);
}

int cj_from_memory_owned(void *data, size_t stride, int width, int height, int bands,
                         double xres, double yres, int orientation, VipsImage **out) {
  const size_t row = (size_t)width * bands;
  if (stride > row) {
    // Rows packed in place (each moves to a lower address than it was at).
    for (int y = 1; y < height; y++) memmove((char *)data + y * row, (char *)data + y * stride, row);
  }
  *out = vips_image_new_from_memory(data, row * height, width, height, bands, VIPS_FORMAT_UCHAR);
  if (!*out) {
    g_free(data);
    return -1;
  }
  g_signal_connect(*out, "postclose", G_CALLBACK(cj_free_pixels), data);
  (*out)->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
  (*out)->Xres = xres;
  (*out)->Yres = yres;
  if (orientation > 1) vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
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
