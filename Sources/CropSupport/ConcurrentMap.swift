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
