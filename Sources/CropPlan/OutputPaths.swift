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
    var result = ""
    // Each placeholder's value made when met (a template names a few of them).
    func append(_ key: Substring) {
      switch key {
      case "job": result += job
      case "stem": result += ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
      case "name": result += name
      case "ext": result += ext
      case "dir": result += subdirectory
      case "width": result += String(size.width)
      case "height": result += String(size.height)
      case "scale": result += formatScale(scale)
      case "format": result += format.fileExtension
      case let key: result += "{\(key)}"
      }
    }
    if template.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
      // ASCII without "\r\n" (the usual template): a character is a byte, so the braces are
      // found by byte, not by grapheme breaking.
      let bytes = template.utf8
      var start = bytes.startIndex
      while let open = bytes[start...].firstIndex(of: UInt8(ascii: "{")),
        let close = bytes[open...].firstIndex(of: UInt8(ascii: "}"))
      {
        result += template[start..<open]
        append(template[bytes.index(after: open)..<close])
        start = bytes.index(after: close)
      }
      result += template[start...]
    } else {
      var rest = Substring(template)
      while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
        result += rest[..<open]
        append(rest[rest.index(after: open)..<close])
        rest = rest[rest.index(after: close)...]
      }
      result += rest
    }
    // An empty {dir} must not leave "//" or a leading "/".
    return PathText.joiningComponents(result, keepingRoot: false, droppingDots: false)
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
