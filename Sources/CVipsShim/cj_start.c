// Starting libvips (only heif's module loaded), its version and operations, errors, lifetimes.
#define _GNU_SOURCE  // dladdr
#include "cj_internal.h"

#include <dlfcn.h>
#include <gmodule.h>
#include <string.h>
#include <vips/vips.h>

// libvips 8.14 loads every module in <libdir>/vips-modules-8.14 at start-up (Debian: heif,
// jxl, magick, openslide, poppler, with ImageMagick's, poppler's and openslide's libraries
// behind them: about half of a no-op run's CPU). cropjob needs only heif (HEIF/AVIF in and
// out); the others' loaders are blocked (cj_init) and JPEG XL's saver is untrusted, hence
// blocked, in 8.14. libvips finds the folder from VIPSHOME and reads nothing else, so while it
// starts VIPSHOME names a folder that does not exist, then heif's module is opened from
// beside the libvips library actually loaded. A VIPSHOME set by the user is left alone (all
// modules load as usual). Setting an environment variable races any other thread's getenv:
// cj_prepare_lazy_start sets it while the program has one thread and leaves it set, so that
// cj_init can then run on whichever thread first needs libvips without touching the environment.
static const char cj_no_modules_home[] = "/nonexistent/cropjob-loads-only-vips-heif";

void cj_prepare_lazy_start(void) {
  if (g_getenv("VIPSHOME") == NULL) g_setenv("VIPSHOME", cj_no_modules_home, TRUE);
}

static void cj_load_heif_module(void) {
  if (!g_module_supported()) return;
  Dl_info info;
  if (!dladdr((void *)vips_version, &info) || !info.dli_fname) return;
  char *dir = g_path_get_dirname(info.dli_fname);
  char *path = g_strdup_printf("%s/vips-modules-%d.%d/vips-heif.so", dir, vips_version(0),
                               vips_version(1));
  // Absent when this libvips has heif built in, or none at all: nothing to do.
  if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
    GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
    if (module) g_module_make_resident(module);
    else g_warning("unable to load \"%s\" -- %s", path, g_module_error());
  }
  g_free(path);
  g_free(dir);
}

int cj_init(const char *argv0, int threads, int cache_max, int block_untrusted) {
  // First, so that libvips' own start-up (e.g. a module that fails to load) logs nothing raw.
  cj_install_log_handlers();
  const char *home = g_getenv("VIPSHOME");
  const int unset = home == NULL;
  const int only_heif = unset || strcmp(home, cj_no_modules_home) == 0;
  if (unset) g_setenv("VIPSHOME", cj_no_modules_home, TRUE);
  int failed = VIPS_INIT(argv0);
  if (unset) g_unsetenv("VIPSHOME");
  if (failed) return -1;
  if (only_heif) cj_load_heif_module();
  if (threads > 0) vips_concurrency_set(threads);
  vips_cache_set_max(cache_max);
  if (cache_max == 0) {
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
  }
  if (block_untrusted) {
    vips_block_untrusted_set(TRUE);
    // Every loader is blocked but the ones cropjob reads (see cj_open in cj_load.c).
    cj_block_other_loaders();
  }
  return 0;
}

const char *cj_vips_version(void) { return vips_version_string(); }

int cj_has_operation(const char *nickname) {
  return vips_type_find("VipsOperation", nickname) != 0;
}

void cj_take_error(char *buf, size_t size) { cj_error_take(buf, size); }

void cj_unref(VipsImage *image) {
  if (image) g_object_unref(image);
}

void cj_free(void *p) { g_free(p); }
