import CropPlan
import CropStorage
import Foundation

/// GETs of the sources in object storage a window's tasks will decode, made ahead of the
/// workers by `fetchers` threads of their own, in the order the workers take the tasks, so
/// that the next photos arrive while the current ones decode (docs/storage.md, "Reading
/// sources"). Bounded in memory: the objects being fetched or fetched and not yet taken are
/// at most `maxBytes` by their listed sizes (or one object, when a single object is larger),
/// and at most `maxAhead` objects. A source no fetcher has started when a worker asks for it
/// is read by that worker instead (never twice).
package final class ObjectPrefetch: @unchecked Sendable {
  /// What is held or fetched for one source, by its index in the plan, with its listed size.
  private enum Slot {
    case pending
    case fetching(size: Int)
    case ready(Result<[UInt8], StorageError>, size: Int)
    case taken
  }

  package static let defaultMaxBytes = 64 << 20

  /// How many objects may be fetched or held ahead of `jobs` workers: 8 per worker. With 2
  /// per worker, job C's workers waited for about a third of their photos (S3 on loopback,
  /// the server on the same 2 cores); with 8, for almost none (bench/RESULTS.md). The byte
  /// bound still holds: 16 web-size photos are about 3 MB.
  package static func maxAhead(jobs: Int) -> Int { 8 * max(1, jobs) }

  /// How many threads fetch for `jobs` workers: 4, or 2 per worker from 3 workers on (a GET
  /// to a distant store waits longer than a decode takes), at most 16 (the S3 store's default
  /// number of requests in flight).
  package static func fetchers(jobs: Int) -> Int { min(16, max(4, 2 * jobs)) }

  private let order: [(source: Int, object: SourceObject)]
  private let maxBytes: Int
  private let maxAhead: Int
  private let condition = NSCondition()
  private var slots: [Int: Slot] = [:]
  /// The next entry of `order` a fetcher looks at.
  private var next = 0
  /// Listed sizes and count of the objects being fetched or held.
  private var reservedBytes = 0
  private var reservedCount = 0
  private var stopped = false
  private let done = DispatchGroup()

  /// Starts fetching `order` (sources in the order the workers take them).
  package init(
    order: [(source: Int, object: SourceObject)], maxBytes: Int = defaultMaxBytes, maxAhead: Int, fetchers: Int
  ) {
    self.order = order
    self.maxBytes = maxBytes
    self.maxAhead = max(1, maxAhead)
    for entry in order { slots[entry.source] = .pending }
    for _ in 0..<min(max(1, fetchers), order.count) {
      done.enter()
      Thread { [self] in
        fetch()
        done.leave()
      }.start()
    }
  }

  private func fetch() {
    condition.lock()
    defer { condition.unlock() }
    while !stopped {
      while next < order.count, case .taken = slots[order[next].source] ?? .taken { next += 1 }
      guard next < order.count else { return }
      let (source, object) = order[next]
      let size = Int(object.size)
      if reservedCount > 0 && (reservedCount >= maxAhead || reservedBytes + size > maxBytes) {
        condition.wait()
        continue
      }
      next += 1
      slots[source] = .fetching(size: size)
      reservedBytes += size
      reservedCount += 1
      condition.unlock()
      let result = Result { () throws(StorageError) -> [UInt8] in try object.read() }
      condition.lock()
      guard !stopped else { return }
      slots[source] = .ready(result, size: size)
      condition.broadcast()
    }
  }

  /// Forgets the reservation of an object that was fetched (`size`), under the lock.
  private func release(_ size: Int) {
    reservedBytes -= size
    reservedCount -= 1
    condition.broadcast()
  }

  /// The bytes of `source` (`object`): prefetched, waited for while a fetcher reads them, or
  /// read now.
  package func bytes(of source: Int, _ object: SourceObject) throws(StorageError) -> [UInt8] {
    condition.lock()
    while true {
      switch slots[source] {
      case .ready(let result, let size):
        slots[source] = .taken
        release(size)
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

  /// Drops what was fetched for `source` and not taken (its task found it needed no bytes:
  /// its outputs were settled up to date), and keeps the fetchers from fetching it later.
  package func discard(_ source: Int) {
    condition.lock()
    defer { condition.unlock() }
    while case .fetching = slots[source] { condition.wait() }
    switch slots[source] {
    case .ready(_, let size):
      slots[source] = .taken
      release(size)
    case .pending:
      slots[source] = .taken
    case .fetching, .taken, nil:
      break
    }
  }

  /// Stops fetching and waits for the fetches in progress; what was fetched is dropped.
  package func stop() {
    condition.lock()
    stopped = true
    slots.removeAll()
    reservedBytes = 0
    reservedCount = 0
    condition.broadcast()
    condition.unlock()
    done.wait()
  }
}
