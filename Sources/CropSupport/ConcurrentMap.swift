import Dispatch
import Foundation

/// `map` over all cores, keeping the order of the input.
package enum ConcurrentMap {
  package static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    let results = LockedBox([R?](repeating: nil, count: items.count))
    DispatchQueue.concurrentPerform(iterations: items.count) { i in
      let value = transform(items[i])
      results.withLock { $0[i] = value }
    }
    return results.withLock { $0.map { $0! } }
  }

  /// `map` on `threads` threads of its own, for work that mostly waits (requests to an object
  /// store: more of them in flight than there are cores), keeping the order of the input.
  package static func map<T: Sendable, R: Sendable>(
    _ items: [T], threads: Int, _ transform: @escaping @Sendable (T) -> R
  ) -> [R] {
    let results = LockedBox([R?](repeating: nil, count: items.count))
    let next = LockedBox(0)
    let group = DispatchGroup()
    for _ in 0..<min(max(1, threads), items.count) {
      group.enter()
      Thread {
        while true {
          let i = next.withLock { value -> Int in
            value += 1
            return value - 1
          }
          guard i < items.count else { break }
          let value = transform(items[i])
          results.withLock { $0[i] = value }
        }
        group.leave()
      }.start()
    }
    group.wait()
    return results.withLock { $0.map { $0! } }
  }

  /// `transform` of each item, on every core, joined in the items' order: the items in a few
  /// chunks per core (one lock per chunk, not per item), for many small items.
  package static func flatMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> [R]) -> [R] {
    let chunks = min(items.count, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    guard chunks > 1 else { return items.flatMap(transform) }
    let results = LockedBox([[R]](repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let range = (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks)
      let value = items[range].flatMap(transform)
      results.withLock { $0[chunk] = value }
    }
    return results.withLock { $0.flatMap { $0 } }
  }
}

/// A value guarded by a lock, for the few places that share state across threads.
package final class LockedBox<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  package init(_ value: Value) { self.value = value }

  package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
