// Opening image files: the accepted loaders, cj_open, cj_load, decoding on the calling thread.
#include "cj_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vips/vips.h>

// The loaders cropjob reads with, in the order of cj_open's `format`
// (0 jpeg ... 5 heif; InputFormat(loaderIndex:) in Swift).
static const struct {
  const char *class_name;
  const char *source_loader;
} cj_loaders[] = {
    {"VipsForeignLoadJpeg", "jpegload_source"}, {"VipsForeignLoadPng", "pngload_source"},
    {"VipsForeignLoadWebp", "webpload_source"}, {"VipsForeignLoadTiff", "tiffload_source"},
    {"VipsForeignLoadNsgif", "gifload_source"}, {"VipsForeignLoadHeif", "heifload_source"},
    {NULL, NULL},
};

void cj_block_other_loaders(void) {
  vips_operation_block_set("VipsForeignLoad", TRUE);
  for (int i = 0; cj_loaders[i].class_name; i++)
    vips_operation_block_set(cj_loaders[i].class_name, FALSE);
}

// libvips' TIFF sniffer clears libvips' error buffer (it tries the bytes with libtiff), where
// another thread's JPEG reader keeps libjpeg's warnings until it closes: those would be lost
// (docs/reliability.md, "Messages"). So it is asked only about files that start like a TIFF,
// and what the buffer held is put back after it.
static int cj_is_tiff(VipsSource *source) {
  const unsigned char *p = vips_source_sniff(source, 4);
  if (!p) return 0;
  const int intel = p[0] == 'I' && p[1] == 'I' && (p[2] == 42 || p[2] == 43) && p[3] == 0;
  const int motorola = p[0] == 'M' && p[1] == 'M' && p[2] == 0 && (p[3] == 42 || p[3] == 43);
  if (!intel && !motorola) return 0;
  char *saved = vips_error_buffer_copy();
  const int result = vips_foreign_is_a_source("tiffload_source", source);
  if (saved) {
    g_strchomp(saved);
    cj_thread_errors_mute(1);
    if (*saved) vips_error(NULL, "%s", saved);
    cj_thread_errors_mute(0);
    g_free(saved);
  }
  return result;
}

static void cj_message(char *buf, size_t size, const char *what, int error) {
  if (buf && size > 0) g_snprintf(buf, size, "%s: %s", what, g_strerror(error));
}

