// Fixed-arity C wrappers over libvips 8.14's variadic API, for Swift (which cannot call C
// variadics), one section per source file (Sources/CVipsShim/cj_*.c), and the start-up, log
// capture and error plumbing around them. Pixel kernels and the direct libjpeg/libpng
// encoders are not here: they are CPixels (cpixels.h), with their own return values.
//
// Return values. A function that makes, opens, saves or changes something returns 0 on
// success and -1 on failure, the message in libvips' error buffer (which the Swift layer
// copies and clears at once: cj_take_error). The others say so at the function:
//   - a value: the header facts (cj_width ... cj_pages), cj_png_filter;
//   - a flag, 1 or 0: cj_has_operation, cj_has_alpha, cj_is_float, cj_has_icc, cj_is_rgb;
//   - a count: cj_capture_end, cj_uncaptured_take;
//   - more failures than -1: cj_open, cj_open_frames, cj_read_file (-2, the message in
//     `message`; -3 no accepted loader; -4 too large), and cj_read_head's 1 ("not this
//     format": leave it to libvips).
#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

// ---- Start-up, operations, errors, lifetimes (cj_start.c) ----------------------------------

/// Starts libvips once per process. `threads` is libvips' own worker count per pipeline.
/// Of libvips' modules only heif's is loaded (unless VIPSHOME is set): see cj_start.c.
int cj_init(const char *argv0, int threads, int cache_max, int block_untrusted);
/// For a program's first lines, while it has one thread: sets VIPSHOME (unless the user did) as
/// cj_init would, and leaves it set, so that cj_init may then run on any thread (cj_start.c).
void cj_prepare_lazy_start(void);
/// libvips' version; libvips need not be started.
const char *cj_vips_version(void);

/// 1 when this libvips has a saver with the given nickname ("webpsave_buffer", ...).
int cj_has_operation(const char *nickname);

/// Copies libvips' error buffer into `buf` (NUL-terminated) and clears it.
void cj_take_error(char *buf, size_t size);

void cj_unref(VipsImage *image);
/// Frees a buffer from a saver or cj_write_to_memory.
void cj_free(void *p);

// ---- Warning capture (cj_capture.c) --------------------------------------------------------

/// Starts recording the messages libvips (GLib log: warnings, criticals, messages, of any
/// domain) raises on this thread, instead of printing them. Captures nest; pass the token to
/// cj_capture_end on the same thread.
void *cj_capture_begin(void);
/// Stops the capture: copies the messages' lines (joined by "; ", on one line) into `buf` and
/// returns how many messages there were.
int cj_capture_end(void *token, char *buf, size_t size);
/// Brackets a header read (open to release) on this thread: while any is open, libvips' error
/// buffer, where the JPEG reader keeps libjpeg's warnings until it closes, is not cleared
/// (cj_take_error leaves it); the last to end clears it if a read was `damaged` (warned) or a
/// take had to leave it.
void cj_reading_begin(void);
void cj_reading_end(int damaged);
/// Takes the messages raised where no capture was active (e.g. on a libvips worker thread):
/// copies them, one a line, each "domain: text", into `buf`, returns how many there were
/// and forgets them. They are never printed by the shim.
int cj_uncaptured_take(char *buf, size_t size);

// ---- Loading (cj_load.c) -------------------------------------------------------------------

/// Opens a regular file through the one loader cropjob accepts for it (jpeg, png, webp,
/// tiff, gif, heif: `format` 0...5), lazily. `header_only` ignores `shrink`. Returns 0; -1
/// (libvips' error buffer has the message); -2 (`message` says why: missing, unreadable,
/// not a regular file, empty); -3 (no accepted loader recognises the bytes). `stored` (2 ints,
/// or NULL) receives the width and height the file's header gives, whatever the shrink.
int cj_open(const char *path, int header_only, int shrink, int fail_on, int *format,
            VipsImage **out, int *stored, char *message, size_t message_size);

