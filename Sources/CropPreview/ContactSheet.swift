import CropGeometry
import CropImaging
import Foundation

/// Lays tiles out on pages (columns × rows), each with its caption: source name and job, the
/// outputs' sizes, and the plan's warnings in colour. A header names the job file and the
/// page and explains the marks.
enum ContactSheet {
  static func cellSize(tileSize: Int) -> (width: Int, height: Int) {
    (
      2 * tileSize + PreviewStyle.panelGap + 2 * PreviewStyle.cellPadding,
      tileSize + PreviewStyle.captionHeight + 2 * PreviewStyle.cellPadding
    )
  }

  /// The top-left corner of tile `index` (0-based on its page).
  static func cellOrigin(_ index: Int, columns: Int, tileSize: Int, header: Int = PreviewStyle.headerHeight) -> (
    x: Int, y: Int
  ) {
    let cell = cellSize(tileSize: tileSize)
    let spacing = PreviewStyle.cellPadding
    return (
      PreviewStyle.pageMargin + (index % columns) * (cell.width + spacing),
      header + (index / columns) * (cell.height + spacing)
    )
  }

  /// One page: `tiles` in reading order.
  static func page(
    _ tiles: [RenderedTile], columns: Int, tileSize: Int, title: String, pageNumber: Int, pageCount: Int
  ) -> Raster {
    let cell = cellSize(tileSize: tileSize)
    let spacing = PreviewStyle.cellPadding
    let usedColumns = max(1, min(columns, tiles.count))
    let rows = max(1, (tiles.count + columns - 1) / columns)
    let width = max(
      2 * PreviewStyle.pageMargin + usedColumns * cell.width + (usedColumns - 1) * spacing,
      Self.legend.width + 2 * PreviewStyle.pageMargin)
    let titleText = "cropjob preview  ·  \(title)  ·  page \(pageNumber) of \(pageCount)"
    let titleWidth = TextMask.render(titleText, font: "sans 14", bold: true)?.mask.width ?? 0
    // The legend goes beside the title when there is room, else on a second line.
    let legend = Self.legend
    let oneLine = PreviewStyle.pageMargin + titleWidth + 30 + legend.width + PreviewStyle.pageMargin <= width
    let header = oneLine ? PreviewStyle.headerHeight : PreviewStyle.headerHeight + 24
    let height = header + rows * cell.height + (rows - 1) * spacing + PreviewStyle.pageMargin
    var page = Raster(width: width, height: height, colour: PreviewStyle.pageBackground)
    drawLine(
      titleText, on: &page, x: PreviewStyle.pageMargin, top: 14, width: width - 2 * PreviewStyle.pageMargin,
      colour: PreviewStyle.text, bold: true, font: "sans 14")
    page.draw(
      legend, x: oneLine ? width - PreviewStyle.pageMargin - legend.width : PreviewStyle.pageMargin - 4,
      y: oneLine ? 12 : 36)
    for (i, tile) in tiles.enumerated() {
      let origin = cellOrigin(i, columns: columns, tileSize: tileSize, header: header)
      drawCell(tile, on: &page, x: origin.x, y: origin.y, tileSize: tileSize)
    }
    return page
  }

  static func drawCell(_ tile: RenderedTile, on page: inout Raster, x: Int, y: Int, tileSize: Int) {
    let cell = cellSize(tileSize: tileSize)
    let accent: [UInt8]? = tile.hasErrors ? PreviewStyle.error : tile.issues.isEmpty ? nil : PreviewStyle.warning
    if let accent {
      page.fill(x: x - 2, y: y - 2, width: cell.width + 4, height: cell.height + 4, colour: accent)
    }
    page.fill(x: x, y: y, width: cell.width, height: cell.height, colour: PreviewStyle.cellBackground)
    let pad = PreviewStyle.cellPadding
    page.draw(tile.body, x: x + pad, y: y + pad)
    let textWidth = cell.width - 2 * pad
    var lineTop = y + pad + tileSize + 6
    let name = (tile.tile.sourcePath as NSString).lastPathComponent
    // Badges at the right end of the first line: how many errors and warnings.
    let errorIssues = tile.issues.filter { $0.severity == .error }.count
    let errors = errorIssues + (tile.failure != nil && errorIssues == 0 ? 1 : 0)
    let warnings = tile.issues.count - errorIssues
    var badges: [(String, [UInt8])] = []
    if errors > 0 { badges.append(("✖ \(errors)", PreviewStyle.error)) }
    if warnings > 0 { badges.append(("⚠ \(warnings)", PreviewStyle.warning)) }
    var right = x + cell.width - pad
    for (text, colour) in badges.reversed() {
      let width = GuideOverlay.badgeWidth(text)
      right -= width
      GuideOverlay.badge(on: &page, x: right, y: lineTop - 2, text: text, colour: colour)
      right -= 4
    }
    let nameSpace = right - (x + pad) - 4
    let nameWidth = drawLine(
      name, on: &page, x: x + pad, top: lineTop, width: nameSpace, colour: PreviewStyle.text, bold: true)
    drawLine(
      "job \(tile.tile.job)" + (tile.placement.isEmpty ? "" : "  ·  \(tile.placement)"), on: &page,
      x: x + pad + nameWidth + 10, top: lineTop, width: nameSpace - nameWidth - 10,
      colour: PreviewStyle.secondaryText)
    lineTop += PreviewStyle.lineHeight
    let outputs = tile.outputSummary.isEmpty ? "no outputs" : "→ " + tile.outputSummary.joined(separator: ",  ")
    drawLine(outputs, on: &page, x: x + pad, top: lineTop, width: textWidth, colour: PreviewStyle.secondaryText)
    lineTop += PreviewStyle.lineHeight
    var lines: [(String, [UInt8])] = []
    if let failure = tile.failure, !tile.issues.contains(where: { $0.message == failure }) {
      lines.append(("✖ " + failure, PreviewStyle.error))
    }
    for issue in tile.issues {
      lines.append(
        (
          issue.severity == .error ? "✖ " + issue.text : "⚠ " + issue.text,
          issue.severity == .error ? PreviewStyle.error : PreviewStyle.warning
        ))
    }
    let limit = PreviewStyle.captionWarningLines
    if lines.count > limit {
      let more = lines.count - (limit - 1)
      lines = Array(lines.prefix(limit - 1)) + [("+\(more) more (see index.html)", PreviewStyle.warning)]
    }
    for (text, colour) in lines {
      drawLine(text, on: &page, x: x + pad, top: lineTop, width: textWidth, colour: colour)
      lineTop += PreviewStyle.lineHeight
    }
  }

