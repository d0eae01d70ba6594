import CropGeometry
import CropImaging
import CropPlan
import CropStore
import CropSupport
import Foundation

/// Options of a proof sheet (`cropjob preview`).
package struct ProofSheetOptions: Sendable {
  /// Folder the sheet is written to; never the output root or inside it.
  package var directory: String
  /// Only this job.
  package var job: String?
  /// At most this many photos per job, evenly spaced.
  package var limit: Int?
  /// Side of each square panel, in pixels.
  package var tileSize: Int = 256
  package var columns: Int = 4
  package var rows: Int = 3
  /// Pages as 8-bit palette PNGs (about a third of the size).
  package var palette = false
  /// Locate smart-focus points on the tile-size decode instead of a decode made as the run
  /// makes it: faster, but libvips' attention works on a 32 px thumbnail, so the point may
  /// differ from the run's by up to about 1/32 of the photo.
  package var quickSmartFocus = false
  package var strictness: DecodeStrictness = .warning

  package init(directory: String) { self.directory = directory }
}

/// What a proof sheet wrote.
package struct ProofSheetResult: Sendable {
  /// Absolute paths.
  package var html: String
  package var pages: [String]
  package var tileImages: [String]
  /// The tiles, in sheet order.
  package var tiles: [ProofTile]
  /// Tiles with warnings, and tiles that could not be drawn or have errors.
  package var tilesWithWarnings: Int
  package var tilesWithErrors: Int
}

