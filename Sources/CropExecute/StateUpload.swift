import CropStorage
import CropStore
import Dispatch
import Foundation

/// Puts a run's state in the output prefix of its object store while it runs (every
/// `interval` seconds, on a timer of its own) and once more when it ends (`finish`), so
/// that a killed worker loses at most one interval and a fresh one finds the state there
/// (`StateSync`). An upload that fails is tried again at the next tick; the last one's
/// failure is the run's.
final class StateUpload: @unchecked Sendable {
  let sync: StateSync
  let writer: StateWriter
  private let queue = DispatchQueue(label: "cropjob.state.upload")
  private let timer: DispatchSourceTimer
  private let lock = NSLock()
  private var failure: String?
  private var uploads = 0

  init(sync: StateSync, writer: StateWriter, interval: Double) {
    self.sync = sync
    self.writer = writer
    timer = DispatchSource.makeTimerSource(queue: queue)
    let nanoseconds = Int(max(0.05, interval) * 1e9)
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(50))
    timer.setEventHandler { [weak self] in _ = self?.put() }
    timer.resume()
  }

  /// The last failure's text, if the last upload failed.
  var lastError: String? { lock.withLock { failure } }

  /// How many uploads were made (the one when the run opened is not counted).
  var count: Int { lock.withLock { uploads } }

  /// Commits what is pending and puts the state; false when the upload failed.
  @discardableResult
  func put() -> Bool {
    _ = writer.commitPending()
    do throws(StorageError) {
      try sync.push(writer)
      lock.withLock {
        failure = nil
        uploads += 1
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
    guard put() else { return false }
    do throws(StorageError) {
      try sync.removeFoldedShards()
    } catch {
      lock.withLock { failure = "\(error)" }
      return false
    }
    return true
  }
}
