// JPEG headers read by libjpeg directly (docs/decoding.md, "Reading JPEG headers"): the
// planner's header read without libvips' loader machinery, for JPEGs whose header reads
// cleanly; anything else goes to libvips as before.
#include "cvips_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  int warnings;
} cj_header_error;

static void cj_header_error_exit(j_common_ptr cinfo) {
  longjmp(((cj_header_error *)cinfo->err)->jump, 1);
}

// Warnings (level -1) are counted: any one sends the file to libvips, which reports it.
// Trace messages (level >= 0) are not problems. Nothing is printed.
static void cj_header_message(j_common_ptr cinfo, int level) {
  if (level < 0) ((cj_header_error *)cinfo->err)->warnings++;
}

int cj_jpeg_header_facts(const void *data, size_t length, int *width, int *height, int *components,
                         int *colour_space, int *precision) {
  *width = *height = *components = *colour_space = *precision = 0;
  if (!data || length < 4) return 1;
  struct jpeg_decompress_struct cinfo;
  cj_header_error error;
  memset(&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error(&error.pub);
  error.pub.error_exit = cj_header_error_exit;
  error.pub.emit_message = cj_header_message;
  error.warnings = 0;
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
