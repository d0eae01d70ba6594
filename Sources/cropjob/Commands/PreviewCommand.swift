import CropKit
import Foundation

struct PreviewCommand: Command {
  static let name = "preview"
  static let abstract = "Draw a proof sheet of a job file: each photo with its guide beside the output it becomes."
  static let usage = "cropjob preview <job.yaml> [--out <dir>] [--job <name>] [--limit <n>] [--tile <px>]"
  static let details = """
    ARGUMENTS:
      <job.yaml>              The job file.

    OPTIONS:
      --out <dir>             Folder for the sheet (default: ./preview). It may not be the
                              job's output root or inside it; nothing is written there.
      --job <name>            Only this job.
      --limit <n>             At most n photos per job, evenly spaced over its sources.
      --tile <px>             Side of each square panel (default 256, 64...1024).
      --columns <n>           Tiles across a page (default 4).
      --rows <n>              Tile rows on a page (default 3).
      --palette               Write pages as 8-bit palette PNGs (about a third of the size).
      --quick                 Find smart-focus points on the tile-size decode: faster, but a
                              point may differ from run's by up to 1/32 of the photo. By
                              default such photos are decoded as run decodes them, so the
                              point is run's exactly.
      --output <dir>          Output root instead of the job file's `output` (as for run).
    \(JobLoading.limitHelp)
      -h, --help              Show help.

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

    EXIT CODES:
      0 sheet written, 1 invalid job file or nothing could be written, 64 usage error.
    """

  let args: Arguments

  init(arguments: [String]) throws {
    args = try Arguments(
      arguments, flags: ["--palette", "--quick"],
      options: Set(["--out", "--job", "--limit", "--tile", "--columns", "--rows", "--output"]).union(
        JobLoading.limitOptions))
    guard args.positionals.count == 1 else {
      throw UsageError(
        message: args.positionals.isEmpty
          ? "missing <job.yaml>" : "expected one job file, got \(args.positionals.count)")
    }
    _ = try args.int("--limit", in: 1...1_000_000)
    _ = try args.int("--tile", in: 64...1024)
    _ = try args.int("--columns", in: 1...64)
    _ = try args.int("--rows", in: 1...64)
    if let out = args.option("--out"), out.isEmpty { throw UsageError(message: "--out expects a folder") }
  }

  func run() -> Int32 {
    let started = Date()
    guard let file = JobLoading.load(args.positionals[0]) else { return ExitCode.failure }
    var options = ProofSheetOptions(directory: args.option("--out") ?? "preview")
    options.job = args.option("--job")
    do {
      options.limit = try args.int("--limit", in: 1...1_000_000)
      options.tileSize = try args.int("--tile", in: 64...1024) ?? options.tileSize
      options.columns = try args.int("--columns", in: 1...64) ?? options.columns
      options.rows = try args.int("--rows", in: 1...64) ?? options.rows
      options.palette = args.flag("--palette")
      options.quickSmartFocus = args.flag("--quick")
      let plan = Planner(limits: try JobLoading.limits(file, args), outputRoot: args.option("--output")).plan(file)
      if let problem = ProofSheet.directoryProblem(options.directory, outputRoot: plan.outputRoot) {
        Console.err("Error: \(problem)")
        return ExitCode.usage
      }
      let result = try ProofSheet.write(plan: plan, options: options) { done, total in
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
    } catch let error as UsageError {
      Console.err("Error: \(error.message)")
      return ExitCode.usage
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
