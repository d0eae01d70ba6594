import Foundation

/// A placement about found boxes (faces, regions): where the focus went, which boxes the
/// output keeps, which it leaves out and why, and the padding used.
package struct BoxFocus: Sendable, Hashable, Codable {
  /// The focus, normalised (0…1): the centre of the kept padded boxes' bounding box, or a
  /// single face's eyes-to-chin centre when even it does not fit.
  package var focus: Point
  /// Each box grown by `padding` (the padding used) and clipped to the photo (oriented source
  /// pixels), in the order of the boxes given; nil where nothing of a box lies on the photo.
  package var padded: [Rect?]
  /// Indices of the boxes placed inside the guide.
  package var kept: [Int]
  /// Per box: why it was left out, or nil when it was kept.
  package var dropped: [BoxDrop?]
  /// The padding used: `face_padding`, or less when the boxes fit only with less (never
  /// more; 0 when one box does not fit even bare).
  package var padding: Double
  /// `facePaddingReduced`, `focusBoxesDoNotFit`, `focusBoxCutOff`, or nothing.
  package var notes: [PlacementNote]
  /// The placement about `focus` (its notes do not include `notes`).
  package var geometry: PlacementResult
}

extension Geometry {
  /// Slack, in output pixels, when deciding whether a box lies inside the guide.
  package static let boxTolerance = 0.5
  /// A box scoring below this fraction of the best box's score is dropped (`BoxDrop.lowScore`).
  /// On Tests/Corpora/faces every face YuNet scores ≥ 70 scores at least 0.84 of the best
  /// face of its photo, and the one stray box 0.80 (docs/job-file.md, "Placement").
  package static let weakScoreRatio = 0.8

