// cj_faces.h's functions: libfacedetection (YuNet) opened with dlopen on first use, after a
// check that this CPU can run it, and each detection passed on to it.
#define _GNU_SOURCE  // RTLD_DEFAULT
#include "cj_faces.h"

#include <dlfcn.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libfacedetection's C++ entry point, `int *facedetect_cnn(unsigned char *result_buffer,
// unsigned char *bgr, int width, int height, int step)`, by its mangled name: it returns
// result_buffer, whose first int is the number of faces, followed by 16 shorts per face (score
// 0…100, x, y, width, height, five landmarks as x, y, one unused).
typedef int *(*cj_facedetect_fn)(unsigned char *result, unsigned char *bgr, int width, int height, int step);
typedef void (*cj_omp_threads_fn)(int);
#define CJ_FACEDETECT_SYMBOL "_Z14facedetect_cnnPhS_iii"
#define CJ_RESULT_BYTES 0x9000
#define CJ_SHORTS_PER_FACE 16

static pthread_once_t cj_faces_once = PTHREAD_ONCE_INIT;
static cj_facedetect_fn cj_detect;
static cj_omp_threads_fn cj_omp_threads;
static char cj_path[PATH_MAX];
static char cj_problem[2 * PATH_MAX];
static char cj_chosen[PATH_MAX];  // cj_faces_set_library's, else empty
static int cj_loaded;             // set once cj_load_once has run
static pthread_mutex_t cj_chosen_lock = PTHREAD_MUTEX_INITIALIZER;

static void cj_copy(char *error, size_t size, const char *message) {
  if (error && size > 0) snprintf(error, size, "%s", message);
}

int cj_faces_cpu_check(int avx2, int fma, char *error, size_t error_size) {
  if (avx2 && fma) return 1;
  const char *missing = !avx2 && !fma ? "AVX2 and FMA" : !avx2 ? "AVX2" : "FMA";
  char message[512];
  snprintf(message, sizeof message,
           "this CPU has no %s, which the face detector's library (libfacedetection, built for AVX2 and FMA) "
           "needs: use focus: attention (or regions) on this machine",
           missing);
  cj_copy(error, error_size, message);
  return 0;
}

static void cj_load_once(void) {
  __builtin_cpu_init();
  if (!cj_faces_cpu_check(__builtin_cpu_supports("avx2"), __builtin_cpu_supports("fma"), cj_problem,
                          sizeof cj_problem))
    return;
  pthread_mutex_lock(&cj_chosen_lock);
  cj_loaded = 1;
  snprintf(cj_path, sizeof cj_path, "%s", cj_chosen[0] ? cj_chosen : CJ_FACES_LIBRARY);
  pthread_mutex_unlock(&cj_chosen_lock);
  void *handle = dlopen(cj_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    snprintf(cj_problem, sizeof cj_problem,
             "cannot load the face detector's library %s: %s (scripts/install-deps.sh installs it from the PyPI "
             "wheel yuface 2023.5.1)",
             cj_path, reason ? reason : "unknown error");
    return;
  }
  cj_facedetect_fn detect = (cj_facedetect_fn)dlsym(handle, CJ_FACEDETECT_SYMBOL);
  // The OpenMP runtime the library's calls bind to: the dynamic linker looks in the global
  // scope first (libvips may have loaded the system's libgomp already), then in the library's
  // own dependencies (the wheel's libgomp); this lookup follows the same order.
  cj_omp_threads_fn threads = (cj_omp_threads_fn)dlsym(RTLD_DEFAULT, "omp_set_num_threads");
  if (!threads) threads = (cj_omp_threads_fn)dlsym(handle, "omp_set_num_threads");
  if (!detect || !threads) {
    snprintf(cj_problem, sizeof cj_problem, "the face detector's library %s has no %s (it is not libfacedetection)",
             cj_path, !detect ? "facedetect_cnn" : "omp_set_num_threads");
    return;
  }
  // Each detection allocates its blobs afresh (megabytes for a 512 px copy) and frees them:
  // above glibc's mmap threshold every one was a new mapping, faulted in and zeroed by the
  // kernel page by page, and trimmed again (a fifth of a detection's CPU, most of it system
  // time). Large blocks are kept in the heap instead and a freed top is trimmed only past
  // 64 MiB, so the next detection reuses the pages. Only processes that load the detector.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  // The library sets its weights up on the first call behind an unguarded flag: that call is
  // made here, under the once-guard, on a blank image.
  threads(1);
  unsigned char *result = malloc(CJ_RESULT_BYTES);
  unsigned char blank[32 * 32 * 3] = {0};
  if (!result) {
    snprintf(cj_problem, sizeof cj_problem, "out of memory loading the face detector");
    return;
  }
  detect(result, blank, 32, 32, 32 * 3);
  free(result);
  cj_omp_threads = threads;
  cj_detect = detect;
}