/// Reads a regular file (the checks of cj_open) into a g_malloc'd buffer (free with cj_free)
/// through one descriptor. Returns 0; -2 with `message` saying why; -4 when the file is larger
/// than `max_bytes` (nothing read).
int cj_read_file(const char *path, size_t max_bytes, void **data, size_t *length, char *message,
                 size_t message_size);
/// The first bytes of a regular file (the checks of cj_open), at most `max_bytes`, when it
/// starts with `magic`: 0 with a g_malloc'd buffer (free with cj_free) and the file's size;
/// 1 for anything else (not a regular file, unreadable, other bytes), which the caller then
/// leaves to libvips (cj_open), whose errors say what is wrong.
int cj_read_head(const char *path, size_t max_bytes, const unsigned char *magic, size_t magic_length,
                 void **data, size_t *length, size_t *file_size);
/// cj_open (not header-only) over the bytes of cj_read_file, which it takes ownership of
/// (freed when the image and the loader are done with them, or at once on failure).
int cj_open_bytes(void *data, size_t length, int shrink, int fail_on, int *format,
                  VipsImage **out, int *stored);
/// cj_open_bytes header only (no shrink): the header of an object read from a store, from
/// its first bytes or all of them; takes ownership of `data` as cj_open_bytes does.
int cj_open_bytes_header(void *data, size_t length, int fail_on, int *format, VipsImage **out);

/// cj_open (not header-only, no shrink) of the frames `page` to `page + n - 1` of a GIF or WebP
/// (`n` -1: to the last) as one image `n` frames tall, with libvips' `page-height`, `delay`
/// and `loop` fields; other formats open as cj_open opens them.
int cj_open_frames(const char *path, int page, int n, int fail_on, int *format, VipsImage **out,
                   char *message, size_t message_size);

/// Evaluates `in` into a new memory image on the calling thread (no libvips worker
/// threads), so that every warning the decode raises reaches this thread's capture.
int cj_decode_here(VipsImage *in, VipsImage **out);

/// Opens a file lazily; reads the header only. `shrink` > 1 asks the JPEG/WebP loaders to
/// shrink while decoding (ignored by loaders that cannot). `fail_on`: 0 none, 1 truncated,
/// 2 error, 3 warning. `sequential` selects sequential access.
int cj_load(const char *path, int shrink, int fail_on, int sequential, VipsImage **out);

// ---- Header facts (cj_header.c) ------------------------------------------------------------

int cj_width(VipsImage *image);
int cj_height(VipsImage *image);
int cj_bands(VipsImage *image);
int cj_has_alpha(VipsImage *image);
/// 1 when the image's bands are 32-bit floats.
int cj_is_float(VipsImage *image);
int cj_yoffset(VipsImage *image);
/// EXIF orientation 1..8 (1 when absent).
int cj_orientation(VipsImage *image);
/// Number of pages (frames), 1 when absent.
int cj_pages(VipsImage *image);
/// The XMP packet (`xmp-data`), borrowed from the image: *data is NULL when there is none.
int cj_xmp(VipsImage *image, const void **data, size_t *length);
/// 1 when the image carries an ICC profile.
int cj_has_icc(VipsImage *image);

// ---- Colour (cj_colour.c) ------------------------------------------------------------------

/// Converts to sRGB (through the embedded ICC profile when there is one), 8 bits per band.
int cj_to_srgb(VipsImage *in, int use_icc, VipsImage **out);
/// 1 when the image is RGB (8 or 16 bits, with or without alpha), not CMYK, grey or Lab.
int cj_is_rgb(VipsImage *image);

// ---- Conversion (cj_conversion.c) ----------------------------------------------------------

int cj_autorot(VipsImage *in, VipsImage **out);
int cj_extract_area(VipsImage *in, int left, int top, int width, int height, VipsImage **out);
/// Smart crop: the position (left, top) of the most interesting width x height window.
/// `interesting`: "attention" or "entropy".
int cj_smartcrop_position(VipsImage *in, int width, int height, const char *interesting,
                          int *left, int *top);
