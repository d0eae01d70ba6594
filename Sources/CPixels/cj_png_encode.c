// PNG encoding with libpng directly (docs/decoding.md, "Encoding PNG outputs"): what libvips
// 8.14's pngsave (built with libpng, as Debian's is) writes with `strip` and no palette, so
// that the bytes are the ones vips_pngsave_buffer writes, without the saver's operations:
// IHDR (8 bits, RGB or RGBA, no interlace), pHYs from the image's resolution, the rows
// filtered as cj_png_filter chooses at the given zlib level, IEND.
#include "cj_pixels_internal.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned char *data;
  size_t size, used;
  char *message;
  size_t message_size;
} cj_png_out;

static void cj_png_write(png_structp png, png_bytep bytes, png_size_t n) {
  cj_png_out *out = png_get_io_ptr(png);
  if (out->used + n > out->size) {
    size_t size = out->size * 2 > out->used + n ? out->size * 2 : out->used + n;
    unsigned char *bigger = realloc(out->data, size);
    if (!bigger) png_error(png, "out of memory");
    out->data = bigger;
    out->size = size;
  }
  memcpy(out->data + out->used, bytes, n);
  out->used += n;
}

static void cj_png_flush(png_structp png) { (void)png; }

// libpng's messages never reach stderr: an error is returned with its text; a warning (none
// is expected for 8-bit RGB(A)) is dropped.
static void cj_png_error(png_structp png, png_const_charp text) {
  cj_png_out *out = png_get_error_ptr(png);
  if (out->message && out->message_size) snprintf(out->message, out->message_size, "%s", text);
  png_longjmp(png, 1);
}

static void cj_png_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

int cj_png_encode(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                  double xres, double yres, int compression, void **buf, size_t *len,
                  char *message, size_t message_size) {
  *buf = NULL;
  *len = 0;
  if (message && message_size) message[0] = '\0';
  if (!pixels || width < 1 || height < 1 || (bands != 3 && bands != 4) || compression < 0 ||
      compression > 9)
    return 1;
  // On the heap: read after a longjmp.
  cj_png_out *out = calloc(1, sizeof *out);
  if (!out) return -1;
  out->size = 4096 + (size_t)width * height * bands / 2;
  out->data = malloc(out->size);
  out->message = message;
  out->message_size = message_size;
  png_structp png =
      out->data ? png_create_write_struct(PNG_LIBPNG_VER_STRING, out, cj_png_error, cj_png_warning)
                : NULL;
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    if (png) png_destroy_write_struct(&png, NULL);
    free(out->data);
    free(out);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(out->data);
    free(out);
    return -1;
  }
  png_set_write_fn(png, out, cj_png_write, cj_png_flush);
  png_set_compression_level(png, compression);
  png_set_filter(png, 0, cj_png_filter(compression));
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
               bands == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // Pixels per metre, as libvips rounds them from pixels per millimetre.
  png_set_pHYs(png, info, (png_uint_32)VIPS_RINT(xres * 1000), (png_uint_32)VIPS_RINT(yres * 1000),
               PNG_RESOLUTION_METER);
  png_write_info(png, info);
  for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  *buf = out->data;
  *len = out->used;
  free(out);
  return 0;
}

int cj_pngsave_direct(VipsImage *in, int compression, void **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  // What libvips' saver writes unconverted: uncoded 8-bit RGB or RGBA (sRGB or untagged).
  if (in->Coding != VIPS_CODING_NONE || in->BandFmt != VIPS_FORMAT_UCHAR ||
      (in->Bands != 3 && in->Bands != 4) ||
      (in->Type != VIPS_INTERPRETATION_sRGB && in->Type != VIPS_INTERPRETATION_RGB &&
       in->Type != VIPS_INTERPRETATION_MULTIBAND))
    return 1;
  if (vips_image_wio_input(in)) return -1;
  char message[256];
  int rc = cj_png_encode(VIPS_IMAGE_ADDR(in, 0, 0), VIPS_IMAGE_SIZEOF_LINE(in), in->Xsize,
                         in->Ysize, in->Bands, in->Xres, in->Yres, compression, buf, len, message,
                         sizeof message);
  if (rc < 0) vips_error("pngsave", "%s", message);
  return rc;
}
