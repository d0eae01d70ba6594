// Face detection with OpenCV's cascade classifiers, behind a C interface (Swift sees no C++).
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

/// Whether `path` is a cascade OpenCV can load (it is loaded once per thread and kept).
/// Writes a message into `error` (of `error_size` bytes) when not.
int cj_faces_check(const char *path, char *error, size_t error_size);

/// Detects faces in an 8-bit greyscale image (`stride` bytes per row), no smaller than
/// `min_size` pixels, on the equalised histogram with a mirrored border: the frontal cascade
/// at `frontal`, then, unless `profile` is NULL, the profile cascade at `profile` on the image
/// and on its mirror image (faces turned either way), keeping the profile boxes that overlap no
/// box already kept (frontal first, then the surer profile boxes). Deterministic: OpenCV's own
/// threads are off for the call and the result is sorted (top, left, width, pose). Writes at
/// most `capacity` faces into `faces`; returns how many were found (possibly more than
/// `capacity`), or -1 with a message in `error`.
int cj_faces_detect(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size);

/// OpenCV's version ("4.6.0").
const char *cj_faces_opencv_version(void);

#ifdef __cplusplus
}
#endif

#endif
