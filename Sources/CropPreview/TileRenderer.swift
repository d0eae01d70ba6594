import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation

/// Draws one tile: the photo fitted to a square panel with the guide where the plan puts it,
/// and beside it the first output rendered for real from the same geometry, at panel size.
enum TileRenderer {
  /// Panel pixels per source pixel needed by a tile, from the plan's geometry: what the
  /// source is decoded at (shrink-on-load), so both panels stay sharp and decoding stays cheap.
  static func requiredScale(_ tile: ProofTile, plan: Plan, tileSize: Int) -> Double {
    guard let first = tile.outputs.first, let header = plan.sources[tile.sourceIndex].header else { return 1 }
    let output = plan.outputs[first]
    let photo = Size(width: Double(header.width), height: Double(header.height))
    let outline = GuideOutline.of(output.geometry, shape: output.guide.shape)
    let view = viewMap(photo: photo, outline: outline, points: [], tileSize: tileSize)
    let q = outputPanelScale(output.geometry.outputSize, tileSize: tileSize)
    return max(view.scale, q * output.geometry.scale)
  }

  static func render(_ tile: ProofTile, plan: Plan, decoded: Result<DecodedSource, ImagingError>, tileSize: Int)
    -> RenderedTile
  {
    let t = tileSize
    let gap = PreviewStyle.panelGap
    var body = Raster(width: 2 * t + gap, height: t, colour: PreviewStyle.cellBackground)
    body.fill(x: 0, y: 0, width: t, height: t, colour: PreviewStyle.panelBackground)
    body.fill(x: t + gap, y: 0, width: t, height: t, colour: PreviewStyle.panelBackground)
    drawArrow(on: &body, x: Double(t) + Double(gap) / 2, y: Double(t) / 2)
    var rendered = RenderedTile(
      tile: tile, body: body, sourceToBody: .identity, outputRect: .zero, geometry: nil, outline: nil, focusPoint: nil,
      smartPoint: nil, issues: tile.issues, outputSummary: summary(tile, plan: plan),
      placement: tile.outputs.first.map { placementSummary(plan.outputs[$0].place) } ?? "", failure: nil)

    let source = plan.sources[tile.sourceIndex]
    guard let first = tile.outputs.first else {
      let reason = tile.issues.first { $0.severity == .error }?.message ?? source.error ?? "no outputs"
      return failed(rendered, reason, tileSize: t)
    }
    let decodedSource: DecodedSource
    switch decoded {
    case .success(let value): decodedSource = value
    case .failure(let error): return failed(rendered, error.description, tileSize: t)
    }
    let output = plan.outputs[first]
    do {
      let run = try output.runGeometry(decoded: decodedSource)
      let geometry = run.geometry
      let header = decodedSource.header
      let photo = Size(width: Double(header.width), height: Double(header.height))
      let outline = GuideOutline.of(geometry, shape: output.guide.shape)
      var focus: Point? = nil
      if output.place.crop == nil {
        switch output.place.focus {
        case .named(let name): focus = Point(x: name.point.x * photo.width, y: name.point.y * photo.height)
        case .point(let p): focus = Point(x: p.x * photo.width, y: p.y * photo.height)
        case .smart, .search: break
        }
      }
      let smartPoint = run.found?.point
      let view = viewMap(photo: photo, outline: outline, points: [focus, smartPoint].compactMap { $0 }, tileSize: t)

      // Source panel: the photo under the view, one resample from the decoded pixels.
      let panelSize = PixelSize(width: t, height: t)
      let panelGeometry = PlacementResult(
        transform: view.map, outputSize: panelSize, scale: view.scale, angle: 0, centre: Point(x: 0, y: 0),
        sourceRegion: Rect(size: photo), coversOutput: false, notes: [], guideRect: Rect(size: Size(panelSize)))
      let alpha = decodedSource.hasAlpha
      let background = alpha ? [0.0, 0, 0, 0] : PreviewStyle.panelBackground.map(Double.init) + [255]
      let panelStyle = RenderStyle(circle: false, alpha: alpha, background: background)
      let photoRect = view.map.boundingBox(of: Rect(size: photo))
      if alpha {
        body.checkerboard(
          x: Int(photoRect.minX.rounded()), y: Int(photoRect.minY.rounded()), width: Int(photoRect.width.rounded()),
          height: Int(photoRect.height.rounded()))
      }
      body.draw(try Renderer.raster(decodedSource, geometry: panelGeometry, style: panelStyle), x: 0, y: 0)
      let bodyOutline = outline.mapped(by: view.map)
      var markers: [PointMarker] = []
      if let focus { markers.append(PointMarker(centre: view.map.apply(focus), kind: .focus)) }
      if let smartPoint { markers.append(PointMarker(centre: view.map.apply(smartPoint), kind: .smart)) }
      let boxes = (run.found?.boxes ?? []).indices.map { i in
        let found = run.found!
        return BoxMarker(
          box: view.map.boundingBox(of: found.boxes[i].rect),
          padded: found.padded.indices.contains(i) ? found.padded[i].map(view.map.boundingBox) : nil,
          kept: found.kept.contains(i))
      }
      GuideOverlay.draw(
        on: &body, panel: Rect(x: 0, y: 0, width: Double(t), height: Double(t)), outline: bodyOutline, photo: photoRect,
        markers: markers, boxes: boxes)

      // Output panel: the first output, rendered for real from the same geometry at panel size.
      let q = outputPanelScale(geometry.outputSize, tileSize: t)
      let size = PixelSize(
        width: max(1, Int((Double(geometry.outputSize.width) * q).rounded())),
        height: max(1, Int((Double(geometry.outputSize.height) * q).rounded())))
      let sx = Double(size.width) / Double(geometry.outputSize.width)
      let sy = Double(size.height) / Double(geometry.outputSize.height)
      let toPanel = Affine.scale(x: sx, y: sy)
      let g = geometry.guideRect
      let panelOutput = PlacementResult(
        transform: toPanel * geometry.transform, outputSize: size, scale: geometry.scale * q, angle: geometry.angle,
        centre: geometry.centre, sourceRegion: geometry.sourceRegion, coversOutput: geometry.coversOutput,
        notes: geometry.notes,
        guideRect: Rect(x: g.minX * sx, y: g.minY * sy, width: g.width * sx, height: g.height * sy))
      let image = try Renderer.raster(decodedSource, geometry: panelOutput, style: output.style)
      let ox = t + gap + (t - size.width) / 2
      let oy = (t - size.height) / 2
      body.fill(x: ox - 1, y: oy - 1, width: size.width + 2, height: size.height + 2, colour: PreviewStyle.outputBorder)
      body.fill(x: ox, y: oy, width: size.width, height: size.height, colour: PreviewStyle.panelBackground)
      if image.bands == 4 || image.bands == 2 {
        body.checkerboard(x: ox, y: oy, width: size.width, height: size.height)
      }
      body.draw(image, x: ox, y: oy)

      rendered.body = body
      rendered.sourceToBody = view.map
      rendered.outputRect = Rect(x: Double(ox), y: Double(oy), width: Double(size.width), height: Double(size.height))
      rendered.geometry = geometry
      rendered.outline = bodyOutline
      rendered.focusPoint = focus
      rendered.smartPoint = smartPoint
      rendered.issues =
        tile.issues + previewIssues(output: output, geometry: geometry, smartPoint: smartPoint, existing: tile.issues)
      return rendered
    } catch {
      return failed(rendered, "\(error)", tileSize: t)
    }
  }

