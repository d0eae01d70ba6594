import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// Output names: template rendering and the checks that keep outputs inside the root.
package enum OutputPaths {
  /// Fills a path template for one output.
  package static func render(
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
    // The braces found in `text`, a view of the template (its indices are the template's).
    func scan<View: Collection>(_ text: View, open: View.Element, close: View.Element)
    where View.Index == String.Index, View.Element: Equatable {
      var start = text.startIndex
      while let opening = text[start...].firstIndex(of: open), let closing = text[opening...].firstIndex(of: close) {
        result += template[start..<opening]
        append(template[text.index(after: opening)..<closing])
        start = text.index(after: closing)
      }
      result += template[start...]
    }
    if template.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
      // ASCII without "\r\n" (the usual template): a character is a byte, so the braces are
      // found by byte, not by grapheme breaking.
      scan(template.utf8, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"))
    } else {
      scan(template, open: "{", close: "}")
    }
    // An empty {dir} must not leave "//" or a leading "/".
    return PathText.joiningComponents(result, keepingRoot: false, droppingDots: false)
  }

  /// "1", "2", "1.5".
  static func formatScale(_ scale: Double) -> String {
    scale == scale.rounded() ? String(Int(scale)) : String(format: "%g", scale)
  }

  /// Why `path` would leave `root` (through `..` or a symlinked folder), or nil when it is safe.
  package static func escapeProblem(_ path: String, root: String) -> String? {
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
