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
