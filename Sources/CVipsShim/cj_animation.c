// Animations: the timing of a GIF or WebP loaded as one tall image (cj_open_frames), joining
// rendered frames into one, writing GIF.
#include "cvips_shim.h"

#include <vips/vips.h>

int cj_timing(VipsImage *image, int *page_height, int *delays, int max_delays, int *n_delays,
              int *loop) {
  *page_height = vips_image_get_page_height(image);
  *n_delays = 0;
  *loop = 0;
  if (vips_image_get_typeof(image, "loop")) vips_image_get_int(image, "loop", loop);
  if (vips_image_get_typeof(image, "delay")) {
    int *array = NULL;
    int n = 0;
    if (vips_image_get_array_int(image, "delay", &array, &n)) return -1;
    for (int i = 0; i < n && i < max_delays; i++) delays[i] = array[i];
    *n_delays = n < max_delays ? n : max_delays;
  }
  return 0;
}

int cj_join_frames(VipsImage **frames, int n, const int *delays, int loop, VipsImage **out) {
  *out = NULL;
  VipsImage *joined = NULL;
  if (vips_arrayjoin(frames, &joined, n, "across", 1, NULL)) return -1;
  // A fresh copy to carry the fields (arrayjoin's output may share its header's fields).
  VipsImage *copy = NULL;
  if (vips_copy(joined, &copy, NULL)) {
    g_object_unref(joined);
    return -1;
  }
  g_object_unref(joined);
  vips_image_set_int(copy, VIPS_META_PAGE_HEIGHT, frames[0]->Ysize);
  vips_image_set_int(copy, VIPS_META_N_PAGES, n);
  vips_image_set_array_int(copy, "delay", delays, n);
  vips_image_set_int(copy, "loop", loop);
  *out = copy;
  return 0;
}

int cj_gifsave(VipsImage *in, int effort, int strip, void **buf, size_t *len) {
  return vips_gifsave_buffer(in, buf, len, "effort", effort, "strip", strip, NULL);
}
