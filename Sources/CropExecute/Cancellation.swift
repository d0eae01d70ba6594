import Synchronization

/// Set from a signal handler (SIGINT/SIGTERM); the executor stops scheduling when it is set.
/// An atomic: the handler writes it while worker threads read it.
public enum Cancellation {
  private static let flag = Atomic<Int32>(0)

  public static var isCancelled: Bool { flag.load(ordering: .acquiring) != 0 }

  /// Sets the flag; returns whether it was already set (a second interrupt).
  @discardableResult
  public static func cancel() -> Bool { flag.exchange(1, ordering: .acquiringAndReleasing) != 0 }

  public static func reset() { flag.store(0, ordering: .releasing) }
}
