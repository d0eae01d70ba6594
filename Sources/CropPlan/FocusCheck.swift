import CropGeometry
import CropSpec
import Foundation

/// Whether the point a job asked to keep (the focus) survives the crop: a photo's corner
/// chosen as focus under a circle guide, or a focus dragged off the output, is cut away.
package enum FocusCheck {
  /// Slack in output pixels: a focus exactly on the edge (e.g. `top` under a circle) is kept.
  package static let tolerance = 0.5

  /// A warning when `focus` (source pixels, after orientation) lands outside what the output
  /// shows: outside the circle inscribed in the guide frame for a circle guide, outside the
  /// output rectangle otherwise. nil when it is kept.
  package static func cutOffMessage(focus: Point, shape: GuideShape, geometry: PlacementResult) -> String? {
    let p = geometry.transform.apply(focus)
    let frame = geometry.guideRect
    let output = geometry.outputRect
    let outsideOutput =
      p.x < output.minX - tolerance || p.x > output.maxX + tolerance || p.y < output.minY - tolerance
      || p.y > output.maxY + tolerance
    if shape == .circle {
      let centre = Point(x: frame.minX + frame.width / 2, y: frame.minY + frame.height / 2)
      let radius = min(frame.width, frame.height) / 2
      let distance = ((p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y)).squareRoot()
      if distance > radius + tolerance || outsideOutput {
        return
          "the focus point falls outside the circle guide: it is cut off (\(String(format: "%.0f", distance - radius)) px outside the circle)"
      }
      return nil
    }
    return outsideOutput ? "the focus point falls outside the output: it is cut off" : nil
  }

  /// The check for a planned output whose focus is a fixed point (named or `[x, y]`); nil for
  /// smart focus (known only from the pixels) and explicit crops (no focus).
  static func cutOffMessage(place: PlaceSpec, guide: Guide, source: Size, geometry: PlacementResult) -> String? {
    guard place.crop == nil else { return nil }
    let focus: Point
    switch place.focus {
    case .named(let name): focus = name.point
    case .point(let point): focus = point
    case .smart, .search: return nil
    }
    return cutOffMessage(
      focus: Point(x: focus.x * source.width, y: focus.y * source.height), shape: guide.shape, geometry: geometry)
  }

  /// A warning when the job asks to move the photo (a focus other than `centre`, a smart
  /// strategy, or an `offset`) but `overflow: clamp` centres it on both axes because it fits
  /// inside the guide (`Geometry.clampPinsCentre`): the request has no effect. nil otherwise.
  static func noEffectMessage(place: PlaceSpec, guide: Guide, source: Size) -> String? {
    let placement = Placement(
      fit: place.fit, zoom: place.zoom, rotate: place.rotate, crop: place.crop, overflow: place.overflow)
    guard Geometry.clampPinsCentre(source: source, guide: guide, placement: placement) else { return nil }
    var asked: [String] = []
    switch place.focus {
    case .named(let name) where name.point != NamedPosition.centre.point: asked.append("focus")
    case .point(let p) where p != NamedPosition.centre.point: asked.append("focus")
    case .smart, .search: asked.append("focus")
    default: break
    }
    if place.offset != .zero { asked.append("offset") }
    guard !asked.isEmpty else { return nil }
    let what = asked.joined(separator: " and ")
    let verb = asked.count > 1 ? "have" : "has"
    return
      "\(what) \(verb) no effect: the photo fits inside the guide on both axes, so overflow: clamp "
      + "centres it (use overflow: fill or shrink to place it, or a larger zoom)"
  }
}
