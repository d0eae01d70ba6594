// Images and pixel buffers in memory: wrap pixels, read pixels out, render into memory.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_from_memory(const void *data, size_t size, int width, int height, int bands,
                   VipsImage **out) {
  *out = vips_image_new_from_memory_copy(data, size, width, height, bands, VIPS_FORMAT_UCHAR);
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
