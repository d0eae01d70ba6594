// Private to the shim's .c files: the functions one file calls in another (not API for Swift).
#ifndef CJ_INTERNAL_H
#define CJ_INTERNAL_H

#include <vips/vips.h>

#include "cvips_shim.h"

// Shared between the shim's object files, kept out of the library's exported symbols.
#define CJ_PRIVATE __attribute__((visibility("hidden")))

/// Blocks every libvips loader but the ones cj_open reads with (cj_load.c; called by cj_init).
CJ_PRIVATE void cj_block_other_loaders(void);

/// The GLib log handler cj_init installs for the VIPS domain: a warning goes to the capture
/// active on the calling thread, if any, else to GLib's default handler (cj_capture.c).
CJ_PRIVATE void cj_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
                               gpointer user_data);

#endif
