/// How a run groups a stream's windows so that a photo is decoded once for the outputs of
/// every job that reads it (issue 24): consecutive windows of one stage, in the plan's order,
/// run as one while the photos they read together stay within the stream's window (the memory
/// bound: at most `PlanStream.window` distinct photos, and the outputs of the stage's jobs over
/// them, at a time). The run takes the jobs' windows in turn
/// (`PlanStream.forEachWindowTakingJobsInTurn`), so jobs over the same list of photos meet
/// window by window; jobs over different lists share a decode only as far as their windows
/// fit together, and `plan` does not count the decodes this adds. Windows with no selected
/// output are not grouped.
public struct WindowGroups {
  let limit: Int
  private var stage = -1
  private var numbers = Set<Int>()
  private var pending: [PlanWindow] = []

  public init(limit: Int) { self.limit = limit }

  /// Whether a window of `stage` reading the sources `sourceNumbers` (distinct) starts a new
  /// group; the group is then that window alone so far.
  mutating func startsGroup(stage: Int, sourceNumbers: [Int]) -> Bool {
    let fresh = sourceNumbers.reduce(0) { $0 + (numbers.contains($1) ? 0 : 1) }
    if !numbers.isEmpty && stage == self.stage && numbers.count + fresh <= limit {
      numbers.formUnion(sourceNumbers)
      return false
    }
    self.stage = stage
    numbers = Set(sourceNumbers)
    return true
  }

  /// Adds `window`: returns the group it closes (the windows before it, as one) when it does
  /// not fit with them.
  public mutating func add(_ window: PlanWindow) -> PlanWindow? {
    guard !window.selected.isEmpty else { return nil }
    let closed =
      startsGroup(stage: window.stage, sourceNumbers: window.sourceNumbers) ? PlanWindow.merged(pending) : nil
    if closed != nil { pending = [] }
    pending.append(window)
    return closed
  }

  /// The windows added since the last group returned, as one (nil: none).
  public mutating func finish() -> PlanWindow? {
    defer {
      pending = []
      numbers = []
    }
    return PlanWindow.merged(pending)
  }
}

extension PlanWindow {
  /// `windows` (of one stage) as one window: each source once (by its number in the plan),
  /// the outputs in order; the first window's job and number.
  static func merged(_ windows: [PlanWindow]) -> PlanWindow? {
    guard var result = windows.first else { return nil }
    result.outputFiles = []
    var local = [Int: Int](uniqueKeysWithValues: result.sourceNumbers.enumerated().map { ($1, $0) })
    for window in windows.dropFirst() {
      let offset = result.plan.outputs.count
      var map: [Int] = []
      for (k, number) in window.sourceNumbers.enumerated() {
        if let known = local[number] {
          map.append(known)
          continue
        }
        local[number] = result.sourceNumbers.count
        map.append(result.sourceNumbers.count)
        result.sourceNumbers.append(number)
        result.roots.append(window.roots[k])
        result.plan.sources.append(window.plan.sources[k])
      }
      for var output in window.plan.outputs {
        output.sourceIndex = map[output.sourceIndex]
        result.plan.outputs.append(output)
      }
      result.selected += window.selected.map { $0 + offset }
    }
    return result
  }
}
