import Foundation

/// Set from a signal handler (SIGINT/SIGTERM); the executor stops scheduling when it is set.
public enum Cancellation {
  nonisolated(unsafe) private static var flag: Int32 = 0

  public static var isCancelled: Bool { flag != 0 }

  public static func cancel() { flag = 1 }

  public static func reset() { flag = 0 }
}
