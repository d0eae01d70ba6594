import CropKit
import Foundation

/// SIGINT/SIGTERM stop scheduling; in-flight outputs finish (writes are atomic), the
/// manifest of what finished is written, and the run exits 130. A second signal ends the
/// process at once (no partial files either: outputs are written to unnamed temporary files).
enum SignalHandling {
  static func install() {
    let handler: @convention(c) (Int32) -> Void = { signo in
      if Cancellation.cancel() {
        signal(signo, SIG_DFL)
        raise(signo)
      }
    }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
  }
}
