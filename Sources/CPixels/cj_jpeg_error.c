// The shared libjpeg error manager (cj_jpeg_error.h).
#include "cj_jpeg_error.h"

#include <glib.h>

static void cj_jpeg_error_exit(j_common_ptr cinfo) {
  cj_jpeg_error *error = (cj_jpeg_error *)cinfo->err;
  if (error->message && error->message_size) {
    char text[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, text);
    g_strlcpy(error->message, text, error->message_size);
  }
  longjmp(error->jump, 1);
}

// Warnings (level -1) are counted; trace messages (level >= 0) are not problems. Nothing is
// printed: a message belongs to the file it is about, which only the caller knows.
static void cj_jpeg_error_message(j_common_ptr cinfo, int level) {
  if (level < 0) ((cj_jpeg_error *)cinfo->err)->warnings++;
}

struct jpeg_error_mgr *cj_jpeg_error_init(cj_jpeg_error *error, char *message, size_t message_size) {
  struct jpeg_error_mgr *manager = jpeg_std_error(&error->pub);
  error->pub.error_exit = cj_jpeg_error_exit;
  error->pub.emit_message = cj_jpeg_error_message;
  error->message = message;
  error->message_size = message_size;
  error->warnings = 0;
  return manager;
}
