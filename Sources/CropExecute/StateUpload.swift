import CropStorage
import CropStore
import Dispatch
import Foundation

/// Puts a run's state in the output prefix of its object store while it runs (every
/// `interval` seconds, on a timer of its own) and once more when it ends (`finish`), so
/// that a killed worker loses at most one interval and a fresh one finds the state there
/// (`StateSync`). An upload that fails is tried again at the next tick; the last one's
/// failure is the run's.
///
/// Only a state that differs from the one in the prefix is put: one whose records changed
/// since the last put (`StateWriter.changes`), or, at the end, whose run status did. The
/// prefix holds what the run pulled when it opened (`StateWriter.statusWhenOpened`, the
/// changes made by then), so a no-op puts nothing (docs/storage.md, "Requests per run").
final class StateUpload: @unchecked Sendable {
  let sync: StateSync
  let writer: StateWriter
  private let queue = DispatchQueue(label: "cropjob.state.upload")
  private let timer: DispatchSourceTimer
  private let lock = NSLock()
  private var failure: String?
  private var uploads = 0
  /// What the prefix holds: the writer's `changes` and run status when last put (or pulled).
  private var putChanges: Int
  private var putStatus: String?

  /// `putWhenOpened`: the state was put as the writer now has it; else the prefix holds what
  /// the run pulled (before the writer's changes: a fold of shard states is put at the end).
  init(sync: StateSync, writer: StateWriter, interval: Double, putWhenOpened: Bool) {
    self.sync = sync
    self.writer = writer
    putChanges = putWhenOpened ? writer.changes : 0
    putStatus = putWhenOpened ? writer.status : writer.statusWhenOpened
    timer = DispatchSource.makeTimerSource(queue: queue)
    let nanoseconds = Int(max(0.05, interval) * 1e9)
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(50))
    timer.setEventHandler { [weak self] in _ = self?.put() }
    timer.resume()
  }

  /// The last failure's text, if the last upload failed.
  var lastError: String? { lock.withLock { failure } }

  /// How many uploads were made.
  var count: Int { lock.withLock { uploads } }

  /// Commits what is pending and puts the state when its records changed since it was last
  /// put, or when `final` and its run status did; false when the upload failed.
  @discardableResult
  func put(final: Bool = false) -> Bool {
    _ = writer.commitPending()
    let (changes, status) = (writer.changes, writer.status)
    let due = lock.withLock { changes != putChanges || (final && status != putStatus) }
    guard due else { return true }
    do throws(StorageError) {
      try sync.push(writer)
      lock.withLock {
        failure = nil
        uploads += 1
        putChanges = changes
        putStatus = status
      }
      return true
    } catch {
      lock.withLock { failure = "\(error)" }
      return false
    }
  }

  /// Stops the timer (waiting for an upload under way), then puts the final state and
  /// removes the shard objects an unsharded run folded; false when that failed.
  func finish() -> Bool {
    timer.cancel()
    queue.sync {}
    guard put(final: true) else { return false }
    do throws(StorageError) {
      try sync.removeFoldedShards()
    } catch {
      lock.withLock { failure = "\(error)" }
      return false
    }
    return true
  }
}
