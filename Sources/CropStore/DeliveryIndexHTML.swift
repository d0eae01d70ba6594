import CropSupport

/// The HTML of a delivery index: one `<picture>` per image, every attribute escaped
/// (`MarkupText`), URLs percent-encoded (`URLText`).
public enum DeliveryIndexHTML {
  /// The line that marks a page as cropjob's (`DeliveryIndex.isCropjobIndex`).
  static let generatorLine = "<meta name=\"generator\" content=\"\(DeliveryIndex.marker)\">"

  /// A whole page: the index's images one below the other.
  public static func page(_ index: DeliveryIndex, title: String) -> [UInt8] {
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      \(generatorLine)
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(MarkupText.escaped(title))</title>
      <style>picture img { display: block; max-width: 100%; height: auto; }</style>
      </head>
      <body>

      """
    for image in index.images {
      html += "<!-- \(MarkupText.escaped(image.source).replacing("--", with: "&#45;&#45;")) -->\n"
      html += image.html + "\n"
    }
    html += "</body>\n</html>\n"
    return Array(html.utf8)
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