// Opens `path` as a regular file: non-blocking, so that a FIFO cannot hang the open; the
// descriptor is a regular file from here on, whatever happens to the path. Returns the
// descriptor (blocking again), or -1 with `message` set.
static int cj_open_regular(const char *path, struct stat *st, char *message, size_t message_size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    cj_message(message, message_size, "cannot open", errno);
    return -1;
  }
  if (fstat(fd, st) != 0) {
    cj_message(message, message_size, "cannot stat", errno);
    close(fd);
    return -1;
  }
  if (!S_ISREG(st->st_mode)) {
    const char *kind = S_ISDIR(st->st_mode)    ? "a folder"
                       : S_ISFIFO(st->st_mode) ? "a FIFO"
                       : S_ISSOCK(st->st_mode) ? "a socket"
                       : S_ISCHR(st->st_mode)  ? "a character device"
                       : S_ISBLK(st->st_mode)  ? "a block device"
                                               : "not a regular file";
    if (message && message_size) g_snprintf(message, message_size, "is %s, not an image file", kind);
    close(fd);
    return -1;
  }
  if (st->st_size == 0) {
    if (message && message_size) g_snprintf(message, message_size, "the file is empty");
    close(fd);
    return -1;
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// Sniffs `source` with the accepted loaders and opens it with the first that recognises it.
// `page`, `n`: the frames of a GIF or WebP to load (0, 1: the first, as libvips' default).
// `stored`: the width and height the file stores (its header's), which a shrunk load does
// not show; NULL when not wanted.
static int cj_open_source(VipsSource *source, int header_only, int shrink, int fail_on,
                          int page, int n, int *format, VipsImage **out, int *stored) {
  int found = -1;
  for (int i = 0; cj_loaders[i].class_name; i++) {
    if (vips_type_find("VipsOperation", cj_loaders[i].source_loader) &&
        (strcmp(cj_loaders[i].source_loader, "tiffload_source") == 0
             ? cj_is_tiff(source)
             : vips_foreign_is_a_source(cj_loaders[i].source_loader, source))) {
      found = i;
      break;
    }
  }
  if (found < 0) return -3;
  *format = found;
  VipsAccess access = VIPS_ACCESS_SEQUENTIAL;
  int rc;
  if (header_only) shrink = 1;
  if (stored && shrink > 1 && (found == 0 || found == 2)) {
    // The header as the planner read it, unshrunk: what says whether this is the file that
    // was planned. The shrunk size does not (libvips 8.14 does not shrink an animated WebP).
    VipsImage *header = NULL;
    rc = found == 0 ? vips_jpegload_source(source, &header, "fail_on", fail_on, NULL)
                    : vips_webpload_source(source, &header, "fail_on", fail_on, NULL);
    if (rc) {
      *out = NULL;
      return -1;
    }
    stored[0] = header->Xsize;
    stored[1] = header->Ysize;
    g_object_unref(header);
    stored = NULL;
  }
  switch (found) {
  case 0:
    rc = vips_jpegload_source(source, out, "shrink", shrink > 1 ? shrink : 1, "fail_on", fail_on,
                              "access", access, NULL);
    break;
  case 1:
    rc = vips_pngload_source(source, out, "fail_on", fail_on, "access", access, NULL);
    break;
  case 2:
    rc = vips_webpload_source(source, out, "scale", shrink > 1 ? 1.0 / shrink : 1.0, "fail_on",
                              fail_on, "access", access, "page", page, "n", n, NULL);
    break;
  case 3:
    rc = vips_tiffload_source(source, out, "fail_on", fail_on, "access", access, NULL);
    break;
  case 4:
    rc = vips_gifload_source(source, out, "fail_on", fail_on, "access", access, "page", page, "n",
                             n, NULL);
    break;
  default:
    rc = vips_heifload_source(source, out, "fail_on", fail_on, "access", access, NULL);
    break;
  }
  if (rc) *out = NULL;
  if (!rc && stored) {
    stored[0] = (*out)->Xsize;
    stored[1] = (*out)->Ysize;
  }
  return rc ? -1 : 0;
}

/* cj_open and cj_open_frames: the regular file at `path` as a source, opened from `page`
   (`n` pages; 1 and 1 for a still image). */
static int cj_open_path(const char *path, int header_only, int shrink, int fail_on, int page, int n,
                        int *format, VipsImage **out, int *stored, char *message,
                        size_t message_size) {
  *out = NULL;
  *format = -1;
  if (message && message_size) message[0] = '\0';
  struct stat st;
  int fd = cj_open_regular(path, &st, message, message_size);
  if (fd < 0) return -2;
  VipsSource *source = vips_source_new_from_descriptor(fd);  // dups fd
  close(fd);
  if (!source) return -1;
  int rc = cj_open_source(source, header_only, shrink, fail_on, page, n, format, out, stored);
  VIPS_UNREF(source);
  return rc;
}

int cj_open(const char *path, int header_only, int shrink, int fail_on, int *format,
            VipsImage **out, int *stored, char *message, size_t message_size) {
  return cj_open_path(path, header_only, shrink, fail_on, 0, 1, format, out, stored, message,
                      message_size);
}

int cj_open_frames(const char *path, int page, int n, int fail_on, int *format, VipsImage **out,
                   char *message, size_t message_size) {
  return cj_open_path(path, 0, 1, fail_on, page, n, format, out, NULL, message, message_size);
}

int cj_read_file(const char *path, size_t max_bytes, void **data, size_t *length,
                 char *message, size_t message_size) {
  *data = NULL;
  *length = 0;
  if (message && message_size) message[0] = '\0';
  struct stat st;
  int fd = cj_open_regular(path, &st, message, message_size);
  if (fd < 0) return -2;
  if ((uint64_t)st.st_size > (uint64_t)max_bytes) {
    close(fd);
    return -4;
  }
  size_t size = (size_t)st.st_size;
  unsigned char *buffer = g_try_malloc(size);
  if (!buffer) {
    if (message && message_size) g_snprintf(message, message_size, "cannot hold %zu bytes", size);
    close(fd);
    return -2;
  }
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, buffer + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      cj_message(message, message_size, "cannot read", errno);
      g_free(buffer);
      close(fd);
      return -2;
    }
    if (n == 0) break;  // Shorter than fstat said (truncated meanwhile): what is there.
    done += (size_t)n;
  }
  close(fd);
  if (done == 0) {
    if (message && message_size) g_snprintf(message, message_size, "the file is empty");
    g_free(buffer);
    return -2;
  }
  *data = buffer;
  *length = done;
  return 0;
}

