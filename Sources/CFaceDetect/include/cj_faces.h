// Face detection with OpenCV's cascade classifiers, behind a C interface (Swift sees no C++).
//
// OpenCV is not linked into the programs that use this: the detector is a separate shared
// library, libCropjobFaces.so (Sources/CFaceDetectOpenCV, SwiftPM product `CropjobFaces`), opened
// with dlopen on the first call that needs it. Starting a process that links OpenCV's
// object-detection library costs about 35 ms (26 more shared libraries, OpenBLAS's threads), which
// every cropjob command paid before, faces or not.
#ifndef CJ_FACES_H
#define CJ_FACES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One detection, in the pixels of the image given to cj_faces_detect.
typedef struct {
  double x, y, width, height;
  /// Neighbouring raw detections merged into this one (minNeighbors counts them): larger is surer.
  double score;
  /// Which cascade found it: CJ_FACE_FRONTAL or CJ_FACE_PROFILE.
  int pose;
} cj_face;

enum { CJ_FACE_FRONTAL = 0, CJ_FACE_PROFILE = 1 };

/// Loads the face detector's library once per process (the functions below call it): returns 1
/// when it is loaded, else 0 with the reason in `error` (of `error_size` bytes), which names
/// what is missing. Where it looks: `$CROPJOB_FACES_LIBRARY` when set (that file only), else
/// CJ_FACES_LIBRARY beside the program or library that contains this code (where `swift build`
/// writes both), else the dynamic linker's search path (LD_LIBRARY_PATH, ld.so.cache).
int cj_faces_load(char *error, size_t error_size);

/// Whether `path` is a cascade OpenCV can load (it is loaded once per thread and kept).
/// Writes a message into `error` (of `error_size` bytes) when not, or when the library cannot
/// be loaded.
int cj_faces_check(const char *path, char *error, size_t error_size);

/// Detects faces in an 8-bit greyscale image (`stride` bytes per row), no smaller than
/// `min_size` pixels, on the equalised histogram with a mirrored border: the frontal cascade
/// at `frontal`, then, unless `profile` is NULL, the profile cascade at `profile` on the image
/// and on its mirror image (faces turned either way), keeping the profile boxes that overlap no
/// box already kept (frontal first, then the surer profile boxes). Deterministic: OpenCV's own
/// threads are off for the call and the result is sorted (top, left, width, pose). Writes at
/// most `capacity` faces into `faces`; returns how many were found (possibly more than
/// `capacity`), or -1 with a message in `error` (also when the library cannot be loaded).
int cj_faces_detect(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size);

/// OpenCV's version ("4.6.0") as the loaded library reports it; NULL when it cannot be loaded.
const char *cj_faces_opencv_version(void);

// The library's side: the file name, and the entry points the loader finds with dlsym. Each has
// the signature of the cj_faces_ function above; `cj_faces_library_abi` returns CJ_FACES_ABI,
// which changes whenever these do, so that a library left over from another build is refused.
#define CJ_FACES_LIBRARY "libCropjobFaces.so"
#define CJ_FACES_ABI 1
typedef int (*cj_faces_abi_fn)(void);
typedef int (*cj_faces_check_fn)(const char *path, char *error, size_t error_size);
typedef int (*cj_faces_detect_fn)(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size);
typedef const char *(*cj_faces_version_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
