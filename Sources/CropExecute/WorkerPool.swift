import CropSupport
import Dispatch
import Foundation

/// A fixed number of threads taking tasks from a shared list in order.
package enum WorkerPool {
  /// Runs `body` for each of `tasks` on up to `workers` threads, in order of index, until
  /// all are done or `stop` says so; returns when every worker has finished.
  static func run<T: Sendable>(
    _ tasks: [T], workers: Int, stop: @escaping @Sendable () -> Bool, body: @escaping @Sendable (T) -> Void
  ) {
    let next = LockedBox(0)
    runWorkers(max(1, min(workers, tasks.count))) {
      while !stop() {
        let index = next.withLock { value -> Int in
          value += 1
          return value - 1
        }
        guard index < tasks.count else { return }
        body(tasks[index])
      }
    }
  }

  /// Runs `body` on `count` threads at once and waits for all of them. Not
  /// `concurrentPerform`: it never runs more than the cores at once, so `--jobs 4` on 2 cores
  /// ran 2 (photos on a network file system wait on reads and gain from more workers).
  package static func runWorkers(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    guard count > 1 else { return body() }
    let group = DispatchGroup()
    for _ in 0..<count {
      group.enter()
      let thread = Thread {
        body()
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    group.wait()
  }
}