  /// One line of text, shortened with "…" to fit `width`; returns the width drawn.
  @discardableResult
  static func drawLine(
    _ text: String, on page: inout Raster, x: Int, top: Int, width: Int, colour: [UInt8], bold: Bool = false,
    font: String = PreviewStyle.font
  ) -> Int {
    guard width > 8, var mask = TextMask.render(text, font: font, bold: bold) else { return 0 }
    var characters = Array(text)
    var attempts = 0
    while mask.mask.width > width && characters.count > 1 && attempts < 6 {
      let keep = max(1, Int(Double(characters.count) * Double(width) / Double(mask.mask.width)) - 2)
      characters = Array(characters.prefix(keep))
      guard let shorter = TextMask.render(String(characters) + "…", font: font, bold: bold) else { break }
      mask = shorter
      attempts += 1
    }
    page.draw(mask: mask.mask, x: x, y: top + mask.inkTop, colour: colour, clipWidth: width)
    return min(width, mask.mask.width)
  }

  /// The legend of the marks, drawn with the same strokes as the tiles, on the page colour.
  static let legend: Raster = {
    var strip = Raster(width: 1400, height: 24, colour: PreviewStyle.pageBackground)
    let width = drawLegend(on: &strip, x: 4, top: 2)
    return strip.cropped(x: 0, y: 0, width: min(strip.width, width + 8), height: strip.height)
  }()

  /// Draws the legend from (x, top); returns where it ends.
  static func drawLegend(on page: inout Raster, x start: Int, top: Int) -> Int {
    var x = start
    let mid = Double(top + 8)
    // Guide sample: a dashed segment with a halo.
    let sample = GuideOutline.polygon([
      Point(x: Double(x), y: mid), Point(x: Double(x) + 60, y: mid), Point(x: Double(x) + 60, y: mid + 0.001),
      Point(x: Double(x), y: mid + 0.001),
    ])
    let box = Rect(x: Double(x) - 4, y: mid - 6, width: 68, height: 12)
    page.paint(in: box, colour: PreviewStyle.halo, opacity: PreviewStyle.haloOpacity) { sample.stroke($0).halo }
    page.paint(in: box, colour: PreviewStyle.guide) { sample.stroke($0).line }
    x += 66
    x += drawLine("guide: what is kept", on: &page, x: x, top: top, width: 300, colour: PreviewStyle.secondaryText) + 16
    page.fill(x: x, y: top + 2, width: 14, height: 12, colour: [70, 70, 74])
    x += 20
    x += drawLine("dimmed: cut away", on: &page, x: x, top: top, width: 300, colour: PreviewStyle.secondaryText) + 16
    for (kind, label) in [(PointMarker.Kind.focus, "focus"), (.smart, "smart-crop point")] {
      let marker = PointMarker(centre: Point(x: Double(x) + 14, y: mid), kind: kind)
      page.paint(in: marker.box, colour: PreviewStyle.halo, opacity: PreviewStyle.haloOpacity) {
        marker.stroke($0).halo
      }
      page.paint(in: marker.box, colour: marker.colour) { marker.stroke($0).line }
      x += 32
      x += drawLine(label, on: &page, x: x, top: top, width: 300, colour: PreviewStyle.secondaryText) + 16
    }
    x += drawLine(
      "›  the job's first output, as written", on: &page, x: x, top: top, width: 400, colour: PreviewStyle.secondaryText
    )
    return x
  }
}
