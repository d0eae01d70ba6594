// JPEG encoding with libjpeg directly (docs/decoding.md, "Encoding JPEG outputs"): the settings
// libvips 8.14's jpegsave uses with `strip`, so that the bytes are the ones
// vips_jpegsave_buffer writes, without a libvips operation, a pipeline or a sink per output.
#include "cj_pixels_internal.h"

#include <stdlib.h>
#include <string.h>

#include "cj_jpeg_error.h"
#include <jerror.h>

// The compressed bytes, in a buffer that grows by doubling (freed here on an error, so that no
// path leaks it).
typedef struct {
  struct jpeg_destination_mgr pub;
  unsigned char *data;
  size_t size;
} cj_jpeg_dest;

static void cj_dest_init(j_compress_ptr cinfo) {
  cj_jpeg_dest *dest = (cj_jpeg_dest *)cinfo->dest;
  dest->pub.next_output_byte = dest->data;
  dest->pub.free_in_buffer = dest->size;
}

static boolean cj_dest_grow(j_compress_ptr cinfo) {
  cj_jpeg_dest *dest = (cj_jpeg_dest *)cinfo->dest;
  // Called when the buffer is exactly full.
  unsigned char *bigger = realloc(dest->data, dest->size * 2);
  if (!bigger) ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
  dest->pub.next_output_byte = bigger + dest->size;
  dest->pub.free_in_buffer = dest->size;
  dest->data = bigger;
  dest->size *= 2;
  return TRUE;
}

static void cj_dest_term(j_compress_ptr cinfo) { (void)cinfo; }

int cj_jpeg_encode(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                   int quality, int progressive, int subsample, int optimize, int one_table_pair,
                   void **buf, size_t *len, char *message, size_t message_size) {
  *buf = NULL;
  *len = 0;
  if (message && message_size) message[0] = '\0';
  if (!pixels || width < 1 || height < 1 || (bands != 1 && bands != 3)) return 1;
  struct jpeg_compress_struct cinfo;
  cj_jpeg_error error;
  memset(&cinfo, 0, sizeof cinfo);
  // libjpeg's messages never reach stderr: a compression warning has no source file to attach
  // to, and an error is returned with its text.
  cinfo.err = cj_jpeg_error_init(&error, message, message_size);
  // On the heap: what the callbacks change must be read after a longjmp (the pointer is not
  // changed after setjmp).
  cj_jpeg_dest *dest = calloc(1, sizeof *dest);
  if (!dest) return -1;
  dest->pub.init_destination = cj_dest_init;
  dest->pub.empty_output_buffer = cj_dest_grow;
  dest->pub.term_destination = cj_dest_term;
  // A compressed 8-bit image is rarely larger than a quarter of its pixels' bytes.
  dest->size = 4096 + (size_t)width * height * bands / 4;
  dest->data = malloc(dest->size);
  if (!dest->data) {
    free(dest);
    return -1;
  }
  if (setjmp(error.jump)) {
    jpeg_destroy_compress(&cinfo);
    free(dest->data);
    free(dest);
    return -1;
  }
  jpeg_create_compress(&cinfo);
  cinfo.dest = &dest->pub;
  cinfo.image_width = (JDIMENSION)width;
  cinfo.image_height = (JDIMENSION)height;
  cinfo.input_components = bands;
  cinfo.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
  // As libvips' write_vips: defaults, quality with baseline tables, optimised Huffman tables
  // when asked, simple progression when asked, no chroma subsampling when switched off or,
  // automatically, from quality 90, and no JFIF segment (strip).
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  cinfo.optimize_coding = optimize ? TRUE : FALSE;
  if (progressive) jpeg_simple_progression(&cinfo);
  if (subsample == 2 || (subsample == 0 && quality >= 90)) {
    for (int i = 0; i < cinfo.num_components; i++) {
      cinfo.comp_info[i].h_samp_factor = 1;
      cinfo.comp_info[i].v_samp_factor = 1;
    }
  }
  cinfo.write_JFIF_header = FALSE;
  // One DC and one AC Huffman table for every component: half the tables to optimise and
  // write (for a tiny image the tables are most of the file).
  if (one_table_pair) {
    for (int i = 1; i < cinfo.num_components; i++) {
      cinfo.comp_info[i].dc_tbl_no = 0;
      cinfo.comp_info[i].ac_tbl_no = 0;
    }
  }
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  *buf = dest->data;
  *len = dest->size - dest->pub.free_in_buffer;
  free(dest);
  return 0;
}

int cj_jpegsave_direct(VipsImage *in, int quality, int progressive, int subsample, int optimize,
                       void **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  // What libvips' saver writes unconverted: uncoded 8-bit RGB (sRGB, or untagged bands).
  if (in->Coding != VIPS_CODING_NONE || in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands != 3 ||
      (in->Type != VIPS_INTERPRETATION_sRGB && in->Type != VIPS_INTERPRETATION_RGB &&
       in->Type != VIPS_INTERPRETATION_MULTIBAND))
    return 1;
  // A memory image is read in place; a lazy one is rendered into memory first.
  if (vips_image_wio_input(in)) return -1;
  char message[JMSG_LENGTH_MAX + 32];
  int rc = cj_jpeg_encode(VIPS_IMAGE_ADDR(in, 0, 0), VIPS_IMAGE_SIZEOF_LINE(in), in->Xsize,
                          in->Ysize, 3, quality, progressive, subsample, optimize, 0, buf, len,
                          message, sizeof message);
  if (rc < 0) vips_error("jpegsave", "%s", message);
  return rc;
}
