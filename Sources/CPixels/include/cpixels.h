// Pixel kernels and codecs written in C for the Swift layer (Sources/CPixels/cj_*.c): the
// arithmetic that would be too slow through libvips' lazy operations or in Swift, and the
// libjpeg and libpng encoders that write the bytes libvips' savers write, without a libvips
// pipeline. Each computes what a named libvips operation (or an outside reference: Pillow,
// scikit-image) computes, and a test holds it to that (docs/testing.md).
//
// Return values. Unlike the wrappers of CVipsShim (0 or -1), a kernel here may decline:
//   0   done (the output arguments are set);
//   1   nothing done: the arguments are not ones it takes (another format, a lazy image, a
//       size below its window); the caller takes the reference path, libvips' operation;
//   -1  failure: out of memory, or a libvips error (then in libvips' error buffer), or, for
//       the encoders, the codec's message in `message`.
// cj_luma returns 0 or -1 (bad arguments); cj_ssim_reference and cj_ssim_score return 1 for
// "no score" (a side under 11 pixels). A function whose comment says otherwise returns what
// it says there.
#ifndef CPIXELS_H
#define CPIXELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

// ---- Resampling (cj_resample_axis.c) -----------------------------------------------------------

/// The resample of cj_affine_edges with b = c = 0 (a or d negative: a flip), idx = idy = 0 and
/// copy_edges, done separably on the calling thread, with a kernel that widens on downscales: output pixel
/// (X, Y) is centred on ((X - odx) / a, (Y - ody) / d) of `in` (pixel centres on integer
/// coordinates); per axis, at scale >= 1 the Catmull-Rom cubic ("bicubic", 4 taps), at
/// scale < 1 Lanczos3 stretched by 1 / scale (2 ceil(3 / scale) + 1 taps); taps beyond the
/// edges repeat the edge pixels. Rows, then columns; exact sub-pixel positions, float
/// arithmetic (libvips' interpolator rounds positions to 1/64 px, 8-bit weights to 12 bits).
/// `in`: uchar or float, any bands; `out`: same format, in memory, deterministic. Returns 1
/// (nothing done) for anything else (a or d zero, other formats), so that the caller falls
/// back to cj_affine_edges; -1 on a libvips error. Only the window (left, top, width, height)
/// of `in` is read, as if extracted first (coordinates relative to it; width or height <= 0:
/// the whole image); a memory image's rows are read in place, without a region.
int cj_resample_axis(VipsImage *in, int left, int top, int width, int height, double a, double d,
                     double odx, double ody, int ow, int oh, VipsImage **out);

// ---- Box shrink and orientation in memory (cj_box.c) -------------------------------------------

/// vips_shrink(factor, factor) of the window (left, top, width, height) of an 8-bit memory
/// image (factor 2 to 4095), computed directly (the same pixels: the mean of each block per axis, columns first,
/// each rounded to nearest; round(size / factor) pixels a side, a partial block repeating the
/// window's edge) into a new memory image. 1 (nothing done)
/// for anything else (a lazy image, another format, factor < 2, a window smaller than factor).
int cj_box_shrink(VipsImage *in, int left, int top, int width, int height, int factor,
                  VipsImage **out);
/// vips_premultiply then (factor > 1) vips_shrink(factor, factor) of the window of an 8-bit memory
/// image with alpha (the last band), computed directly into a new float memory image: the
/// same floats (cj_box.c). 1 (nothing done) for anything else.
int cj_premultiply_shrink(VipsImage *in, int left, int top, int width, int height, int factor,
                          VipsImage **out);
/// The 8-bit pixels `data` (rows `stride` bytes apart; g_malloc'd, taken over) turned upright
/// for EXIF `orientation` as vips_autorot turns them, into a memory image wrapped as
/// cj_from_memory_owned does (no orientation field; the resolution as given, which
/// vips_autorot does not swap either).
int cj_orient_owned(void *data, size_t stride, int width, int height, int bands, int orientation,
                    double xres, double yres, VipsImage **out);

// ---- The placeholders' copy: area averages (cj_placeholder.c) ----------------------------------

/// The area average of 8-bit pixels (rows `stride` bytes apart; grey, grey and alpha, RGB or
/// RGBA, alpha straight and last) down to w x h (at most their size), into `out` (w x h x 4
/// doubles): premultiplied red, green, blue (colour x alpha / 255, 0...255) and alpha (0...1);
/// each cell the mean of the pixels it covers, a partly covered pixel weighted by its area.
/// 0, 1 (nothing done) for other arguments, -1 when memory is short.
int cj_area_average(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                    int w, int h, double *out);
/// The area average of a copy made by cj_area_average (`in`: width x height x 4 doubles, the
/// same layout) down to w x h (at most its size), into `out` (w x h x 4 doubles): across, then
/// down, each cell the sum of the pixels it covers times their shares (as cj_area_average's
/// taps), in order. 0; 1 (nothing done) for other arguments; -1 when memory is short.
int cj_area_resize(const double *in, int width, int height, int w, int h, double *out);
/// cj_area_average of an uncoded 8-bit image of 1 to 4 bands (a lazy one rendered into memory
/// first, a memory one read in place); 1 (nothing done) for any other image, -1 with the
/// libvips error set.
int cj_placeholder_copy(VipsImage *in, int w, int h, double *out);

