// Recording libvips' messages per thread instead of printing them (docs/reliability.md).
#include "cj_internal.h"

#include <string.h>
#include <vips/vips.h>

typedef struct CjCapture {
  struct CjCapture *outer;
  GString *text;
  int count;
} CjCapture;

// The capture active on this thread, if any: messages raised on a thread belong to the
// image that thread is reading, because cj_decode_here evaluates on the calling thread.
static _Thread_local CjCapture *cj_capture_top = NULL;

// Messages raised where no capture is active (before a read begins, on a libvips worker
// thread, during an encode): kept for cj_uncaptured_take, never printed raw.
static GMutex cj_uncaptured_lock;
static GString *cj_uncaptured_text = NULL;
static int cj_uncaptured_count = 0;

// Appends the non-empty lines of `message` to `text`, each after "; " (or `separator`). One
// libvips warning may hold several lines: "read gave 1 warnings" is followed by a dump of
// libvips' error buffer, one libjpeg message per line.
static void cj_append_lines(GString *text, const gchar *message, const char *separator,
                            size_t limit) {
  if (!message) return;
  const gchar *line = message;
  while (*line && text->len < limit) {
    const gchar *end = line + strcspn(line, "\r\n");
    if (end > line) {
      if (text->len) g_string_append(text, separator);
      g_string_append_len(text, line, end - line);
    }
    line = *end ? end + 1 : end;
  }
}

void cj_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
                    gpointer user_data) {
  // Debugging output is printed only when asked for (G_MESSAGES_DEBUG), as GLib does; a
  // fatal message (an error, or a critical under G_DEBUG=fatal-criticals) is printed before
  // GLib aborts the process, so that the crash says why.
  if (level & (G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL)) {
    g_log_default_handler(domain, level, message, user_data);
    return;
  }
  CjCapture *capture = cj_capture_top;
  if (capture) {
    capture->count += 1;
    cj_append_lines(capture->text, message, "; ", 1024);
    return;
  }
  g_mutex_lock(&cj_uncaptured_lock);
  if (!cj_uncaptured_text) cj_uncaptured_text = g_string_new(NULL);
  cj_uncaptured_count += 1;
  GString *line = g_string_new(NULL);
  cj_append_lines(line, message, " ", 1024);
  if (cj_uncaptured_text->len < 16384 && line->len) {
    if (cj_uncaptured_text->len) g_string_append_c(cj_uncaptured_text, '\n');
    if (domain && *domain) g_string_append_printf(cj_uncaptured_text, "%s: ", domain);
    g_string_append_len(cj_uncaptured_text, line->str, line->len);
  }
  g_string_free(line, TRUE);
  g_mutex_unlock(&cj_uncaptured_lock);
}

void cj_install_log_handlers(void) {
  const GLogLevelFlags levels = G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION;
  g_log_set_handler("VIPS", levels, cj_log_handler, NULL);
  // Every other domain too (GLib, GObject, a module's library logging through GLib): the
  // default handler is process-wide, so nothing logged through GLib reaches stderr raw.
  g_log_set_default_handler(cj_log_handler, NULL);
}

int cj_uncaptured_take(char *buf, size_t size) {
  g_mutex_lock(&cj_uncaptured_lock);
  int count = cj_uncaptured_count;
  if (buf && size > 0) g_strlcpy(buf, cj_uncaptured_text ? cj_uncaptured_text->str : "", size);
  if (cj_uncaptured_text) g_string_truncate(cj_uncaptured_text, 0);
  cj_uncaptured_count = 0;
  g_mutex_unlock(&cj_uncaptured_lock);
  return count;
}

// ---- libvips' error buffer during header reads ------------------------------------------------
// libjpeg's warnings go to libvips' error buffer, which is process-wide, and the JPEG reader
// logs that whole buffer when it closes ("read gave 1 warnings", then the buffer). Clearing
// the buffer while another thread's read is open would drop that read's lines before it
// logs them; never clearing it would repeat every earlier file's lines in the next damaged
// file's message. So the buffer is cleared only when no header read is open: by the last
// one to close after a damaged read or a take that had to leave the buffer as it was.
static GMutex cj_reads_lock;
static int cj_reads_open = 0;
static gboolean cj_reads_dirty = FALSE;
static _Thread_local int cj_reads_here = 0;

void cj_reading_begin(void) {
  g_mutex_lock(&cj_reads_lock);
  cj_reads_open += 1;
  cj_reads_here += 1;
  g_mutex_unlock(&cj_reads_lock);
}

void cj_reading_end(int damaged) {
  g_mutex_lock(&cj_reads_lock);
  cj_reads_open -= 1;
  cj_reads_here -= 1;
  if (damaged) cj_reads_dirty = TRUE;
  if (cj_reads_open == 0 && cj_reads_dirty) {
    vips_error_clear();
    cj_reads_dirty = FALSE;
  }
  g_mutex_unlock(&cj_reads_lock);
}

void cj_error_take(char *buf, size_t size) {
  g_mutex_lock(&cj_reads_lock);
  // The lines this thread raised (cj_errors.c): never another file's. libvips' buffer only
  // when this thread raised none (the failure was raised on one of libvips' worker threads).
  if (!cj_thread_errors_take(buf, size)) {
    const char *msg = vips_error_buffer();
    if (size > 0) g_strlcpy(buf, msg ? msg : "", size);
  }
  // Other threads' reads still open: their lines stay for them (the last read clears).
  if (cj_reads_open - cj_reads_here > 0) cj_reads_dirty = TRUE;
  else vips_error_clear();
  g_mutex_unlock(&cj_reads_lock);
}

void *cj_capture_begin(void) {
  // A read starts with none of this thread's earlier libvips errors (cj_errors.c): lines
  // a call that succeeded left are not this read's.
  if (!cj_capture_top) cj_thread_errors_clear();
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
  if (buf && size > 0) g_strlcpy(buf, capture->text->str, size);
  g_string_free(capture->text, TRUE);
  g_free(capture);
  return count;
}
