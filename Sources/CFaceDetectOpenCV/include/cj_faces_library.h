// The face detector library's entry points (libCropjobFaces.so): what CFaceDetect's loader finds
// with dlsym. Each has the signature of the cj_faces_ function of cj_faces.h it serves.
#ifndef CJ_FACES_LIBRARY_H
#define CJ_FACES_LIBRARY_H

#include "cj_faces.h"

#ifdef __cplusplus
extern "C" {
#endif

/// CJ_FACES_ABI as this library was built.
int cj_faces_library_abi(void);
/// cj_faces_check.
int cj_faces_library_check(const char *path, char *error, size_t error_size);
/// cj_faces_detect.
int cj_faces_library_detect(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size);
/// cj_faces_opencv_version: the version OpenCV's library reports.
const char *cj_faces_library_version(void);

#ifdef __cplusplus
}
#endif

#endif
