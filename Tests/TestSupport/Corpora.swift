import Foundation

/// The public test corpora in Tests/Corpora (see its README): image files nobody on this
/// project made, and the YAML test suite. They are part of the checkout, so no test skips
/// for want of them.
public enum Corpora {
  /// Tests/Corpora (this file is Tests/TestSupport/Corpora.swift).
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpora")

  /// The folders of images: every file in them is an image, good or bad, but for the licences
  /// and notes kept beside them.
  public static let imageFolders = ["pngsuite", "jpeg-decoder", "afl-testcases-images", "exif-orientation"]

  /// One image file of the corpora.
  public struct File: Sendable {
    /// `folder/relative/path`, e.g. `pngsuite/xcrn0g04.png`.
    public var name: String
    /// Its absolute path.
    public var path: String
    /// The corpus folder it is in (one of `imageFolders`).
    public var folder: String
  }

  /// Every image file of the image folders, sorted by name (licences, READMEs and notes left
  /// out).
  public static func imageFiles() -> [File] {
    imageFolders.flatMap { folder in
      let base = root.appendingPathComponent(folder).path
      return regularFiles(below: base).filter { relative in
        ![".upstream", ".md", ".txt"].contains { relative.hasSuffix($0) }
      }.map { File(name: "\(folder)/\($0)", path: (base as NSString).appendingPathComponent($0), folder: folder) }
    }.sorted { $0.name < $1.name }
  }

  /// The YAML test suite's `data` folder: one folder per case (some with numbered sub-cases),
  /// each with `in.yaml` and, where the input is invalid YAML, `error`.
  public static let yamlTestSuite = root.appendingPathComponent("yaml-test-suite/data")

  /// Every `in.yaml` below `data` (the YAML test suite by default), sorted by path.
  public static func yamlTestSuiteInputs(in data: URL = yamlTestSuite) -> [URL] {
    regularFiles(below: data.path).filter { $0 == "in.yaml" || $0.hasSuffix("/in.yaml") }.map {
      data.appendingPathComponent($0)
    }
  }
}