int cj_faces_set_library(const char *path) {
  pthread_mutex_lock(&cj_chosen_lock);
  int ok = !cj_loaded && (!path || strlen(path) < sizeof cj_chosen);
  if (ok) snprintf(cj_chosen, sizeof cj_chosen, "%s", path ? path : "");
  pthread_mutex_unlock(&cj_chosen_lock);
  return ok;
}

int cj_faces_load(char *error, size_t error_size) {
  pthread_once(&cj_faces_once, cj_load_once);
  if (cj_detect) return 1;
  cj_copy(error, error_size, cj_problem);
  return 0;
}

const char *cj_faces_library_path(void) { return cj_faces_load(NULL, 0) ? cj_path : NULL; }

static int cj_face_order(const void *a, const void *b) {
  const cj_face *p = a, *q = b;
  if (p->y != q->y) return p->y < q->y ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->width != q->width) return p->width < q->width ? -1 : 1;
  if (p->score != q->score) return p->score > q->score ? -1 : 1;
  return 0;
}

int cj_faces_detect(
    const unsigned char *bgr, int width, int height, int stride, int min_score, cj_face *faces, int capacity,
    char *error, size_t error_size) {
  if (!cj_faces_load(error, error_size)) return -1;
  if (width <= 0 || height <= 0 || stride < 3 * width) {
    cj_copy(error, error_size, "the face detector was given an empty image");
    return -1;
  }
  unsigned char *buffer = malloc(CJ_RESULT_BYTES);
  if (!buffer) {
    cj_copy(error, error_size, "out of memory in the face detector");
    return -1;
  }
  // OpenMP's thread count is per calling thread: one, as cropjob runs one detection per worker.
  cj_omp_threads(1);
  int *result = cj_detect(buffer, (unsigned char *)bgr, width, height, stride);
  int count = result ? result[0] : 0;
  int max = (CJ_RESULT_BYTES - (int)sizeof(int)) / (CJ_SHORTS_PER_FACE * (int)sizeof(short));
  if (count > max) count = max;
  cj_face *all = calloc(count > 0 ? (size_t)count : 1, sizeof(cj_face));
  if (!all) {
    free(buffer);
    cj_copy(error, error_size, "out of memory in the face detector");
    return -1;
  }
  int kept = 0;
  for (int i = 0; i < count; i++) {
    const short *p = (const short *)(result + 1) + CJ_SHORTS_PER_FACE * i;
    if (p[0] < min_score || p[3] <= 0 || p[4] <= 0) continue;
    cj_face face = {.x = p[1], .y = p[2], .width = p[3], .height = p[4], .score = p[0]};
    for (int k = 0; k < 10; k++) face.landmarks[k] = p[5 + k];
    all[kept++] = face;
  }
  free(buffer);
  qsort(all, (size_t)kept, sizeof(cj_face), cj_face_order);
  for (int i = 0; i < kept && i < capacity; i++) faces[i] = all[i];
  free(all);
  return kept;
}
