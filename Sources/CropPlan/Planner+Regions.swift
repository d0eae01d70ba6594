import CropGeometry
import CropSpec
import CropSupport
import Foundation

extension Planner {
  /// The phase after the headers: the regions stored in each source at `indices` (the
  /// sources of jobs whose focus uses `regions`), read concurrently. A source without a
  /// header, or produced by an earlier job, is skipped (nil regions); what the reader finds
  /// wrong (a damaged packet, a region it skipped) becomes a warning naming the source.
  func readRegions(_ draft: inout PlanDraft, of indices: Set<Int>) {
    let wanted = indices.sorted().filter { draft.sources[$0].header != nil && draft.sources[$0].producedBy == nil }
    guard !wanted.isEmpty else { return }
    let headers = self.headers
    let paths = wanted.map { draft.sources[$0].absolutePath }
    let readings = ConcurrentMap.map(paths) { path -> Result<XMPRegionParser.Reading, ReadFailure> in
      do {
        return .success(try headers.storedRegions(path: path))
      } catch {
        return .failure(ReadFailure(message: String(describing: error)))
      }
    }
    for (index, reading) in zip(wanted, readings) {
      let source = draft.sources[index]
      switch reading {
      case .success(let reading):
        draft.sources[index].regions = reading.regions
        for problem in reading.problems { draft.issue(.warning, job: nil, source: source.path, problem) }
      case .failure(let failure):
        draft.sources[index].regions = []
        draft.issue(.warning, job: nil, source: source.path, "cannot read the stored regions: \(failure.message)")
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

  /// The sources (indices) whose regions some job needs, after overrides.
  func regionSources(_ draft: PlanDraft) -> Set<Int> {
    var result = Set<Int>()
    for job in draft.file.jobs {
      for (index, _) in draft.jobSources[job.name] ?? [] {
        let place = draft.overrides.place(job.place, job: job.name, source: draft.sources[index])
        if Self.usesRegions(place) { result.insert(index) }
      }
    }
    return result
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

  /// The geometry placed about the region boxes when `regions` is the search's first finder
  /// and a box lies on the photo (what `run` will find too); nil otherwise (the geometry is
  /// then decided at run time, or by a fixed fallback).
  static func placeAboutRegions(
    _ boxes: [FocusBox]?, place: PlaceSpec, source: Size, guide: Guide, placement: Placement, outputScale: Double
  ) -> (geometry: PlacementResult, kept: [Int])? {
    guard let boxes, !boxes.isEmpty, case .search(let search) = place.focus, search.finders.first == .regions,
      let found = Geometry.placeAboutBoxes(
        boxes, padding: place.effectiveFacePadding, source: source, guide: guide, placement: placement,
        outputScale: outputScale)
    else { return nil }
    var geometry = found.geometry
    geometry.notes += found.notes
    return (geometry, found.kept)
  }
}
