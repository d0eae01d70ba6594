// SHA-256 through the system's libcrypto, loaded at run time when present (it uses the CPU's
// SHA extensions or AVX2: about 5-10x cropjob's portable Swift code, which remains the fallback).
#ifndef CJ_SHA256_H
#define CJ_SHA256_H

#include <stddef.h>

/// 1 when libcrypto could be loaded (once per process); 0 when the caller must hash itself.
/// cj_sha256_set_portable(1) forces 0.
int cj_sha256_available(void);

/// With `portable` non-zero, libcrypto is not used (cj_sha256_available says 0, the other
/// functions fail as when it is missing) until called again with 0. For comparisons.
void cj_sha256_set_portable(int portable);

/// Digest of `len` bytes into `out` (32 bytes) by SHA256_Init/Update/Final. 0 on success, -1
/// when unavailable (also when libcrypto lacks those three) or failed.
int cj_sha256_buffer(const void *data, size_t len, unsigned char *out);

/// Digest of a file's contents into `out` (32 bytes). 0 on success; -1 on an I/O error (errno
/// set); -2 when libcrypto is unavailable or failed.
int cj_sha256_file(const char *path, unsigned char *out);

#endif