  /// Checks the plan cannot make: a guide reaching off the photo on purpose (`overflow:
  /// fill` or `shrink`; the planner warns only under clamp), and a smart-crop point cut off.
  static func previewIssues(output: PlannedOutput, geometry: PlacementResult, smartPoint: Point?, existing: [TileIssue])
    -> [TileIssue]
  {
    var extra: [TileIssue] = []
    let messages = Set(existing.map(\.message))
    if !geometry.coversOutput, !messages.contains(PlacementNote.guideNotCovered.description) {
      extra.append(
        TileIssue(
          severity: .warning,
          message:
            "the guide reaches outside the photo: that part is filled with the background (overflow: \(output.place.overflow.rawValue))"
        ))
    }
    if let smartPoint,
      let message = FocusCheck.cutOffMessage(focus: smartPoint, shape: output.guide.shape, geometry: geometry)
    {
      extra.append(TileIssue(severity: .warning, message: "smart-crop point: " + message))
    }
    return extra
  }

  /// Source pixels → panel pixels: the photo, the guide and the marked points, fitted into
  /// the square panel with a small margin (so a guide reaching off the photo is seen whole).
  static func viewMap(photo: Size, outline: GuideOutline, points: [Point], tileSize: Int) -> (
    map: Affine, scale: Double
  ) {
    let box =
      Rect.boundingBox(of: Rect(size: photo).corners + outline.boundingBox.corners + points) ?? Rect(size: photo)
    let t = Double(tileSize)
    let margin = max(4, (t * 0.03).rounded())
    let scale = min((t - 2 * margin) / max(box.width, 1e-9), (t - 2 * margin) / max(box.height, 1e-9))
    let map = Affine.translation(x: t / 2, y: t / 2) * Affine.scale(scale) * Affine.translation(-box.centre)
    return (map, scale)
  }

