import Foundation

/// The PUTs of a run writing to an object store, made on `uploaders` threads of their own
/// while the workers decode and encode the next outputs: a worker hands its encoded bytes
/// over and goes on, unless `maxBytes` of encoded outputs already wait for or are in their
/// PUT — then it waits for room, so memory stays bounded (`RunOptions.maxUploadBytesInFlight`,
/// 64 MiB; one larger output is let through alone). A stage's outputs are all put
/// (`drain`) before the next stage or the manifest. Each output is recorded in the state
/// only once its PUT succeeded, as a file only once it is in place.
final class OutputUploads: @unchecked Sendable {
  let maxBytes: Int
  private let queue = OperationQueue()
  private let condition = NSCondition()
  private var pendingBytes = 0
  private var pendingCount = 0

  init(maxBytes: Int, uploaders: Int) {
    self.maxBytes = max(1, maxBytes)
    queue.maxConcurrentOperationCount = max(1, uploaders)
    queue.name = "cropjob.uploads"
  }

  /// Runs `put` (the PUT of `bytes` encoded bytes, and what follows it) on an uploader, once
  /// there is room.
  func submit(bytes: Int, _ put: @escaping @Sendable () -> Void) {
    condition.lock()
    while pendingCount > 0 && pendingBytes + bytes > maxBytes { condition.wait() }
    pendingBytes += bytes
    pendingCount += 1
    condition.unlock()
    queue.addOperation { [self] in
      put()
      condition.lock()
      pendingBytes -= bytes
      pendingCount -= 1
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Waits until every submitted PUT has ended.
  func drain() {
    condition.lock()
    while pendingCount > 0 { condition.wait() }
    condition.unlock()
  }
}