  /// Places the photo so that the boxes found, each grown by `padding` (`FocusBox.padded`),
  /// lie inside the guide (docs/geometry.md, "Faces and regions"):
  ///
  /// 1. A box scoring below `weakScoreRatio` of the best is dropped, and so is a box off the
  ///    photo.
  /// 2. When the rest fit together with `padding`, the focus is the centre of their padded
  ///    bounding box. When they fit only with less, the padding shrinks to the largest that
  ///    fits (to 1/1024 of `padding`), with `facePaddingReduced`.
  /// 3. When they do not fit even bare, as many as fit together bare are kept, preferring
  ///    large, sure ones: from each box as a seed (in order of area × score, then nearest the
  ///    photo's centre, then first), the others in that order join when they fit beside those
  ///    already in; the set with the most boxes wins, then the larger sum of area × score. The
  ///    padding then shrinks as in 2 for the boxes kept, with `focusBoxesDoNotFit`.
  /// 4. When not even the first fits bare, the focus is its eyes-to-chin centre (the middle of
  ///    the eyes' and the mouth corners' x, halfway from the eyes down to the box's bottom:
  ///    neither the chin nor the forehead is cut first) with `focusBoxCutOff`; without
  ///    landmarks (a stored region), the box's centre.
  ///
  /// nil when no box lies on the photo (the next strategy decides). "Inside the guide" is
  /// inside the guide frame and the output (`guideRect` ∩ the output rectangle) for a
  /// rectangle or a square, and, for a circle, the ellipse inscribed in each padded box inside
  /// the circle (a head is round; the box's corners are background). `placement.focus` is
  /// ignored; `validate` must accept the placement.
  package static func placeAboutBoxes(
    _ boxes: [FocusBox], padding: Double, source: Size, guide: Guide, placement: Placement, outputScale: Double = 1
  ) -> BoxFocus? {
    let photo = Rect(size: source)
    var dropped = boxes.map { $0.padded(padding, within: photo) == nil ? BoxDrop.offPhoto : nil }
    let best = boxes.indices.filter { dropped[$0] == nil }.map { boxes[$0].score }.max()
    guard let best else { return nil }
    for i in boxes.indices where dropped[i] == nil && boxes[i].score < weakScoreRatio * best {
      dropped[i] = .lowScore(score: boxes[i].score, best: best)
    }
    let candidates = boxes.indices.filter { dropped[$0] == nil }

    func place(at point: Point) -> PlacementResult {
      var p = placement
      p.focus = Point(x: point.x / source.width, y: point.y / source.height)
      return Geometry.place(source: source, guide: guide, placement: p, outputScale: outputScale)
    }
    // The placement about `indices` padded by `pad`, if it keeps them all inside.
    func fit(_ indices: [Int], _ pad: Double) -> (Point, PlacementResult)? {
      let rects = indices.compactMap { boxes[$0].padded(pad, within: photo) }
      guard rects.count == indices.count, let union = Rect.boundingBox(of: rects.flatMap(\.corners)) else {
        return nil
      }
      let geometry = place(at: union.centre)
      guard rects.allSatisfy({ boxInside($0, geometry: geometry, shape: guide.shape) }) else { return nil }
      return (union.centre, geometry)
    }
    // The largest padding ≤ `padding` with which `indices` fit (they fit bare).
    func largestPadding(_ indices: [Int]) -> Double {
      if fit(indices, padding) != nil { return padding }
      var (low, high) = (0.0, padding)
      for _ in 0..<10 {
        let middle = (low + high) / 2
        if fit(indices, middle) != nil { low = middle } else { high = middle }
      }
      return low
    }
    func result(_ kept: [Int], _ pad: Double, _ point: Point, _ geometry: PlacementResult, _ notes: [PlacementNote])
      -> BoxFocus
    {
      BoxFocus(
        focus: Point(x: point.x / source.width, y: point.y / source.height),
        padded: boxes.map { $0.padded(pad, within: photo) }, kept: kept, dropped: dropped, padding: pad,
        notes: notes, geometry: geometry)
    }

    var kept: [Int] = []
    if fit(candidates, 0) != nil {
      kept = candidates
    } else {
      let centre = photo.centre
      let weights = boxes.map { $0.rect.width * $0.rect.height * $0.score }
      let order = candidates.sorted { a, b in
        if weights[a] != weights[b] { return weights[a] > weights[b] }
        let (da, db) = (boxes[a].rect.centre.distance(to: centre), boxes[b].rect.centre.distance(to: centre))
        return da != db ? da < db : a < b
      }
      // Greedy from each seed in turn (the first 32): the set with the most boxes wins, then
      // the larger area × score, then the earlier seed.
      var bestWeight = -1.0
      for seed in order.prefix(32) {
        var set = [seed]
        guard fit(set, 0) != nil else { continue }
        for i in order where i != seed && fit(set + [i], 0) != nil { set.append(i) }
        let weight = set.reduce(0.0) { $0 + weights[$1] }
        if set.count > kept.count || set.count == kept.count && weight > bestWeight {
          (kept, bestWeight) = (set, weight)
        }
      }
      for i in candidates where !kept.contains(i) { dropped[i] = .doesNotFit }
      kept.sort()
      guard !kept.isEmpty else {
        // Not even the first fits bare: placed about its eyes-to-chin centre, cut off.
        let first = order[0]
        dropped[first] = nil
        let point = boxes[first].eyesToChinCentre
        var notes: [PlacementNote] = candidates.count > 1 ? [.focusBoxesDoNotFit(boxes: candidates.count, kept: 1)] : []
        notes.append(.focusBoxCutOff)
        return result([first], 0, point, place(at: point), notes)
      }
    }
    let pad = largestPadding(kept)
    let (point, geometry) = fit(kept, pad)!
    var notes: [PlacementNote] = []
    if kept.count < candidates.count { notes.append(.focusBoxesDoNotFit(boxes: candidates.count, kept: kept.count)) }
    if pad < padding { notes.append(.facePaddingReduced(from: padding, to: pad)) }
    return result(kept, pad, point, geometry, notes)
  }

  /// Whether `box` (source pixels) lies inside the guide of `geometry` (see `placeAboutBoxes`).
  package static func boxInside(_ box: Rect, geometry: PlacementResult, shape: GuideShape) -> Bool {
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

extension FocusBox {
  /// The centre of the face from the eyes to the chin: x the middle of the eyes and the mouth
  /// corners, y halfway from the eyes' middle down to the box's bottom (the chin). The box's
  /// centre when there are no landmarks.
  package var eyesToChinCentre: Point {
    guard let marks = landmarks, marks.count == 5 else { return rect.centre }
    let eyes = Point(x: (marks[0].x + marks[1].x) / 2, y: (marks[0].y + marks[1].y) / 2)
    let mouth = Point(x: (marks[3].x + marks[4].x) / 2, y: (marks[3].y + marks[4].y) / 2)
    return Point(x: (eyes.x + mouth.x) / 2, y: (eyes.y + rect.maxY) / 2)
  }
}