  /// Output pixels → output panel pixels: the output fitted into the panel.
  static func outputPanelScale(_ size: PixelSize, tileSize: Int) -> Double {
    let t = Double(tileSize)
    return min(t / Double(size.width), t / Double(size.height))
  }

  /// The placement in the job file's words, defaults left out.
  static func placementSummary(_ place: PlaceSpec) -> String {
    func number(_ v: Double) -> String {
      v == v.rounded() ? String(Int(v)) : String(format: "%g", (v * 1000).rounded() / 1000)
    }
    var parts: [String] = []
    if let crop = place.crop {
      parts.append("crop \(number(crop.width))×\(number(crop.height)) at \(number(crop.x)), \(number(crop.y))")
      if crop.angle != 0 { parts.append("angle \(number(crop.angle))°") }
    } else {
      if place.fit != .cover { parts.append("fit: \(place.fit.rawValue)") }
      switch place.focus {
      case .smart, .search: parts.append("focus: \(place.focus.name)")
      case .named(let name): if name != .centre { parts.append("focus: \(name.rawValue)") }
      case .point(let p): parts.append("focus: \(number(p.x)), \(number(p.y))")
      }
      if place.zoom != 1 { parts.append("zoom \(number(place.zoom))") }
      if place.offset.x != 0 || place.offset.y != 0 {
        parts.append("offset \(number(place.offset.x)), \(number(place.offset.y))")
      }
      if place.rotate != 0 { parts.append("rotate \(number(place.rotate))°") }
    }
    if place.flipHorizontal { parts.append("flip h") }
    if place.flipVertical { parts.append("flip v") }
    if place.overflow != .clamp { parts.append("overflow: \(place.overflow.rawValue)") }
    return parts.joined(separator: " · ")
  }

  /// "256×256 png", "256×256 jpg ≤ 30 kB": each distinct size and format once, plan order.
  static func summary(_ tile: ProofTile, plan: Plan) -> [String] {
    var seen: [String] = []
    for i in tile.outputs {
      let o = plan.outputs[i]
      var text =
        "\(o.geometry.outputSize.width)×\(o.geometry.outputSize.height) \(o.encode.options.format.fileExtension)"
      if let budget = o.encode.maxBytes { text += " ≤ \(budget >= 1000 ? "\(budget / 1000) kB" : "\(budget) B")" }
      if !seen.contains(text) { seen.append(text) }
    }
    return seen
  }

  private static func failed(_ tile: RenderedTile, _ reason: String, tileSize: Int) -> RenderedTile {
    var result = tile
    result.failure = reason
    let width = tileSize * 2 + PreviewStyle.panelGap - 24
    if let text = TextMask.render(reason, font: PreviewStyle.font, width: width) {
      let clipped =
        text.mask.height > tileSize - 40
        ? text.mask.cropped(x: 0, y: 0, width: text.mask.width, height: tileSize - 40) : text.mask
      result.body.fill(x: 0, y: 0, width: result.body.width, height: tileSize, colour: PreviewStyle.panelBackground)
      result.body.draw(mask: clipped, x: 12, y: 36, colour: PreviewStyle.error)
    }
    GuideOverlay.badge(on: &result.body, x: 6, y: 6, text: "✖ cannot preview", colour: PreviewStyle.error)
    return result
  }

  /// A chevron between the panels: "becomes".
  private static func drawArrow(on body: inout Raster, x: Double, y: Double) {
    let a = Point(x: x - 3, y: y - 6)
    let b = Point(x: x + 3, y: y)
    let c = Point(x: x - 3, y: y + 6)
    body.paint(in: Rect(x: x - 8, y: y - 10, width: 16, height: 20), colour: PreviewStyle.secondaryText) { p in
      Coverage.stroke(min(Coverage.segment(p, a, b).distance, Coverage.segment(p, b, c).distance), width: 2)
    }
  }
}
