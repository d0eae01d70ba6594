import CropPlan
import CropSupport
import Foundation

/// The proof sheet as one HTML page: every tile's image (relative links to PNGs beside it),
/// with the job, source, outputs and every warning as text. No scripts, no network.
enum ProofSheetHTML {
  struct Entry {
    var tile: RenderedTile
    /// Image path relative to the HTML file.
    var image: String
    var outputPaths: [String]
  }

  static func page(title: String, entries: [Entry], pages: [String], tileSize: Int, planIssues: [PlanIssue]) -> String {
    var html = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>cropjob preview: \(escape(title))</title>
      <style>
      body { background: #202124; color: #e8eaed; font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
      h1 { font-size: 18px; margin: 0 0 4px; }
      p.legend, p.pages { color: #aab0b6; margin: 4px 0; }
      .guide { display: inline-block; width: 28px; border-top: 2px dashed #fff; outline: 1px solid #000; vertical-align: middle; }
      .focus { color: #ffd600; } .smart { color: #00e5ff; } .warn { color: #fbbc04; } .err { color: #f26e64; }
      .grid { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 12px; }
      figure { margin: 0; padding: 10px; background: #2c2d31; border: 2px solid #2c2d31; width: \(2 * tileSize + PreviewStyle.panelGap)px; }
      figure.warning { border-color: #fbbc04; } figure.error { border-color: #f26e64; }
      figure img { display: block; width: 100%; height: auto; }
      figcaption { margin-top: 6px; overflow-wrap: anywhere; }
      figcaption .job, figcaption .out { color: #aab0b6; }
      figcaption ul { margin: 4px 0 0; padding-left: 18px; }
      </style>
      </head>
      <body>
      <h1>cropjob preview: \(escape(title))</h1>
      <p class="legend"><span class="guide"></span> guide: the part of the photo that becomes the output &middot; dimmed: cut away &middot; <span class="focus">&#9678; focus</span> &middot; <span class="smart">&#9671; smart-crop point</span> &middot; right of each photo: the job's first output as it will be written (transparency shown as a checkerboard)</p>

      """
    if !pages.isEmpty {
      let links = pages.enumerated().map { "<a href=\"\(escape($0.element))\">page \($0.offset + 1)</a>" }
      html += "<p class=\"pages\">Contact sheet pages (PNG): \(links.joined(separator: " &middot; "))</p>\n"
    }
    let general = planIssues.filter { $0.source == nil }
    if !general.isEmpty {
      html += "<ul>\n"
      for issue in general {
        html += "<li class=\"\(issue.severity == .error ? "err" : "warn")\">\(escape(issue.description))</li>\n"
      }
      html += "</ul>\n"
    }
    html += "<div class=\"grid\">\n"
    for entry in entries {
      let tile = entry.tile
      let kind = tile.hasErrors ? " class=\"error\"" : tile.issues.isEmpty ? "" : " class=\"warning\""
      let name = (tile.tile.sourcePath as NSString).lastPathComponent
      html += "<figure\(kind)>\n"
      html +=
        "<img src=\"\(escape(entry.image))\" width=\"\(tile.body.width)\" height=\"\(tile.body.height)\" alt=\"\(escape("\(tile.tile.job): \(name)"))\">\n"
      let placement = tile.placement.isEmpty ? "" : " &middot; \(escape(tile.placement))"
      html +=
        "<figcaption><b>\(escape(name))</b> <span class=\"job\">job \(escape(tile.tile.job))\(placement)</span><br>\n"
      html += "<span class=\"src\">\(escape(tile.tile.sourcePath))</span><br>\n"
      if !entry.outputPaths.isEmpty {
        html += "<span class=\"out\">&rarr; \(escape(tile.outputSummary.joined(separator: ", ")))</span><br>\n"
        html += "<span class=\"out\">\(entry.outputPaths.map(escape).joined(separator: "<br>"))</span>\n"
      }
      var lines: [String] = []
      if let failure = tile.failure, !tile.issues.contains(where: { $0.message == failure }) {
        lines.append("<li class=\"err\">&#10006; \(escape(failure))</li>")
      }
      for issue in tile.issues {
        let mark = issue.severity == .error ? "&#10006;" : "&#9888;"
        lines.append("<li class=\"\(issue.severity == .error ? "err" : "warn")\">\(mark) \(escape(issue.text))</li>")
      }
      if !lines.isEmpty { html += "<ul>\n\(lines.joined(separator: "\n"))\n</ul>\n" }
      html += "</figcaption>\n</figure>\n"
    }
    html += "</div>\n</body>\n</html>\n"
    return html
  }

  static func escape(_ text: String) -> String { MarkupText.escaped(text) }
}
