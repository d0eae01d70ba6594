import CropGeometry
import CropImaging
import CropPlan
import CropStore

extension Manifest.GeometryRecord {
  /// The manifest's record of where an output's pixels came from: the placement, the output's
  /// flips and smart focus, and what a run-time focus found.
  init(_ g: PlacementResult, output: PlannedOutput, found: FoundFocus? = nil) {
    let flip = [output.place.flipHorizontal ? "horizontal" : nil, output.place.flipVertical ? "vertical" : nil]
      .compactMap { $0 }
    self.init(
      crop: g.sourceRegion, scale: g.scale, angle: g.angle, centre: g.centre, smartFocus: output.smartFocus?.name,
      flip: flip.isEmpty ? nil : flip.joined(separator: "+"), notes: g.notes.map(\.description),
      found: found.map(Manifest.FocusRecord.init))
  }
}
