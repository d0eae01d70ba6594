// The libjpeg error manager of CPixels' direct JPEG paths (cj_jpeg_encode.c,
// cj_jpeg_header.c): an error jumps back to the caller's setjmp with its text, and nothing
// libjpeg says reaches stderr (a warning is counted; the caller decides what it means).
#ifndef CJ_JPEG_ERROR_H
#define CJ_JPEG_ERROR_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

#include "cj_pixels_internal.h"

typedef struct {
  struct jpeg_error_mgr pub;
  /// Where an error returns to: set with setjmp before the first libjpeg call.
  jmp_buf jump;
  /// The error's text is copied here when not NULL.
  char *message;
  size_t message_size;
  /// Warnings (messages of level -1) seen so far.
  int warnings;
} cj_jpeg_error;

/// Sets `error` up (no message copied when `message` is NULL) and returns what a libjpeg
/// object's `err` takes.
CJ_PRIVATE struct jpeg_error_mgr *cj_jpeg_error_init(cj_jpeg_error *error, char *message,
                                                     size_t message_size);

#endif