int cj_read_head(const char *path, size_t max_bytes, const unsigned char *magic, size_t magic_length,
                 void **data, size_t *length, size_t *file_size) {
  *data = NULL;
  *length = 0;
  *file_size = 0;
  struct stat st;
  int fd = cj_open_regular(path, &st, NULL, 0);
  if (fd < 0) return 1;
  size_t want = (size_t)st.st_size < max_bytes ? (size_t)st.st_size : max_bytes;
  unsigned char *buffer = g_try_malloc(want ? want : 1);
  size_t done = 0;
  while (buffer && done < want) {
    // The first read stops after the magic bytes' page: a file that does not start with them
    // costs one small read.
    size_t chunk = done == 0 && want > 4096 ? 4096 : want - done;
    ssize_t n = read(fd, buffer + done, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
    if (done >= magic_length && memcmp(buffer, magic, magic_length) != 0) break;
  }
  close(fd);
  if (!buffer || done < magic_length || memcmp(buffer, magic, magic_length) != 0) {
    g_free(buffer);
    return 1;
  }
  *data = buffer;
  *length = done;
  *file_size = (size_t)st.st_size;
  return 0;
}

static void cj_blob_free(void *data, void *unused) {
  (void)unused;
  g_free(data);
}

int cj_open_bytes(void *data, size_t length, int shrink, int fail_on, int *format,
                  VipsImage **out, int *stored) {
  *out = NULL;
  *format = -1;
  VipsBlob *blob = vips_blob_new((VipsCallbackFn)cj_blob_free, data, length);
  VipsSource *source = vips_source_new_from_blob(blob);
  vips_area_unref(VIPS_AREA(blob));
  if (!source) return -1;
  int rc = cj_open_source(source, 0, shrink, fail_on, 0, 1, format, out, stored);
  VIPS_UNREF(source);
  return rc;
}

int cj_open_bytes_header(void *data, size_t length, int fail_on, int *format, VipsImage **out) {
  *out = NULL;
  *format = -1;
  VipsBlob *blob = vips_blob_new((VipsCallbackFn)cj_blob_free, data, length);
  VipsSource *source = vips_source_new_from_blob(blob);
  vips_area_unref(VIPS_AREA(blob));
  if (!source) return -1;
  int rc = cj_open_source(source, 1, 1, fail_on, 0, 1, format, out, NULL);
  VIPS_UNREF(source);
  return rc;
}

int cj_decode_here(VipsImage *in, VipsImage **out) {
  *out = NULL;
  // Rendered straight into the memory image's buffer, strip by strip, as vips_sink_memory
  // does, but on this thread (measured 10-25% faster than vips_image_copy_memory here).
  VipsImage *memory = vips_image_new_memory();
  if (vips_image_pipelinev(memory, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
      vips_image_write_prepare(memory)) {
    g_object_unref(memory);
    return -1;
  }
  int tile_width, tile_height, n_lines;
  vips_get_tile_size(in, &tile_width, &tile_height, &n_lines);
  if (n_lines < 1) n_lines = 16;
  VipsRegion *source = vips_region_new(in);
  VipsRegion *target = vips_region_new(memory);
  int rc = 0;
  for (int y = 0; y < in->Ysize && rc == 0; y += n_lines) {
    VipsRect rect = {0, y, in->Xsize, VIPS_MIN(n_lines, in->Ysize - y)};
    rc = vips_region_image(target, &rect) || vips_region_prepare_to(source, target, &rect, 0, y);
  }
  g_object_unref(source);
  g_object_unref(target);
  if (rc) {
    g_object_unref(memory);
    return -1;
  }
  *out = memory;
  return 0;
}

int cj_load(const char *path, int shrink, int fail_on, int sequential, VipsImage **out) {
  const char *loader = vips_foreign_find_load(path);
  if (!loader) return -1;
  VipsAccess access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
  if (shrink > 1 && strcmp(loader, "VipsForeignLoadJpegFile") == 0) {
    *out = vips_image_new_from_file(path, "shrink", shrink, "fail_on", fail_on, "access",
                                    access, NULL);
  } else if (shrink > 1 && strcmp(loader, "VipsForeignLoadWebpFile") == 0) {
    *out = vips_image_new_from_file(path, "scale", 1.0 / shrink, "fail_on", fail_on,
                                    "access", access, NULL);
  } else {
    *out = vips_image_new_from_file(path, "fail_on", fail_on, "access", access, NULL);
  }
  return *out ? 0 : -1;
}
