import CropKit
import Foundation

/// `cropjob preview`: a proof sheet of a job file (HTML index, contact-sheet pages, tiles).
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "preview",
    abstract: "Draw a proof sheet of a job file: each photo with its guide beside the output it becomes.",
    epilogue: """
      OUTPUT:
        <dir>/index.html        Every tile with its job, source, outputs and warnings (relative
                                links to the PNGs beside it; no network).
        <dir>/page-001.png ...  Contact sheet pages, columns x rows tiles each.
        <dir>/tiles/*.png       One image per tile: the photo with the guide, and the output.

      Each tile shows the photo, decoded at tile size, with the guide where the plan puts it
      (white dashes; the dimmed part is cut away; yellow ring: focus point; cyan diamond:
      smart-crop point), and beside it the first output rendered for real from the same
      geometry `run` uses. Warnings (upscaling, the guide reaching off the photo, a focus
      point cut off by a circle) get a badge on the tile and a line under it.
      """,
    exitCodes: [
      ExitCodeMeaning(ExitCode.success, "sheet written"),
      ExitCodeMeaning(ExitCode.failure, "invalid job file or nothing could be written"),
      .usage,
    ])

  /// The sheet's defaults, which the help text quotes.
  static let defaults = ProofSheetOptions(directory: "preview")
  static let tileSizes = 64...1024

  var jobFile = ""
  var sheet = Self.defaults
  var planning = PlanningOptions()

  static var arguments: [Argument<Self>] {
    [
      .positional(\.jobFile, "job.yaml", noun: "job file", help: "The job file."),
      .option(
        \.sheet.directory, "--out", value: "dir", .nonEmpty("a folder"), inUsage: true,
        help: """
          Folder for the sheet (default: ./\(defaults.directory)). It may not be the
          job's output root or inside it; nothing is written there.
          """),
      .option(\.sheet.job, "--job", value: "name", .text, inUsage: true, help: "Only this job."),
      .option(
        \.sheet.limit, "--limit", value: "n", .integer(in: 1...1_000_000), inUsage: true,
        help: "At most n photos per job, evenly spaced over its sources."),
      .option(
        \.sheet.tileSize, "--tile", value: "px", .integer(in: tileSizes), inUsage: true,
        help:
          "Side of each square panel (default \(defaults.tileSize), \(tileSizes.lowerBound)...\(tileSizes.upperBound))."
      ),
      .option(
        \.sheet.columns, "--columns", value: "n", .integer(in: 1...64),
        help: "Tiles across a page (default \(defaults.columns))."),
      .option(
        \.sheet.rows, "--rows", value: "n", .integer(in: 1...64),
        help: "Tile rows on a page (default \(defaults.rows))."),
      .flag(\.sheet.palette, "--palette", help: "Write pages as 8-bit palette PNGs (about a third of the size)."),
      .flag(
        \.sheet.quickSmartFocus, "--quick",
        help: """
          Find smart-focus points on the tile-size decode: faster, but a
          point may differ from run's by up to 1/32 of the photo. By
          default such photos are decoded as run decodes them, so the
          point is run's exactly.
          """),
      .group(\.planning, PlanningOptions.arguments),
    ]
  }

  func run() -> Int32 {
    let started = Date()
    guard let file = JobLoading.load(jobFile) else { return ExitCode.failure }
    let plan = planning.plan(file)
    if let problem = ProofSheet.directoryProblem(sheet.directory, outputRoot: plan.outputRoot) {
      Console.err("Error: \(problem)")
      return ExitCode.usage
    }
    do {
      let result = try ProofSheet.write(plan: plan, options: sheet) { done, total in
        if Console.stderrIsTerminal { Console.err("page \(done) of \(total)") }
      }
      let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
      let html = relative(result.html)
      Console.out(
        "preview: \(result.tiles.count) photo\(result.tiles.count == 1 ? "" : "s"), \(result.pages.count) page\(result.pages.count == 1 ? "" : "s") → \(html) (\(seconds) s)"
      )
      if result.tilesWithWarnings + result.tilesWithErrors > 0 {
        Console.out(
          "  \(result.tilesWithWarnings) with warnings, \(result.tilesWithErrors) with errors (marked on the sheet)")
      }
      return ExitCode.success
    } catch let error as TileSelection.UnknownJob {
      Console.err("Error: \(error.description)")
      return ExitCode.usage
    } catch {
      Console.err("Error: \(error)")
      return ExitCode.failure
    }
  }

  private func relative(_ path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
  }
}
