import CropGeometry
import CropSpec
import CropSupport
import Foundation

extension Planner {
  /// The phase after the headers: the regions stored in the sources `wanted` (index and
  /// absolute path; sources of jobs whose focus uses `regions`, with a header, not produced
  /// by an earlier job), read concurrently into `table`. What the reader finds wrong (a
  /// damaged packet, a region it skipped) becomes a warning naming the source.
  func readRegions(
    _ wanted: [(index: Int, absolute: String)], into table: inout SourceTable, issues: inout PlanIssueList
  ) {
    guard !wanted.isEmpty else { return }
    let headers = self.headers
    let readings = ConcurrentMap.map(wanted.map(\.absolute)) { path -> Result<XMPRegionParser.Reading, ReadFailure> in
      do {
        return .success(try headers.storedRegions(path: path))
      } catch {
        return .failure(ReadFailure(message: String(describing: error)))
      }
    }
    func warn(_ index: Int, _ message: String) {
      issues.append(
        PlanIssue(
          severity: .warning, job: nil, source: table.paths[index], output: nil, message: message, blocksRun: false,
          kind: .regions))
    }
    for ((index, _), reading) in zip(wanted, readings) {
      switch reading {
      case .success(let reading):
        table.regions[index] = reading.regions
        for problem in reading.problems { warn(index, problem) }
      case .failure(let failure):
        table.regions[index] = []
        warn(index, "cannot read the stored regions: \(failure.message)")
      }
    }
  }

  struct ReadFailure: Error { var message: String }
}

extension Planner {
  /// Whether `place` uses the stored regions: a focus search naming `regions`, and no
  /// explicit crop (which ignores the focus).
  static func usesRegions(_ place: PlaceSpec) -> Bool {
    guard place.crop == nil, case .search(let search) = place.focus else { return false }
    return search.finders.contains(.regions)
  }

  /// The source's regions of the types `place` selects, as boxes in oriented source pixels
  /// (origin `region`, score 1), in the order the file lists them; nil when `place` does not
  /// use regions.
  static func regionBoxes(place: PlaceSpec, source: PlannedSource, header: SourceHeader) -> [FocusBox]? {
    guard usesRegions(place) else { return nil }
    let types = Set(place.effectiveRegionTypes.map(\.rawValue))
    return (source.regions ?? []).compactMap { region -> FocusBox? in
      guard let kind = region.kind, types.contains(kind.rawValue) else { return nil }
      return FocusBox(
        rect: region.orientedRect(in: header), origin: .region(name: region.name, type: kind.rawValue), score: 1)
    }
  }

  /// The placement about the region boxes when `regions` is the search's first finder and a
  /// box lies on the photo (what `run` will find too); nil otherwise (the geometry is then
  /// decided at run time, or by a fixed fallback). Its notes are not in its geometry's.
  static func placeAboutRegions(
    _ boxes: [FocusBox]?, place: PlaceSpec, source: Size, guide: Guide, placement: Placement, outputScale: Double
  ) -> BoxFocus? {
    guard let boxes, !boxes.isEmpty, case .search(let search) = place.focus, search.finders.first == .regions
    else { return nil }
    return Geometry.placeAboutBoxes(
      boxes, padding: place.effectiveFacePadding, source: source, guide: guide, placement: placement,
      outputScale: outputScale)
  }
}
