import CropImaging
import CropStore

extension Manifest.FocusRecord {
  /// The manifest's record of what a run-time focus found.
  init(_ found: FoundFocus) {
    let boxes = found.boxes.indices.map { i in
      Manifest.BoxRecord(
        rect: found.boxes[i].rect, padded: i < found.padded.count ? found.padded[i] : nil,
        origin: found.boxes[i].origin.description, score: found.boxes[i].score, kept: found.kept.contains(i),
        dropped: i < found.dropped.count ? found.dropped[i]?.description : nil)
    }
    self.init(
      strategy: found.strategy, point: found.point, boxes: boxes.isEmpty ? nil : boxes,
      padding: boxes.isEmpty ? nil : found.padding)
  }
}
