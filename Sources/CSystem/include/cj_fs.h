// File-system helpers that Swift's Glibc module does not import.
#ifndef CJ_FS_H
#define CJ_FS_H

/// Flushes every written file of the file system that holds `path` (Linux syncfs(2)), so that a
/// batch of outputs written without one fsync each becomes durable at once. 0 on success, -1 with
/// errno set (falls back to sync(2) where syncfs is missing).
int cj_sync_filesystem(const char *path);

#endif