/// Casts to 8 bits per band (an 8-bit image is returned as it is, with a new reference).
int cj_cast_uchar(VipsImage *in, VipsImage **out);

// ---- Resampling (cj_resample.c) ------------------------------------------------------------

int cj_shrink(VipsImage *in, double hshrink, double vshrink, VipsImage **out);
/// Affine resample: out(x,y) = in(M^-1 (x - odx, y - ody)) with the output window
/// (ox, oy, ow, oh). `interpolator`: a libvips interpolator nickname ("bicubic", ...).
/// Pixels outside the input get `background` (n values); with `copy_edges` the interpolator's
/// taps beyond the input's edge repeat the edge pixels instead of taking `background` (for
/// outputs the photo covers entirely). An `in` with alpha must be premultiplied, and so must
/// `background` (the output is too): libvips' own premultiply/unpremultiply is turned off.
int cj_affine_edges(VipsImage *in, double a, double b, double c, double d, double idx,
                    double idy, double odx, double ody, int ox, int oy, int ow, int oh,
                    const char *interpolator, const double *background, int n, int copy_edges,
                    VipsImage **out);

// ---- Alpha (cj_alpha.c) --------------------------------------------------------------------

/// Adds an opaque alpha band when the image has none.
int cj_ensure_alpha(VipsImage *in, VipsImage **out);
/// Premultiplies colour by alpha (float result) / undoes it and rounds back to 8 bits.
int cj_premultiply(VipsImage *in, VipsImage **out);
int cj_unpremultiply_uchar(VipsImage *in, VipsImage **out);
/// Multiplies the alpha band (the last) by a one-band uchar mask of the same size.
int cj_apply_mask(VipsImage *in, VipsImage *mask, VipsImage **out);
/// Flattens alpha against the background colour (n values).
int cj_flatten(VipsImage *in, const double *background, int n, VipsImage **out);

// ---- Memory (cj_memory.c) ------------------------------------------------------------------

/// Wraps a copy of width x height x bands uchar pixels.
int cj_from_memory(const void *data, size_t size, int width, int height, int bands,
                   VipsImage **out);
/// Wraps a copy of width x height x bands float pixels (tests: premultiplied rasters).
int cj_from_memory_float(const float *data, int width, int height, int bands, VipsImage **out);
/// A g_malloc'd buffer of `size` bytes (free with cj_free), NULL when memory is short.
void *cj_alloc(size_t size);
/// Wraps width x height x bands uchar pixels in a g_malloc'd buffer, rows `stride` bytes
/// apart (>= width x bands; packed in place), which the image takes ownership of (freed when
/// it closes; at once if this fails). `xres`/`yres`: pixels per mm. `orientation` > 1 is set
/// as the image's EXIF orientation tag (for cj_autorot).
int cj_from_memory_owned(void *data, size_t stride, int width, int height, int bands,
                         double xres, double yres, int orientation, VipsImage **out);
/// Writes the pixels of an 8-bit image into a fresh malloc'd buffer (free with cj_free).
int cj_write_to_memory(VipsImage *in, void **data, size_t *size);
int cj_copy_memory(VipsImage *in, VipsImage **out);
/// Decodes encoded image bytes (any format libvips reads; the first page) into a malloc'd
/// buffer of 8-bit interleaved pixels (free with cj_free).
int cj_decode_buffer(const void *data, size_t length, void **pixels, size_t *size, int *width,
                     int *height, int *bands);


// ---- Creating images (cj_create.c) ---------------------------------------------------------

/// A width x height image of one constant colour (n bands, uchar).
int cj_constant(int width, int height, const double *colour, int n, VipsImage **out);
/// Renders `text` (Pango markup) as a one-band uchar ink mask, 0 = no ink. `width` > 0 wraps
/// lines at that many pixels. The image's yoffset is the ink's top below the layout's top
/// (so lines rendered one by one can share a baseline).
int cj_text(const char *text, const char *font, int width, int dpi, VipsImage **out);

