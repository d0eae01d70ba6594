// See include/cj_fs.h.
#define _GNU_SOURCE
#include "cj_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int cj_sync_filesystem(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = syncfs(fd);
  if (rc != 0 && errno == ENOSYS) {
    sync();
    rc = 0;
  }
  int saved = errno;
  close(fd);
  errno = saved;
  return rc;
}

int cj_open_folder(const char *path) { return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC); }

int cj_lstat_in(int folder, const char *name, struct stat *status) {
  return fstatat(folder, name, status, AT_SYMLINK_NOFOLLOW);
}
