// cj_faces.h's functions: the face detector's library (libCropjobFaces.so, which links OpenCV)
// opened with dlopen on first use, and each call passed on to it.
#define _GNU_SOURCE  // dladdr1, RTLD_DL_LINKMAP
#include "cj_faces.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t cj_faces_once = PTHREAD_ONCE_INIT;
static cj_faces_check_fn cj_check;
static cj_faces_detect_fn cj_detect;
static cj_faces_version_fn cj_version;
static char cj_problem[2 * PATH_MAX];

static void cj_copy(char *error, size_t size, const char *message) {
  if (error && size > 0) snprintf(error, size, "%s", message);
}

// The folder of the program or shared library that contains this code, resolved: the main
// program's through /proc/self/exe (dladdr gives its argv[0], which may be a bare name found on
// PATH), a library's through its path. Empty when it cannot be found.
static void cj_own_folder(char *folder, size_t size) {
  folder[0] = '\0';
  Dl_info info;
  struct link_map *map = NULL;
  if (!dladdr1((void *)cj_faces_load, &info, (void **)&map, RTLD_DL_LINKMAP)) return;
  char resolved[PATH_MAX];
  if (map && map->l_name && map->l_name[0] != '\0') {
    if (!realpath(map->l_name, resolved)) return;
  } else {
    ssize_t n = readlink("/proc/self/exe", resolved, sizeof resolved - 1);
    if (n <= 0) return;
    resolved[n] = '\0';
  }
  char *slash = strrchr(resolved, '/');
  if (!slash) return;
  *slash = '\0';
  snprintf(folder, size, "%s", resolved);
}

// Why dlopen failed, with what to install when it is OpenCV that is missing.
static void cj_explain(const char *path, const char *reason) {
  const char *hint = strstr(reason, "libopencv") ? " (install the Debian package libopencv-objdetect-dev)" : "";
  snprintf(cj_problem, sizeof cj_problem, "cannot load the face detector's library %s: %s%s", path, reason, hint);
}

static void *cj_symbol(void *handle, const char *path, const char *name) {
  void *symbol = dlsym(handle, name);
  if (!symbol) {
    snprintf(cj_problem, sizeof cj_problem,
             "the face detector's library %s has no %s (it is not cropjob's %s, or is from another build)", path,
             name, CJ_FACES_LIBRARY);
  }
  return symbol;
}

static void cj_load_once(void) {
  const char *chosen = getenv("CROPJOB_FACES_LIBRARY");
  char beside[PATH_MAX + sizeof CJ_FACES_LIBRARY + 1] = "";
  char folder[PATH_MAX];
  cj_own_folder(folder, sizeof folder);
  if (folder[0]) snprintf(beside, sizeof beside, "%s/%s", folder, CJ_FACES_LIBRARY);
  const char *path = CJ_FACES_LIBRARY;  // by default, the dynamic linker's search path
  int searched = 0;
  if (chosen && chosen[0]) {
    path = chosen;
  } else if (beside[0] && access(beside, F_OK) == 0) {
    path = beside;
  } else {
    searched = 1;
  }
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    if (searched) {
      snprintf(cj_problem, sizeof cj_problem,
               "cannot load the face detector's library %s: it is not beside %s, nor on the library path "
               "(`swift build` writes it beside cropjob; or set CROPJOB_FACES_LIBRARY to its path)",
               CJ_FACES_LIBRARY, folder[0] ? folder : "the program");
    } else {
      cj_explain(path, reason ? reason : "unknown error");
    }
    return;
  }
  cj_faces_abi_fn abi = (cj_faces_abi_fn)cj_symbol(handle, path, "cj_faces_library_abi");
  if (!abi) return;
  if (abi() != CJ_FACES_ABI) {
    snprintf(cj_problem, sizeof cj_problem,
             "the face detector's library %s is from another build of cropjob (interface %d, expected %d): "
             "rebuild it with `swift build`",
             path, abi(), CJ_FACES_ABI);
    return;
  }
  cj_faces_check_fn check = (cj_faces_check_fn)cj_symbol(handle, path, "cj_faces_library_check");
  cj_faces_detect_fn detect = (cj_faces_detect_fn)cj_symbol(handle, path, "cj_faces_library_detect");
  cj_faces_version_fn version = (cj_faces_version_fn)cj_symbol(handle, path, "cj_faces_library_version");
  if (!check || !detect || !version) return;
  cj_check = check;
  cj_detect = detect;
  cj_version = version;
}

int cj_faces_load(char *error, size_t error_size) {
  pthread_once(&cj_faces_once, cj_load_once);
  if (cj_detect) return 1;
  cj_copy(error, error_size, cj_problem);
  return 0;
}

int cj_faces_check(const char *path, char *error, size_t error_size) {
  if (!cj_faces_load(error, error_size)) return 0;
  return cj_check(path, error, error_size);
}

int cj_faces_detect(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size) {
  if (!cj_faces_load(error, error_size)) return -1;
  return cj_detect(grey, width, height, stride, frontal, profile, min_size, faces, capacity, error, error_size);
}

const char *cj_faces_opencv_version(void) { return cj_faces_load(NULL, 0) ? cj_version() : NULL; }
