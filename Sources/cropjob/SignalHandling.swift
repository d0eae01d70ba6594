import CropKit
import Foundation

/// SIGINT/SIGTERM stop scheduling; in-flight outputs finish (writes are atomic), the
/// manifest of what finished is written, and the run exits 130.
enum SignalHandling {
  static func install() {
    let handler: @convention(c) (Int32) -> Void = { _ in Cancellation.cancel() }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
  }
}