/// The visual proof of a plan: for each source of each job, the photo with the guide where
/// the plan places it (outside dimmed, focus and smart-crop points marked) beside the output
/// rendered for real from the same geometry, with the plan's warnings; as PNG contact-sheet
/// pages and an HTML page. Sources are decoded at tile size (shrink-on-load), so it costs a
/// fraction of a run. It reads the job's sources only: nothing is written into, or read
/// from, the output root.
package enum ProofSheet {
  package struct Refusal: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
  }

  /// zlib level of the sheet's PNGs: photos barely compress further at higher levels (level 6
  /// saves 4 % on a page of photos and costs half as much time again).
  static let pngCompression = 1

  /// Why `directory` cannot hold a proof sheet of a plan writing to `outputRoot`, or nil.
  package static func directoryProblem(_ directory: String, outputRoot: String) -> String? {
    let folder = resolved(directory)
    let root = resolved(outputRoot)
    if folder == root || folder.hasPrefix(root + "/") {
      return "the preview folder \(folder) is inside the job's output root \(root); choose another with --out"
    }
    return nil
  }

  /// Draws tiles: each source decoded once (at the size its tiles need), sources in parallel.
  /// A source whose tiles use smart focus is decoded as the run decodes it (the plan's
  /// shrink-on-load), so the point found is the run's exactly, unless `quickSmartFocus`.
  package static func render(
    _ tiles: [ProofTile], plan: Plan, tileSize: Int, strictness: DecodeStrictness = .warning,
    quickSmartFocus: Bool = false
  ) -> [RenderedTile] {
    Vips.start()
    var grouping: [Int: [Int]] = [:]
    for (i, tile) in tiles.enumerated() { grouping[tile.sourceIndex, default: []].append(i) }
    let groups = grouping
    let order = groups.keys.sorted()
    let rendered = ConcurrentMap.map(order) { sourceIndex -> [(Int, RenderedTile)] in
      let members = groups[sourceIndex]!
      let needed = members.filter { !tiles[$0].outputs.isEmpty }
      var decoded: Result<DecodedSource, ImagingError> = .failure(
        ImagingError(operation: "load", path: plan.sources[sourceIndex].path, message: "not decoded"))
      if !needed.isEmpty {
        let scale = needed.map { TileRenderer.requiredScale(tiles[$0], plan: plan, tileSize: tileSize) }.max() ?? 1
        let smart = needed.contains {
          tiles[$0].outputs.contains { plan.outputs[$0].smartFocus != nil && plan.outputs[$0].place.crop == nil }
        }
        let asRun = smart && !quickSmartFocus
        decoded = decode(plan.sources[sourceIndex], plan: plan, scale: scale, asRun: asRun, strictness: strictness)
      }
      return members.map { ($0, TileRenderer.render(tiles[$0], plan: plan, decoded: decoded, tileSize: tileSize)) }
    }
    var result = [RenderedTile?](repeating: nil, count: tiles.count)
    for (i, tile) in rendered.joined() { result[i] = tile }
    return result.map { $0! }
  }

  /// Writes the sheet: `page-NNN.png` pages, `tiles/NNNN-job-name.png` images and `index.html`
  /// in `options.directory`. `progress(done, total)` is called after each page.
  package static func write(
    plan: Plan, options: ProofSheetOptions, progress: ((Int, Int) -> Void)? = nil
  ) throws -> ProofSheetResult {
    if let problem = directoryProblem(options.directory, outputRoot: plan.outputRoot) {
      throw Refusal(message: problem)
    }
    let tiles = try TileSelection.tiles(of: plan, job: options.job, limit: options.limit)
    let directory =
      (SourceExpansion.absolute(options.directory, base: FileManager.default.currentDirectoryPath) as NSString)
      .standardizingPath
    let tilesFolder = PathText.appending(directory, "tiles")
    let perPage = max(1, options.columns * options.rows)
    let pageCount = max(1, (tiles.count + perPage - 1) / perPage)
    let title = (plan.jobFile.path as NSString).lastPathComponent + (options.job.map { " (job \($0))" } ?? "")

    var written: Set<String> = []
    func save(_ bytes: [UInt8], _ path: String) throws {
      if let problem = directoryProblem(path, outputRoot: plan.outputRoot) { throw Refusal(message: problem) }
      try AtomicWriter.write(bytes, to: path)
      written.insert(path)
    }

    var pages: [String] = []
    var images: [String] = []
    var entries: [ProofSheetHTML.Entry] = []
    var warnings = 0
    var errors = 0
    for page in 0..<pageCount {
      let slice = Array(tiles[min(tiles.count, page * perPage)..<min(tiles.count, (page + 1) * perPage)])
      let rendered = render(
        slice, plan: plan, tileSize: options.tileSize, strictness: options.strictness,
        quickSmartFocus: options.quickSmartFocus)
      let names = slice.indices.map { tileName(index: page * perPage + $0 + 1, tile: slice[$0]) }
      let encoded = ConcurrentMap.map(Array(rendered.indices)) { i in
        Result { try rendered[i].body.pngBytes(compression: pngCompression) }
      }
      for (i, tile) in rendered.enumerated() {
        let path = PathText.appending(tilesFolder, names[i])
        try save(try encoded[i].get(), path)
        images.append(path)
        entries.append(
          ProofSheetHTML.Entry(
            tile: strippedOfPixels(tile), image: "tiles/" + names[i],
            outputPaths: tile.tile.outputs.map { plan.outputs[$0].path }))
        if tile.hasErrors { errors += 1 } else if !tile.issues.isEmpty { warnings += 1 }
      }
      let sheet = ContactSheet.page(
        rendered, columns: options.columns, tileSize: options.tileSize, title: title, pageNumber: page + 1,
        pageCount: pageCount)
      let path = PathText.appending(directory, String(format: "page-%03d.png", page + 1))
      try save(try sheet.pngBytes(palette: options.palette, compression: pngCompression), path)
      pages.append(path)
      progress?(page + 1, pageCount)
    }
    let html = ProofSheetHTML.page(
      title: title, entries: entries, pages: pages.map { ($0 as NSString).lastPathComponent },
      tileSize: options.tileSize,
      planIssues: plan.issues.filter { options.job == nil || $0.job == nil || $0.job == options.job })
    let htmlPath = PathText.appending(directory, "index.html")
    try save(Array(html.utf8), htmlPath)
    removeStale(directory: directory, tilesFolder: tilesFolder, keep: written)
    return ProofSheetResult(
      html: htmlPath, pages: pages, tileImages: images, tiles: tiles, tilesWithWarnings: warnings,
      tilesWithErrors: errors)
  }

  /// Decodes a source at the largest shrink-on-load that keeps `scale` panel pixels per
  /// source pixel sharp, or (`asRun`) at the plan's own shrink-on-load, as `run` decodes it.
  static func decode(
    _ source: PlannedSource, plan: Plan, scale: Double, asRun: Bool, strictness: DecodeStrictness
  ) -> Result<DecodedSource, ImagingError> {
    if let error = source.error { return .failure(ImagingError(operation: "load", path: source.path, message: error)) }
    guard let header = source.header else {
      return .failure(ImagingError(operation: "load", path: source.path, message: "no header"))
    }
    if source.producedBy != nil, !FileManager.default.fileExists(atPath: source.absolutePath) {
      return ProducedSource.render(source, plan: plan, strictness: strictness)
    }
    let shrink = asRun ? source.loadShrink : header.loadShrink(maxOutputScale: scale)
    return Result { () throws(ImagingError) -> DecodedSource in
      try DecodedSource.decode(path: source.absolutePath, header: header, shrink: shrink, strictness: strictness)
    }
  }

  /// "0001-avatar-kite.png": sheet order, then job and source, safe characters only.
  static func tileName(index: Int, tile: ProofTile) -> String {
    let stem = ((tile.sourcePath as NSString).lastPathComponent as NSString).deletingPathExtension
    let safe = { (s: String) in
      String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" }.prefix(60))
    }
    return String(format: "%04d", index) + "-\(safe(tile.job))-\(safe(stem)).png"
  }

  /// The HTML needs the captions only; dropping the pixels keeps memory flat over many pages.
  private static func strippedOfPixels(_ tile: RenderedTile) -> RenderedTile {
    var copy = tile
    copy.body = Raster(width: tile.body.width, height: tile.body.height, bands: 0, pixels: [])
    return copy
  }

  /// Pages and tile images of an earlier, longer sheet in the same folder (only names this
  /// command writes).
  private static func removeStale(directory: String, tilesFolder: String, keep: Set<String>) {
    let fm = FileManager.default
    for name in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] where isPageName(name) {
      let path = PathText.appending(directory, name)
      if !keep.contains(path) { try? fm.removeItem(atPath: path) }
    }
    for name in (try? fm.contentsOfDirectory(atPath: tilesFolder)) ?? [] where isTileName(name) {
      let path = PathText.appending(tilesFolder, name)
      if !keep.contains(path) { try? fm.removeItem(atPath: path) }
    }
  }

  static func isPageName(_ name: String) -> Bool {
    name.hasPrefix("page-") && name.hasSuffix(".png") && name.dropFirst(5).dropLast(4).allSatisfy(\.isNumber)
  }

  static func isTileName(_ name: String) -> Bool {
    name.hasSuffix(".png") && name.count > 5 && name.prefix(4).allSatisfy(\.isNumber)
      && name.dropFirst(4).hasPrefix("-")
  }

  /// Absolute, standardised, with the symlinks of its existing part resolved.
  static func resolved(_ path: String) -> String {
    var existing = (SourceExpansion.absolute(path, base: FileManager.default.currentDirectoryPath) as NSString)
      .standardizingPath
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: existing) && existing != "/" {
      rest.insert((existing as NSString).lastPathComponent, at: 0)
      existing = (existing as NSString).deletingLastPathComponent
    }
    let real = OutputPaths.realPath(existing) ?? existing
    return rest.reduce(real) { PathText.appending($0, $1) }
  }
}
