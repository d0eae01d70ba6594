import Foundation
import XCTest

/// A skip that is also written down: `throw Skipped.because("reason")` instead of
/// `throw Skipped.because("reason")`. `swift test --parallel` shows only failures, so each skip is
/// appended to `.build/skipped-tests.txt` as well, which `scripts/test.sh` prints at the end
/// (docs/testing.md, "Skipped where").
public enum Skipped {
  /// Where the skips of one test run are listed, one line each (`scripts/test.sh` empties it
  /// first).
  public static let list = TestPaths.repoRoot.appendingPathComponent(".build/skipped-tests.txt")

  /// Records `reason` for the calling test and returns the XCTSkip to throw.
  public static func because(_ reason: String, test: String = #function, file: String = #fileID) -> XCTSkip {
    let type = file.split(separator: "/").last.map { String($0.dropLast(".swift".count)) } ?? file
    // XCTestCase.name is already "Type.test"; #function is the bare method.
    let line = test.contains(".") ? "\(test): \(reason)\n" : "\(type).\(test): \(reason)\n"
    // One short write with O_APPEND: lines from parallel test processes do not interleave.
    let descriptor = open(list.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    if descriptor >= 0 {
      _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
      close(descriptor)
    }
    return XCTSkip(reason)
  }
}
