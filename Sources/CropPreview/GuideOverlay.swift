import CropGeometry
import CropImaging

/// What the crop screen draws over the photo: the outside of the guide dimmed, the guide as
/// white dashes on a dark halo (solid corner brackets), the focus and smart-crop points, and
/// a badge when the plan has something to say.
enum GuideOverlay {
  /// Draws over the source panel `panel` (body pixels). `photo`: the photo's footprint in body
  /// pixels; inside the guide but off the photo (overflow: fill) is hatched.
  static func draw(
    on body: inout Raster, panel: Rect, outline: GuideOutline, photo: Rect, markers: [PointMarker],
    boxes: [BoxMarker] = []
  ) {
    body.scaleBrightness(in: panel) { p in
      PreviewStyle.dim + (1 - PreviewStyle.dim) * Coverage.fill(outline.signedDistance(p))
    }
    let box = outline.boundingBox
    let grown = Rect(x: box.minX - 6, y: box.minY - 6, width: box.width + 12, height: box.height + 12)
    let area = intersection(grown, panel)
    if !photo.contains(box.corners[0], tolerance: 0) || !photo.contains(box.corners[2], tolerance: 0) {
      body.paint(in: area, colour: PreviewStyle.warning, opacity: 0.45) { p in
        guard !photo.contains(p) else { return 0 }
        let stripe = Int(((p.x + p.y) / 5).rounded(.down)) % 2 == 0
        return stripe ? Coverage.fill(outline.signedDistance(p)) : 0
      }
    }
    body.paint(in: area, colour: PreviewStyle.halo, opacity: PreviewStyle.haloOpacity) { outline.stroke($0).halo }
    body.paint(in: area, colour: PreviewStyle.guide) { outline.stroke($0).line }
    for marker in boxes {
      let area = intersection(marker.area, panel)
      body.paint(in: area, colour: PreviewStyle.halo, opacity: PreviewStyle.haloOpacity) { marker.stroke($0).halo }
      body.paint(in: area, colour: marker.colour) { marker.stroke($0).line }
    }
    for marker in markers {
      let box = intersection(marker.box, panel)
      body.paint(in: box, colour: PreviewStyle.halo, opacity: PreviewStyle.haloOpacity) { marker.stroke($0).halo }
      body.paint(in: box, colour: marker.colour) { marker.stroke($0).line }
    }
  }

  static func badgeWidth(_ text: String) -> Int {
    (TextMask.render(text, font: PreviewStyle.smallFont, bold: true)?.mask.width ?? 8) + 12
  }

  /// A rounded badge with `text` at (x, y) in `colour`; returns its width.
  @discardableResult
  static func badge(on body: inout Raster, x: Int, y: Int, text: String, colour: [UInt8]) -> Int {
    let label = TextMask.render(text, font: PreviewStyle.smallFont, bold: true)
    let width = (label?.mask.width ?? 8) + 12
    let height = 20
    let rect = Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    body.paint(in: rect, colour: colour) { p in
      // Rounded corners, radius 5.
      let r = 5.0
      let cx = min(max(p.x, rect.minX + r), rect.maxX - r)
      let cy = min(max(p.y, rect.minY + r), rect.maxY - r)
      return Coverage.fill(Coverage.hypot(p.x - cx, p.y - cy) - r)
    }
    if let label {
      body.draw(mask: label.mask, x: x + 6, y: y + (height - label.mask.height) / 2, colour: PreviewStyle.badgeText)
    }
    return width
  }

  static func intersection(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = max(a.minX, b.minX)
    let y0 = max(a.minY, b.minY)
    let x1 = min(a.maxX, b.maxX)
    let y1 = min(a.maxY, b.maxY)
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }
}
