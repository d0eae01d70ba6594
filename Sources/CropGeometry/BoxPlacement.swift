import Foundation

/// A placement about found boxes (faces, regions): where the focus went and which boxes the
/// output keeps.
public struct BoxFocus: Sendable, Hashable, Codable {
  /// The focus, normalised (0…1): the centre of the kept padded boxes' bounding box.
  public var focus: Point
  /// Each box grown by the padding and clipped to the photo (oriented source pixels), in the
  /// order of the boxes given; nil where nothing of a box lies on the photo.
  public var padded: [Rect?]
  /// Indices of the boxes placed inside the guide: all of them, or only the largest.
  public var kept: [Int]
  /// `focusBoxesDoNotFit`, `focusBoxCutOff`, or nothing.
  public var notes: [PlacementNote]
  /// The placement about `focus` (its notes do not include `notes`).
  public var geometry: PlacementResult
}

extension Geometry {
  /// Slack, in output pixels, when deciding whether a box lies inside the guide.
  public static let boxTolerance = 0.5

  /// Places the photo so that every box, grown by `padding` (`FocusBox.padded`), lies inside
  /// the guide: the focus is the centre of the padded boxes' bounding box, then `placement`
  /// applies as usual (offset, rotation, clamp). When they do not all fit, the largest box
  /// (by area; then the one nearest the photo's centre; then the first) is placed alone, with
  /// `focusBoxesDoNotFit`, and `focusBoxCutOff` if even it does not fit. nil when no box
  /// lies on the photo (the next strategy decides).
  ///
  /// "Inside the guide" is inside the guide frame and the output (`guideRect` ∩ the output
  /// rectangle) for a rectangle or a square, and, for a circle, the ellipse inscribed in each
  /// padded box inside the circle (a head is round; the box's corners are background).
  /// `placement.focus` is ignored; `validate` must accept the placement.
  public static func placeAboutBoxes(
    _ boxes: [FocusBox], padding: Double, source: Size, guide: Guide, placement: Placement, outputScale: Double = 1
  ) -> BoxFocus? {
    let photo = Rect(size: source)
    let padded = boxes.map { $0.padded(padding, within: photo) }
    let onPhoto = padded.indices.filter { padded[$0] != nil }
    guard !onPhoto.isEmpty else { return nil }

    func attempt(_ indices: [Int]) -> (Point, PlacementResult, Bool) {
      let union = Rect.boundingBox(of: indices.flatMap { padded[$0]!.corners })!
      var p = placement
      p.focus = Point(x: union.centre.x / source.width, y: union.centre.y / source.height)
      let geometry = place(source: source, guide: guide, placement: p, outputScale: outputScale)
      let inside = indices.allSatisfy { boxInside(padded[$0]!, geometry: geometry, shape: guide.shape) }
      return (p.focus, geometry, inside)
    }

    let (focus, geometry, inside) = attempt(onPhoto)
    if inside || onPhoto.count == 1 {
      return BoxFocus(
        focus: focus, padded: padded, kept: onPhoto, notes: inside ? [] : [.focusBoxCutOff], geometry: geometry)
    }
    let centre = photo.centre
    let largest = onPhoto.min { a, b in
      let (areaA, areaB) = (boxes[a].rect.width * boxes[a].rect.height, boxes[b].rect.width * boxes[b].rect.height)
      if areaA != areaB { return areaA > areaB }
      let (da, db) = (boxes[a].rect.centre.distance(to: centre), boxes[b].rect.centre.distance(to: centre))
      return da != db ? da < db : a < b
    }!
    let (single, singleGeometry, singleInside) = attempt([largest])
    var notes: [PlacementNote] = [.focusBoxesDoNotFit(boxes: onPhoto.count)]
    if !singleInside { notes.append(.focusBoxCutOff) }
    return BoxFocus(focus: single, padded: padded, kept: [largest], notes: notes, geometry: singleGeometry)
  }

  /// Whether `box` (source pixels) lies inside the guide of `geometry` (see `placeAboutBoxes`).
  public static func boxInside(_ box: Rect, geometry: PlacementResult, shape: GuideShape) -> Bool {
    let t = geometry.transform
    let frame = geometry.guideRect.intersection(geometry.outputRect) ?? .zero
    guard shape == .circle else {
      return box.corners.allSatisfy { frame.contains(t.apply($0), tolerance: boxTolerance) }
    }
    let g = geometry.guideRect
    let centre = g.centre
    let radius = min(g.width, g.height) / 2
    let steps = 72
    return (0..<steps).allSatisfy { step in
      let angle = Double(step) / Double(steps) * 2 * Double.pi
      let p = t.apply(
        Point(
          x: box.centre.x + box.width / 2 * cos(angle), y: box.centre.y + box.height / 2 * sin(angle)))
      return p.distance(to: centre) <= radius + boxTolerance && frame.contains(p, tolerance: boxTolerance)
    }
  }
}
