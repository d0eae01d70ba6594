// The C library's heap, for what Swift's Glibc module does not import (malloc.h).
#ifndef CJ_MEMORY_H
#define CJ_MEMORY_H

/// Fixes glibc malloc's thresholds (mallopt M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, in bytes):
/// blocks of at least `mmap_threshold` bytes are mapped on their own and unmapped when freed,
/// and free memory above `trim_threshold` at the top of the heap is returned. Fixing them
/// stops glibc from raising them as large blocks are freed. 1 on success, 0 otherwise or
/// without glibc.
int cj_set_heap_thresholds(int mmap_threshold, int trim_threshold);

#endif
