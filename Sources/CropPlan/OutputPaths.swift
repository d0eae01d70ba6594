import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// Output names: template rendering and the checks that keep outputs inside the root.
public enum OutputPaths {
  /// Fills a path template for one output.
  public static func render(
    _ template: String, job: String, sourcePath: String, subdirectory: String, size: PixelSize, scale: Double,
    format: OutputFormat
  ) -> String {
    let name = PathText.lastComponent(sourcePath)
    let ext = PathText.pathExtension(name)
    let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
    let values: [String: String] = [
      "job": job, "stem": stem, "name": name, "ext": ext, "dir": subdirectory,
      "width": String(size.width), "height": String(size.height), "scale": formatScale(scale),
      "format": format.fileExtension,
    ]
    var result = ""
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      result += rest[..<open]
      let key = String(rest[rest.index(after: open)..<close])
      result += values[key] ?? "{\(key)}"
      rest = rest[rest.index(after: close)...]
    }
    result += rest
    // An empty {dir} must not leave "//" or a leading "/".
    return result.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
  }

  /// "1", "2", "1.5".
  static func formatScale(_ scale: Double) -> String {
    scale == scale.rounded() ? String(Int(scale)) : String(format: "%g", scale)
  }

  /// Why `path` would leave `root` (through `..` or a symlinked folder), or nil when it is safe.
  public static func escapeProblem(_ path: String, root: String) -> String? {
    let standard = (path as NSString).standardizingPath
    let rootStandard = (root as NSString).standardizingPath
    guard standard.hasPrefix(rootStandard + "/") else {
      return "resolves to \(standard), outside the output root \(rootStandard)"
    }
    let realRoot = realPath(rootStandard) ?? rootStandard
    if let problem = folderProblem(
      PathText.deletingLastComponent(standard), rootStandard: rootStandard, realRoot: realRoot)
    {
      return problem
    }
    let last = standard
    if let attributes = try? FileManager.default.attributesOfItem(atPath: last),
      attributes[.type] as? FileAttributeType == .typeSymbolicLink
    {
      return "\(last) is a symlink; cropjob does not write through symlinks"
    }
    return nil
  }

  /// The problem of an output folder (standardised): the nearest of it and its parents that
  /// exists, with its symlinks followed, must stay inside the real output root.
  static func folderProblem(_ standardFolder: String, rootStandard: String, realRoot: String) -> String? {
    var folder = standardFolder
    while !FileManager.default.fileExists(atPath: folder) && folder.count > rootStandard.count {
      folder = PathText.deletingLastComponent(folder)
    }
    if let real = realPath(folder), real != realRoot, !real.hasPrefix(realRoot + "/") {
      return "the folder \(folder) is a symlink to \(real), outside the output root"
    }
    return nil
  }

  package static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