// ---- Metadata (cj_metadata.c) --------------------------------------------------------------

/// Metadata kinds `cj_keep_metadata` can keep.
enum {
  CJ_KEEP_ICC = 1,
  CJ_KEEP_COPYRIGHT = 2,
  CJ_KEEP_ARTIST = 4,
  CJ_KEEP_DATE = 8,
  CJ_KEEP_CAMERA = 16,
  CJ_KEEP_GPS = 32,
  CJ_KEEP_XMP = 64,
  CJ_KEEP_IPTC = 128,
};
/// A copy of `in` whose metadata holds only the kinds in `keep` (a CJ_KEEP_* mask); the
/// orientation tag and the EXIF thumbnail are always removed. The EXIF block is rebuilt by
/// the saver from the remaining tags (save with strip = 0).
int cj_keep_metadata(VipsImage *in, int keep, VipsImage **out);
/// A copy of `in` carrying the metadata of `from` (EXIF, XMP, IPTC, ICC, ...: every field but
/// the image's dimensions and format), for pixels decoded without libvips.
int cj_copy_metadata(VipsImage *in, VipsImage *from, VipsImage **out);
/// Opens a JPEG in memory (`data`, not copied: it must outlive the image) header only, for
/// its metadata.
int cj_jpeg_header_buffer(const void *data, size_t length, VipsImage **out);
/// A copy of `in` carrying the ICC profile of `from` (none if `from` has none).
int cj_copy_icc(VipsImage *in, VipsImage *from, VipsImage **out);

// ---- Savers (cj_save.c) --------------------------------------------------------------------

/// Savers into malloc'd buffers (free with cj_free). `strip` removes all metadata.
int cj_jpegsave(VipsImage *in, int quality, int progressive, int subsample, int optimize,
                int strip, void **buf, size_t *len);
/// The PNG row filter for a zlib level, as a libpng (= libvips) filter flag: adaptive (all
/// five, libpng's choice per row) from level 1 up, none for stored rows (level 0).
int cj_png_filter(int compression);
/// libvips' pngsave; without a palette the rows are filtered as cj_png_filter says.
int cj_pngsave(VipsImage *in, int compression, int palette, int quality, int strip,
               void **buf, size_t *len);
int cj_webpsave(VipsImage *in, int quality, int lossless, int effort, int strip, void **buf,
                size_t *len);
/// `compression`: 0 HEVC, 1 AV1.
int cj_heifsave(VipsImage *in, int quality, int lossless, int effort, int compression,
                int strip, void **buf, size_t *len);
int cj_jxlsave(VipsImage *in, int quality, int lossless, int effort, int strip, void **buf,
               size_t *len);
int cj_tiffsave(VipsImage *in, int quality, int strip, void **buf, size_t *len);

// ---- Animations (cj_animation.c) -----------------------------------------------------------

/// The timing of an image of frames stacked top to bottom: its frame height (libvips'
/// `page-height`, the image's height when unset), up to `max_delays` frame delays in
/// milliseconds (`delay`; `n_delays` says how many it has, 0 when none) and the loop count
/// (`loop`: 0 forever).
int cj_timing(VipsImage *image, int *page_height, int *delays, int max_delays, int *n_delays,
              int *loop);
/// The `n` frames (same size and bands) stacked top to bottom into one image carrying
/// `page-height`, `n-pages`, `delay` (n values, milliseconds) and `loop`, as the WebP and GIF
/// savers read them to write an animation.
int cj_join_frames(VipsImage **frames, int n, const int *delays, int loop, VipsImage **out);
/// libvips' GIF saver (cgif): `effort` 1-10.
int cj_gifsave(VipsImage *in, int effort, int strip, void **buf, size_t *len);

#endif
