// Metadata on output: keep only the chosen kinds (ICC, EXIF groups, XMP, IPTC), copy ICC.
#include "cvips_shim.h"

#include <string.h>
#include <vips/vips.h>

typedef struct {
  int keep;
  GSList *remove;
} KeepState;

static int has_prefix(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static int exif_tag_kept(const char *name, int keep) {
  // name is "exif-ifdN-Tag".
  if (has_prefix(name, "exif-ifd3-")) return (keep & CJ_KEEP_GPS) != 0;
  if (has_prefix(name, "exif-ifd1-")) return 0;  // The thumbnail's IFD.
  const char *tag = strchr(name + 5, '-');
  tag = tag ? tag + 1 : name;
  if (strcmp(tag, "Orientation") == 0) return 0;
  if (strcmp(tag, "Copyright") == 0) return (keep & CJ_KEEP_COPYRIGHT) != 0;
  if (strcmp(tag, "Artist") == 0) return (keep & CJ_KEEP_ARTIST) != 0;
  if (strstr(tag, "DateTime") || strstr(tag, "OffsetTime") || strstr(tag, "SubSecTime"))
    return (keep & CJ_KEEP_DATE) != 0;
  if (strcmp(tag, "Make") == 0 || strcmp(tag, "Model") == 0 || strstr(tag, "Lens") ||
      strstr(tag, "SerialNumber") || strcmp(tag, "Software") == 0 || strstr(tag, "Exposure") ||
      strcmp(tag, "FNumber") == 0 || strstr(tag, "ISO") || strstr(tag, "FocalLength") ||
      strcmp(tag, "Flash") == 0 || strcmp(tag, "MeteringMode") == 0 || strcmp(tag, "WhiteBalance") == 0 ||
      strstr(tag, "Aperture") || strstr(tag, "ShutterSpeed") || strcmp(tag, "BodySerialNumber") == 0)
    return (keep & CJ_KEEP_CAMERA) != 0;
  // Structural tags (versions, resolution, colour space) are harmless and kept when any
  // EXIF is kept; everything else is dropped.
  return strstr(tag, "Version") || strstr(tag, "Resolution") || strcmp(tag, "ColorSpace") == 0 ||
         strcmp(tag, "YCbCrPositioning") == 0 || strcmp(tag, "ComponentsConfiguration") == 0;
}

static void *collect_field(VipsImage *image, const char *name, GValue *value, void *a) {
  KeepState *state = (KeepState *)a;
  int kept;
  (void)image;
  (void)value;
  if (strcmp(name, VIPS_META_ICC_NAME) == 0) kept = (state->keep & CJ_KEEP_ICC) != 0;
  else if (strcmp(name, VIPS_META_XMP_NAME) == 0) kept = (state->keep & CJ_KEEP_XMP) != 0;
  else if (strcmp(name, VIPS_META_IPTC_NAME) == 0) kept = (state->keep & CJ_KEEP_IPTC) != 0;
  else if (strcmp(name, VIPS_META_EXIF_NAME) == 0) kept = 0;  // Rebuilt from the kept tags.
  else if (has_prefix(name, "exif-ifd")) kept = exif_tag_kept(name, state->keep);
  else if (strcmp(name, VIPS_META_ORIENTATION) == 0) kept = 0;
  else if (has_prefix(name, "jpeg-thumbnail") || has_prefix(name, "exif-thumbnail")) kept = 0;
  else if (strcmp(name, VIPS_META_PHOTOSHOP_NAME) == 0) kept = 0;
  else kept = 1;  // Image properties (resolution, n-pages, ...), not personal data.
  if (!kept) state->remove = g_slist_prepend(state->remove, g_strdup(name));
  return NULL;
}

int cj_keep_metadata(VipsImage *in, int keep, VipsImage **out) {
  KeepState state = {keep, NULL};
  vips_image_map(in, collect_field, &state);
  // Nothing to remove (e.g. pixels decoded without libvips): the same image, no copy built.
  if (!state.remove) {
    *out = g_object_ref(in);
    return 0;
  }
  if (vips_copy(in, out, NULL)) {
    g_slist_free_full(state.remove, g_free);
    return -1;
  }
  for (GSList *p = state.remove; p; p = p->next) {
    vips_image_remove(*out, (const char *)p->data);
  }
  g_slist_free_full(state.remove, g_free);
  return 0;
}

int cj_copy_icc(VipsImage *in, VipsImage *from, VipsImage **out) {
  const void *data = NULL;
  size_t length = 0;
  if (vips_copy(in, out, NULL)) return -1;
  if (vips_image_get_typeof(from, VIPS_META_ICC_NAME) &&
      vips_image_get_blob(from, VIPS_META_ICC_NAME, &data, &length) == 0) {
    vips_image_set_blob_copy(*out, VIPS_META_ICC_NAME, data, length);
  } else {
    vips_image_remove(*out, VIPS_META_ICC_NAME);
  }
  return 0;
}

static void *copy_field(VipsImage *from, const char *name, GValue *value, void *a) {
  VipsImage *to = (VipsImage *)a;
  (void)from;
  // The header fields (width, height, bands, format, coding, interpretation, resolution,
  // offsets, filename) describe the pixels, which are `to`'s own.
  static const char *own[] = {"width",   "height",  "bands", "format", "coding",   "interpretation",
                              "xoffset", "yoffset", "xres",  "yres",   "filename", NULL};
  for (int i = 0; own[i]; i++)
    if (strcmp(name, own[i]) == 0) return NULL;
  vips_image_set(to, name, value);
  return NULL;
}

int cj_copy_metadata(VipsImage *in, VipsImage *from, VipsImage **out) {
  if (vips_copy(in, out, NULL)) return -1;
  vips_image_map(from, copy_field, *out);
  return 0;
}

int cj_jpeg_header_buffer(const void *data, size_t length, VipsImage **out) {
  return vips_jpegload_buffer((void *)data, length, out, "fail_on", 0, NULL);
}
