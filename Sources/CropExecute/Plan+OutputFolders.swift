import CropPlan
import CropSupport

extension Plan {
  /// The folders the outputs among `selected` are written to, each once. Outputs come source
  /// by source, so a folder's outputs are mostly consecutive; absolute output paths are
  /// standardised (no trailing or doubled `/`), so the folder is what precedes the last `/`.
  func outputFolders(_ selected: [Int]) -> Set<String> {
    var folders = Set<String>()
    var last: Substring = ""
    for i in selected {
      let path = outputs[i].absolutePath
      guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else {
        folders.insert(PathText.deletingLastComponent(path))
        continue
      }
      let folder = path[..<slash]
      if folder != last {
        folders.insert(String(folder))
        last = folder
      }
    }
    return folders
  }
}
