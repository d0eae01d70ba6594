import Synchronization

/// A run's stop switch, in its options (`RunOptions.cancellation`): the executor stops
/// scheduling once it is cancelled (outputs in flight finish; the manifest and state of what
/// finished are written; the summary says `interrupted`). Each `RunOptions` gets a token of its
/// own, so that a program running two jobs cancels one without the other; the `cropjob` binary
/// cancels its run's token from its SIGINT/SIGTERM handler. An atomic: a signal handler or
/// another thread sets it while the workers read it.
public final class CancellationToken: Sendable {
  private let flag = Atomic<Int32>(0)

  public init() {}

  /// Whether `cancel()` was called.
  public var isCancelled: Bool { flag.load(ordering: .acquiring) != 0 }

  /// Cancels the run; returns whether it was already cancelled (a second interrupt).
  @discardableResult
  public func cancel() -> Bool { flag.exchange(1, ordering: .acquiringAndReleasing) != 0 }
}
