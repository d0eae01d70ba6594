internal import CVipsShim
import CropSupport
import Foundation

/// A line of text rendered by libvips (Pango) as an ink mask, placed on a shared baseline.
package struct TextMask: Sendable {
  /// One band, 0 = no ink, 255 = full ink.
  package var mask: Raster
  /// The ink's top below the top of the line box: draw the mask at `lineTop + inkTop`.
  package var inkTop: Int

  /// Renders `text` (plain text, escaped here; `bold` wraps it in `<b>`) in `font`
  /// ("sans 12": 12 px at 72 dpi), wrapped at `width` pixels when given. Returns nil for
  /// empty text or when no font can render it.
  package static func render(_ text: String, font: String = "sans 12", bold: Bool = false, width: Int? = nil)
    -> TextMask?
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    Vips.start()
    let markup = bold ? "<b>\(MarkupText.escaped(text))</b>" : MarkupText.escaped(text)
    var out: OpaquePointer?
    guard cj_text(markup, font, Int32(width ?? 0), 72, &out) == 0, let out else {
      _ = Vips.takeError()
      return nil
    }
    let image = VipsImage(out, path: nil)
    let top = Int(cj_yoffset(out))
    guard let raster = try? image.raster(), raster.bands == 1 else { return nil }
    return TextMask(mask: raster, inkTop: max(0, top))
  }
}
