internal import CSystem

/// The process's heap. A batch is planned and run window by window (docs/scale.md): each
/// window's plan and state rows (a few megabytes in arrays and dictionaries) are freed
/// before the next. glibc's malloc raises its mmap threshold to the largest mapped block
/// freed so far, so from the first window on those arrays come from the heap, whose freed
/// pages it keeps: a no-op re-run of 100,000 sources kept about 12 MiB more that way.
package enum ProcessMemory {
  /// Blocks of 128 KiB or more are mapped on their own (and unmapped when freed), and the
  /// heap's top is returned past 128 KiB free: glibc's initial thresholds, kept fixed.
  /// Call once, at the start of the process, before other threads. A no-op without glibc.
  package static func keepLargeBlocksOffTheHeap() {
    _ = cj_set_heap_thresholds(128 * 1024, 128 * 1024)
  }
}
