import Foundation

/// Where the tests find the repository, the samples and scratch space (the public corpora:
/// `Corpora` in TestSupport).
public enum TestPaths {
  /// The repository root (two levels above this file).
  public static let repoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
  public static let samples = repoRoot.appendingPathComponent("samples")
  public static let jobs = repoRoot.appendingPathComponent("jobs")
  /// Job files, plans and fuzz finds the tests read (Tests/Fixtures).
  public static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")

  /// A Python oracle script in Tests/Oracle.
  public static func oracle(_ name: String) -> String {
    repoRoot.appendingPathComponent("Tests/Oracle").appendingPathComponent(name).path
  }

  public static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

  /// A fresh empty folder, removed when the process exits is not guaranteed: use per test.
  public static func scratch(_ name: String = #function) -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cropjob-tests-\(getpid())-\(safe)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Debian's Python with python3-pil and python3-numpy (the test oracle), if present.
  public static var python: String? {
    for candidate in ["/usr/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    return nil
  }
}
