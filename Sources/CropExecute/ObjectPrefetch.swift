import CropPlan
import CropStorage
import Foundation

/// GETs of the sources in object storage a window's tasks will decode, made ahead of the
/// workers on one thread of their own, so that the next photos arrive while the current
/// ones decode (docs/storage.md, "Reading sources"). Bounded in memory: the bytes fetched and
/// not yet taken are at most `maxBytes` (or one object, when a single object is larger), and
/// at most `maxAhead` objects. A source the prefetcher has not started when a worker asks
/// for it is fetched by that worker instead (never twice).
final class ObjectPrefetch: @unchecked Sendable {
  /// What is held or fetched for one source, by its index in the plan.
  private enum Slot {
    case pending
    case fetching
    case ready(Result<[UInt8], StorageError>)
    case taken
  }

  static let defaultMaxBytes = 64 << 20

  private let order: [(source: Int, object: SourceObject)]
  private let maxBytes: Int
  private let maxAhead: Int
  private let condition = NSCondition()
  private var slots: [Int: Slot] = [:]
  private var heldBytes = 0
  private var heldCount = 0
  private var stopped = false
  private let done = DispatchGroup()

  /// Starts fetching `order` (sources in the order the workers take them).
  init(order: [(source: Int, object: SourceObject)], maxBytes: Int = defaultMaxBytes, maxAhead: Int) {
    self.order = order
    self.maxBytes = maxBytes
    self.maxAhead = max(1, maxAhead)
    for entry in order { slots[entry.source] = .pending }
    guard !order.isEmpty else { return }
    done.enter()
    let thread = Thread { [self] in
      fetchAll()
      done.leave()
    }
    thread.start()
  }

  private func fetchAll() {
    for (source, object) in order {
      condition.lock()
      while !stopped && heldCount > 0
        && (heldCount >= maxAhead || heldBytes + Int(object.info.size) > maxBytes)
      {
        condition.wait()
      }
      guard !stopped else {
        condition.unlock()
        return
      }
      guard case .pending = slots[source] else {
        condition.unlock()
        continue
      }
      slots[source] = .fetching
      condition.unlock()
      let result = Result { () throws(StorageError) -> [UInt8] in try object.read() }
      condition.lock()
      if case .success(let bytes) = result { heldBytes += bytes.count }
      heldCount += 1
      slots[source] = .ready(result)
      condition.broadcast()
      condition.unlock()
    }
  }

  /// The bytes of `source` (`object`): prefetched, waited for while the prefetcher reads
  /// them, or read now.
  func bytes(of source: Int, _ object: SourceObject) throws(StorageError) -> [UInt8] {
    condition.lock()
    while true {
      switch slots[source] {
      case .ready(let result):
        slots[source] = .taken
        if case .success(let bytes) = result { heldBytes -= bytes.count }
        heldCount -= 1
        condition.broadcast()
        condition.unlock()
        return try result.get()
      case .fetching:
        condition.wait()
      case .pending, .taken, nil:
        slots[source] = .taken
        condition.unlock()
        return try object.read()
      }
    }
  }

  /// Stops fetching and waits for the fetch in progress; what was fetched is dropped.
  func stop() {
    condition.lock()
    stopped = true
    slots.removeAll()
    heldBytes = 0
    heldCount = 0
    condition.broadcast()
    condition.unlock()
    done.wait()
  }
}
