import CropSupport
import Foundation

/// The HTML of a delivery index: one `<picture>` per image, every attribute escaped
/// (`MarkupText`), URLs percent-encoded (`URLText`).
package enum DeliveryIndexHTML {
  /// The line that marks a page as cropjob's (`DeliveryIndex.isCropjobIndex`).
  static let generatorLine = "<meta name=\"generator\" content=\"\(DeliveryIndex.marker)\">"

  /// The title of an index page: the job, and for a per-source index the source's file
  /// name. Never a folder: the sources' paths (absolute paths on the server included) stay
  /// out of the page.
  package static func title(job: String, perSource: Bool, sources: [String]) -> String {
    guard perSource, let first = sources.sorted().first else { return job }
    return "\(job): \(fileName(first))"
  }

  /// The last component of `path`.
  static func fileName(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
  }

  /// A whole page: the index's images one below the other.
  package static func page(_ index: DeliveryIndex, title: String) -> [UInt8] {
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      \(generatorLine)
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(MarkupText.escaped(title))</title>
      <style>\(css(sizes: index.images.first?.sizes ?? ""))</style>
      </head>
      <body>

      """
    for image in index.images {
      html += "<!-- \(MarkupText.escaped(fileName(image.source)).replacing("--", with: "&#45;&#45;")) -->\n"
      html += image.html + "\n"
    }
    html += "</body>\n</html>\n"
    return Array(html.utf8)
  }

  /// The page's style: each image as wide as its `sizes` says (the first entry whose media
  /// condition holds, else the last entry's length), never wider than the page, its height
  /// following its aspect. Without this the `<img>` took its `width` attribute, the largest
  /// file's width: at 1,400 px `sizes` "(min-width: 800px) 800px, 100vw" chose the 800w file
  /// and showed it 1,200 CSS px wide. CSS's later rules win and `sizes` takes the first
  /// match, so the media rules are written last entry first.
  static func css(sizes: String) -> String {
    var rules = ["picture img { display: block; max-width: 100%; height: auto; }"]
    let entries = sizesEntries(sizes)
    guard let fallback = entries.last, fallback.condition.isEmpty else { return rules[0] }
    rules.append("picture img { width: \(fallback.length); }")
    for entry in entries.dropLast().reversed() where !entry.condition.isEmpty {
      rules.append("@media \(entry.condition) { picture img { width: \(entry.length); } }")
    }
    return rules.joined(separator: "\n")
  }

  /// `sizes` as (media condition, length) pairs, split at the commas outside parentheses;
  /// the length is the entry's last token (or its trailing function, `calc(…)`). Text a
  /// style element must not hold (`<`, `{`, `}`, `;`) gives no entries.
  static func sizesEntries(_ sizes: String) -> [(condition: String, length: String)] {
    guard !sizes.contains(where: { "<>{};\\".contains($0) }) else { return [] }
    var entries: [String] = []
    var depth = 0
    var current = ""
    for character in sizes {
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if character == "," && depth == 0 {
        entries.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    entries.append(current)
    return entries.compactMap { raw in
      let entry = raw.trimmingCharacters(in: .whitespaces)
      guard !entry.isEmpty else { return nil }
      var split = entry.lastIndex(of: " ")
      if entry.hasSuffix(")") {
        // A trailing function: from the start of its name.
        var level = 0
        var index = entry.endIndex
        while index > entry.startIndex {
          index = entry.index(before: index)
          if entry[index] == ")" { level += 1 }
          if entry[index] == "(" {
            level -= 1
            if level == 0 { break }
          }
        }
        var start = index
        while start > entry.startIndex,
          entry[entry.index(before: start)].isLetter || entry[entry.index(before: start)] == "-"
        {
          start = entry.index(before: start)
        }
        split = start == entry.startIndex ? nil : entry.index(before: start)
        if start != entry.startIndex && entry[entry.index(before: start)] != " " { return nil }
      }
      guard let split else { return ("", entry) }
      return (
        String(entry[..<split]).trimmingCharacters(in: .whitespaces),
        String(entry[split...]).trimmingCharacters(in: .whitespaces)
      )
    }
  }

  /// One image's `<picture>` element.
  static func picture(_ image: DeliveryIndex.Image) -> String {
    func attribute(_ name: String, _ value: String) -> String { " \(name)=\"\(MarkupText.escaped(value))\"" }
    var lines = ["<picture>"]
    for set in image.formats.dropLast() {
      lines.append(
        "  <source" + attribute("type", set.type) + attribute("srcset", set.srcset) + attribute("sizes", image.sizes)
          + ">")
    }
    let fallback = image.formats.last!
    var img =
      "  <img" + attribute("src", fallback.candidates.last!.url) + attribute("srcset", fallback.srcset)
      + attribute("sizes", image.sizes) + attribute("width", String(image.width))
      + attribute("height", String(image.height)) + attribute("alt", "") + attribute("loading", image.loading)
      + attribute("decoding", image.decoding)
    if let style = background(image.placeholder) { img += attribute("style", style) }
    lines.append(img + ">")
    lines.append("</picture>")
    return lines.joined(separator: "\n")
  }

  /// The placeholder as a CSS background: the dominant colour under the LQIP image, scaled to
  /// cover the box (nil without a placeholder).
  package static func background(_ placeholder: DeliveryIndex.Placeholder?) -> String? {
    guard let placeholder, placeholder.dominant != nil || placeholder.lqip != nil else { return nil }
    var parts: [String] = []
    if let colour = placeholder.dominant { parts.append(colour) }
    if let lqip = placeholder.lqip { parts.append("url(\"\(lqip)\") center / cover no-repeat") }
    return "background: " + parts.joined(separator: " ")
  }
}
