import CropKit
import Foundation

/// SIGINT/SIGTERM cancel the run's token (`RunOptions.cancellation`): scheduling stops,
/// in-flight outputs finish (writes are atomic), the manifest of what finished is written,
/// and the run exits 130. A second signal ends the process at once (no partial files either:
/// outputs are written to unnamed temporary files).
enum SignalHandling {
  /// The token of the one run this process makes, which the handler cancels.
  static let runToken = CancellationToken()

  static func install() {
    // Made before the handler can run: a signal handler must not be the first to touch it.
    _ = runToken
    let handler: @convention(c) (Int32) -> Void = { signo in
      if SignalHandling.runToken.cancel() {
        signal(signo, SIG_DFL)
        raise(signo)
      }
    }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
  }
}
