// Face detection with libfacedetection's YuNet CNN, behind a C interface.
//
// libfacedetection is not linked into the programs that use this: its prebuilt shared library
// (from the PyPI wheel yuface 2023.5.1, which scripts/install-deps.sh installs by pinned version
// and sha256 under CJ_FACES_FOLDER) is opened with dlopen on the first call that needs it, so
// that only jobs that ask for faces load it and its OpenMP runtime.
#ifndef CJ_FACES_H
#define CJ_FACES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One detection, in the pixels of the image given to cj_faces_detect.
typedef struct {
  double x, y, width, height;
  /// The detector's confidence, 0…100 (the library reports faces from 50 up).
  double score;
  /// Five landmarks as x, y pairs: right eye, left eye (as seen in the image: the first is
  /// on the left), nose tip, right and left mouth corners.
  double landmarks[10];
} cj_face;

/// The folder install-deps.sh unpacks the wheel into, and the library inside it. The wheel's
/// own layout is kept: the library finds its OpenMP runtime at $ORIGIN/../yuface.libs.
#define CJ_FACES_FOLDER "/usr/local/lib/cropjob/yuface-2023.5.1"
#define CJ_FACES_LIBRARY CJ_FACES_FOLDER "/yuface/libfacedetection.so"

/// Why a CPU with (`avx2`, `fma`) cannot run the library (it is built for AVX2 and FMA and does
/// not check), naming what is missing, into `error`; returns 1 when it can (error untouched).
int cj_faces_cpu_check(int avx2, int fma, char *error, size_t error_size);

/// Loads the face detector once per process (the functions below call it): checks this CPU
/// (cj_faces_cpu_check), opens the library, finds its entry point, sets OpenMP to one thread
/// and runs one detection on a blank image under the once-guard (the library sets up its
/// weights on first use behind an unguarded flag). Returns 1 when ready, else 0 with the reason
/// in `error` (of `error_size` bytes), naming what is missing. Where it looks: the file given
/// to cj_faces_set_library (that file only), else CJ_FACES_LIBRARY.
int cj_faces_load(char *error, size_t error_size);

/// The library file the load opens instead of CJ_FACES_LIBRARY (NULL or "": the default).
/// Returns 1, or 0 when the load has already happened (too late: nothing changed) or the path
/// is too long.
int cj_faces_set_library(const char *path);

/// The path of the library loaded (NULL when it cannot be loaded).
const char *cj_faces_library_path(void);

/// Detects faces in an 8-bit BGR image (`stride` bytes per row) on the calling thread (OpenMP
/// is set to one thread for it: cropjob runs one detection per worker). Keeps the boxes with a
/// score of at least `min_score`, sorted (top, left, width, score). Writes at most `capacity`
/// faces into `faces`; returns how many were kept (possibly more than `capacity`), or -1 with
/// a message in `error` (also when the library cannot be loaded).
int cj_faces_detect(
    const unsigned char *bgr, int width, int height, int stride, int min_score, cj_face *faces, int capacity,
    char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
