// Private to the shim's .c files: the functions one file calls in another (not API for Swift).
#ifndef CJ_INTERNAL_H
#define CJ_INTERNAL_H

#include <vips/vips.h>

#include "cvips_shim.h"

// Shared between the shim's object files, kept out of the library's exported symbols.
#define CJ_PRIVATE __attribute__((visibility("hidden")))

/// Blocks every libvips loader but the ones cj_open reads with (cj_load.c; called by cj_init).
CJ_PRIVATE void cj_block_other_loaders(void);

/// The GLib log handler cj_init installs for the VIPS domain and as GLib's default handler:
/// a warning, critical or message goes to the capture active on the calling thread, if any,
/// else to the uncaptured list (cj_uncaptured_take); debugging output and fatal messages go
/// to GLib's default handler (cj_capture.c).
CJ_PRIVATE void cj_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
                               gpointer user_data);
/// Installs cj_log_handler for the VIPS domain and as the default handler (cj_init calls it
/// before libvips starts, so that nothing libvips logs while starting is printed raw).
CJ_PRIVATE void cj_install_log_handlers(void);

/// Copies libvips' error buffer into `buf` and clears it, unless another thread's header read
/// is open (cj_reading_begin): then it is left for that read and cleared when the last
/// read closes (cj_capture.c; cj_take_error calls it).
CJ_PRIVATE void cj_error_take(char *buf, size_t size);

/// Forgets the libvips error lines raised on this thread so far (cj_errors.c).
CJ_PRIVATE void cj_thread_errors_clear(void);
/// While muted (1, then 0 to end), libvips errors raised on this thread are not recorded as
/// this thread's: cj_is_tiff putting back lines other threads raised.
CJ_PRIVATE void cj_thread_errors_mute(int muted);
/// Copies the libvips error lines this thread raised since they were last taken or cleared
/// into `buf` and clears them; 1 when there were any.
CJ_PRIVATE int cj_thread_errors_take(char *buf, size_t size);

#endif
