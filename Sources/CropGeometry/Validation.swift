import Foundation

extension Geometry {
  /// Problems that make `place` meaningless, as human-readable messages (empty when the
  /// inputs are valid). `place` requires an empty list; the planner calls this first so a
  /// bad input fails one photo, not the process.
  package static func validate(
    source: Size, guide: Guide, placement: Placement, outputScale: Double = 1
  ) -> [String] {
    var problems: [String] = []
    if !source.isPositiveFinite { problems.append("source size \(source) must be positive") }
    if guide.size.width < 1 || guide.size.height < 1 {
      problems.append("guide size \(guide.size) must be at least 1x1")
    }
    if !(outputScale.isFinite && outputScale > 0) {
      problems.append("output scale \(outputScale) must be positive")
    }
    if let crop = placement.crop {
      if ![crop.x, crop.y, crop.angle].allSatisfy(\.isFinite) {
        problems.append("crop position and angle must be finite numbers")
      }
      if !(crop.width.isFinite && crop.height.isFinite && crop.width > 0 && crop.height > 0) {
        problems.append("crop size \(crop.width)x\(crop.height) must be positive")
      } else if problems.isEmpty, source.isPositiveFinite, !crop.overlaps(photo: source) {
        // It would write the background alone: a saved crop of another photo, or of this one
        // before it was replaced.
        problems.append(
          "the crop (x \(Self.number(crop.x)), y \(Self.number(crop.y)), \(Self.number(crop.width))x\(Self.number(crop.height))\(crop.angle == 0 ? "" : ", angle \(Self.number(crop.angle))")) lies wholly outside the \(Self.number(source.width))x\(Self.number(source.height)) photo"
        )
      }
    } else {
      if !(placement.zoom.isFinite && placement.zoom > 0) {
        problems.append("zoom \(placement.zoom) must be positive")
      }
      if !placement.focus.isFinite { problems.append("focus must be finite") }
      if !placement.offset.isFinite { problems.append("offset must be finite") }
      if !placement.rotate.isFinite { problems.append("rotate must be finite") }
    }
    return problems
  }

  /// `v` as a message shows it: whole numbers without a fraction.
  static func number(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
