// JPEG headers read by libjpeg directly (docs/decoding.md, "Reading JPEG headers"): the
// planner's header read without libvips' loader machinery, for JPEGs whose header reads
// cleanly; anything else goes to libvips as before.
#include "cj_pixels_internal.h"

#include <string.h>

#include "cj_jpeg_error.h"

int cj_jpeg_header_facts(const void *data, size_t length, int *width, int *height, int *components,
                         int *colour_space, int *precision) {
  *width = *height = *components = *colour_space = *precision = 0;
  if (!data || length < 4) return 1;
  struct jpeg_decompress_struct cinfo;
  cj_jpeg_error error;
  memset(&cinfo, 0, sizeof cinfo);
  // A warning sends the file to libvips, which reports it.
  cinfo.err = cj_jpeg_error_init(&error, NULL, 0);
  if (setjmp(error.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)length);
  // Bytes that end before the first scan's header make libjpeg's memory source insert an EOI
  // with a warning (counted), and the header is then incomplete: not taken.
  const int status = jpeg_read_header(&cinfo, TRUE);
  const int ok = status == JPEG_HEADER_OK && error.warnings == 0;
  if (ok) {
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    *components = cinfo.num_components;
    *colour_space = (int)cinfo.jpeg_color_space;
    *precision = cinfo.data_precision;
  }
  jpeg_destroy_decompress(&cinfo);
  return ok ? 0 : 1;
}
