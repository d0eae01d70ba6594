// Recording libvips' warnings per thread instead of printing them (docs/reliability.md).
#include "cj_internal.h"

#include <vips/vips.h>

typedef struct CjCapture {
  struct CjCapture *outer;
  GString *text;
  int count;
} CjCapture;

// The capture active on this thread, if any: warnings raised on a thread belong to the
// image that thread is decoding, because cj_decode_here evaluates on the calling thread.
static _Thread_local CjCapture *cj_capture_top = NULL;

void cj_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
                    gpointer user_data) {
  CjCapture *capture = cj_capture_top;
  if (!capture) {
    g_log_default_handler(domain, level, message, user_data);
    return;
  }
  capture->count += 1;
  if (capture->text->len < 1024 && message) {
    if (capture->text->len) g_string_append(capture->text, "; ");
    g_string_append(capture->text, message);
  }
}

void *cj_capture_begin(void) {
  CjCapture *capture = g_new0(CjCapture, 1);
  capture->outer = cj_capture_top;
  capture->text = g_string_new(NULL);
  cj_capture_top = capture;
  return capture;
}

int cj_capture_end(void *token, char *buf, size_t size) {
  CjCapture *capture = token;
  if (!capture) return 0;
  // Unlink it wherever it is (captures end in the reverse order they began, but a
  // mismatched end must not leave a freed capture on the stack).
  for (CjCapture **link = &cj_capture_top; *link; link = &(*link)->outer) {
    if (*link == capture) {
      *link = capture->outer;
      break;
    }
  }
  int count = capture->count;
  if (buf && size > 0) {
    g_strlcpy(buf, capture->text->str, size);
    for (char *p = buf; *p; p++)
      if (*p == '\n' || *p == '\r') *p = ' ';
  }
  g_string_free(capture->text, TRUE);
  g_free(capture);
  return count;
}
