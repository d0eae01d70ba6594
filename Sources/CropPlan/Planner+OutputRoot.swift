import CropSpec
import Foundation

extension Planner {
  /// The absolute output root a plan of `file` writes into: `outputRoot` (the command line's
  /// `--output`, relative to the current folder) or the job file's `output` (relative to the
  /// job file's folder). Known before planning, so that the state in it can be read first.
  package func outputRoot(of file: JobFile) -> String {
    SourceExpansion.absolute(
      outputRoot ?? file.outputRoot,
      base: outputRoot == nil ? file.baseDirectory : FileManager.default.currentDirectoryPath)
  }
}
