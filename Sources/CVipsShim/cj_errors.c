// libvips' error messages per thread (docs/reliability.md, "Messages").
//
// libvips keeps one error buffer for the whole process: vips_error() appends to it from any
// thread, and a failed call's message is whatever the buffer holds when it is read. In a
// batch, one file's failure then carried lines another thread's reads had left there
// ("source: bad seek to N" from two AVIFs in a truncated PNG's failure). So every message is
// also recorded on the thread that raised it: libvips funnels vips_error, vips_error_system,
// vips_verror_system and vips_g_error into vips_verror through its PLT, which this
// definition interposes (the executable's symbol comes first); it records the line here and
// hands it to libvips' own vips_verror, so that libvips' buffer (which its JPEG reader dumps
// into its "read gave N warnings") is as it was. vips_error_freeze, _thaw and _clear are
// followed per thread the same way. cj_error_take reads the calling thread's lines.
#define _GNU_SOURCE
#include "cj_internal.h"

#include <dlfcn.h>
#include <stdarg.h>

typedef void (*cj_verror_fn)(const char *domain, const char *fmt, va_list ap);
typedef void (*cj_void_fn)(void);

static _Thread_local GString *cj_thread_errors = NULL;
static _Thread_local int cj_thread_frozen = 0;
static _Thread_local int cj_thread_muted = 0;

static void *cj_next(const char *name) {
  void *next = dlsym(RTLD_NEXT, name);
  if (!next) next = dlsym(RTLD_DEFAULT, name);
  return next;
}

void vips_verror(const char *domain, const char *fmt, va_list ap) {
  static cj_verror_fn next = NULL;
  if (!next) next = (cj_verror_fn)cj_next("vips_verror");
  if (!cj_thread_frozen && !cj_thread_muted) {
    if (!cj_thread_errors) cj_thread_errors = g_string_new(NULL);
    if (cj_thread_errors->len < 8192) {
      va_list copy;
      va_copy(copy, ap);
      if (domain) g_string_append_printf(cj_thread_errors, "%s: ", domain);
      g_string_append_vprintf(cj_thread_errors, fmt, copy);
      g_string_append_c(cj_thread_errors, '\n');
      va_end(copy);
    }
  }
  if (next && next != (cj_verror_fn)vips_verror) next(domain, fmt, ap);
}

void vips_error_freeze(void) {
  static cj_void_fn next = NULL;
  if (!next) next = (cj_void_fn)cj_next("vips_error_freeze");
  cj_thread_frozen += 1;
  if (next && next != vips_error_freeze) next();
}

void vips_error_thaw(void) {
  static cj_void_fn next = NULL;
  if (!next) next = (cj_void_fn)cj_next("vips_error_thaw");
  if (cj_thread_frozen > 0) cj_thread_frozen -= 1;
  if (next && next != vips_error_thaw) next();
}

void vips_error_clear(void) {
  static cj_void_fn next = NULL;
  if (!next) next = (cj_void_fn)cj_next("vips_error_clear");
  cj_thread_errors_clear();
  if (next && next != vips_error_clear) next();
}

void cj_thread_errors_clear(void) {
  if (cj_thread_errors) g_string_truncate(cj_thread_errors, 0);
}

void cj_thread_errors_mute(int muted) { cj_thread_muted += muted ? 1 : -1; }

int cj_thread_errors_take(char *buf, size_t size) {
  int found = cj_thread_errors && cj_thread_errors->len > 0;
  if (buf && size > 0) g_strlcpy(buf, found ? cj_thread_errors->str : "", size);
  cj_thread_errors_clear();
  return found;
}