// ---- The last pass on the final raster (cj_finish.c) -------------------------------------------

/// One pass over an output's final pixels (CONVENTIONS.md, "Small outputs on a raster"), into a
/// new 8-bit memory image: `in` is uchar RGB, uchar RGBA or float premultiplied RGBA (then
/// unpremultiplied and rounded as cj_unpremultiply_uchar does); `mask` (width x height bytes,
/// or NULL) is multiplied into alpha as cj_apply_mask does; with `keep_alpha` the result is
/// RGBA, else flattened onto `background` (3 values) as cj_flatten does: the same bytes as
/// that chain. 1 (nothing done) for anything else, and for an RGB `in` with no mask and no
/// alpha to keep; -1 with the libvips error set.
int cj_finish(VipsImage *in, const unsigned char *mask, int keep_alpha, const double *background,
              VipsImage **out);

// ---- Perceptual score (cj_ssim.c) --------------------------------------------------------------

/// The luma of 8-bit pixels of 1 to 4 bands into `luma` (width × height doubles): BT.601
/// Y' of RGB or the grey band, times alpha / 255 when there is alpha (docs/job-file.md).
int cj_luma(const unsigned char *pixels, int width, int height, int bands, double *luma);
/// SSIM of two images of the same size, in two halves: the reference's luma `a`, once for
/// many candidates (the Gaussian mean and variance of `a` at each window, (width − 10) ×
/// (height − 10) doubles each), then each candidate's 8-bit pixels (1 to 4 bands, their luma
/// taken row by row as `cj_luma` takes it) against it. 11x11 Gaussian windows
/// (σ 1.5), K1 0.01, K2 0.03, data range 255, the mean over the windows wholly inside the
/// image (scikit-image's structural_similarity with gaussian_weights). Both return 1 (no
/// score) when a side is under 11 pixels.
int cj_ssim_reference(const double *a, int width, int height, double *mean, double *variance);
int cj_ssim_score(const double *a, const double *mean, const double *variance,
                  const unsigned char *pixels, int bands, int width, int height, double *score);

// ---- JPEG headers read by libjpeg (cj_jpeg_header.c) -------------------------------------------

/// libjpeg's own header read (jpeg_read_header) over the first bytes of a JPEG: 0 when it read
/// the frame and the first scan's header without an error or a warning, with the frame's size,
/// component count, libjpeg's colour space (J_COLOR_SPACE) and sample precision; 1 otherwise
/// (damage, a warning, or bytes that end before the first scan), nothing printed
/// (cj_jpeg_header.c).
int cj_jpeg_header_facts(const void *data, size_t length, int *width, int *height, int *components,
                         int *colour_space, int *precision);

// ---- JPEG and PNG written directly (cj_jpeg_encode.c, cj_png_encode.c) -------------------------

/// JPEG with libjpeg directly, as cj_jpegsave with `strip` writes it (the same settings, the same
/// bytes; cj_jpeg_encode.c): 8-bit interleaved rows of 1 or 3 bands, `stride` bytes apart.
/// `subsample`: 0 auto (off from quality 90), 1 on, 2 off. `one_table_pair`: one DC and one AC
/// Huffman table for every component (not what libvips writes; the LQIP's). Returns 0 with a
/// malloc'd buffer (free with cj_free), 1 when the arguments are not ones it takes, -1 with
/// `message` on an error.
int cj_jpeg_encode(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                   int quality, int progressive, int subsample, int optimize, int one_table_pair,
                   void **buf, size_t *len, char *message, size_t message_size);

/// cj_jpegsave with `strip`, through cj_jpeg_encode, for an uncoded 8-bit 3-band sRGB image
/// (rendered into memory first when it is lazy); 1 (nothing done) for any other image, which
/// cj_jpegsave then writes; -1 with the libvips error set.
int cj_jpegsave_direct(VipsImage *in, int quality, int progressive, int subsample, int optimize,
                       void **buf, size_t *len);

/// PNG with libpng directly, as cj_pngsave with `strip` and no palette writes it (cj_png_encode.c:
/// the same chunks and settings, the same bytes): 8-bit rows of 3 or 4 bands, `stride` bytes
/// apart; `xres`/`yres` in pixels per mm (pHYs). Returns 0 with a malloc'd buffer (free with
/// cj_free), 1 when the arguments are not ones it takes, -1 with `message` on an error.
int cj_png_encode(const unsigned char *pixels, size_t stride, int width, int height, int bands,
                  double xres, double yres, int compression, void **buf, size_t *len,
                  char *message, size_t message_size);

/// cj_pngsave with `strip` and no palette, through cj_png_encode, for an uncoded 8-bit RGB or
/// RGBA image (rendered into memory first when it is lazy); 1 (nothing done) for any other
/// image; -1 with the libvips error set.
int cj_pngsave_direct(VipsImage *in, int compression, void **buf, size_t *len);

#endif
