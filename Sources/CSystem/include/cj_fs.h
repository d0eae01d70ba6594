// File-system helpers that Swift's Glibc module does not import.
#ifndef CJ_FS_H
#define CJ_FS_H

#include <sys/stat.h>

/// Flushes every written file of the file system that holds `path` (Linux syncfs(2)), so that a
/// batch of outputs written without one fsync each becomes durable at once. 0 on success, -1 with
/// errno set (falls back to sync(2) where syncfs is missing).
int cj_sync_filesystem(const char *path);

/// Opens the folder at `path` for lookups relative to it (`fstatat`), not for reading:
/// open(2) with O_PATH | O_DIRECTORY | O_CLOEXEC (the fixed-arity form of a variadic call).
/// A descriptor, or -1 with errno set.
int cj_open_folder(const char *path);

/// lstat(2) of `name` in the folder `folder` (a descriptor from cj_open_folder): fstatat(2)
/// with AT_SYMLINK_NOFOLLOW. 0, or -1 with errno set.
int cj_lstat_in(int folder, const char *name, struct stat *status);

#endif
