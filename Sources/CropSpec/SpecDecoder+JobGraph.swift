extension SpecDecoder {
  // MARK: Checks across jobs

  /// A `from:` job is planned from the size its upstream output is planned at; an output
  /// that may shrink to meet its byte budget has no size known before it is written.
  mutating func checkFromSizes(_ jobs: [Job]) {
    let byName = Dictionary(jobs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for edge in fromEdges {
      guard let first = byName[edge.target]?.outputs.first, first.encode.maxBytes != nil,
        first.encode.overBudget == .shrink
      else { continue }
      reader.error(
        edge.mark, "jobs.\(edge.job).from",
        Diagnostic.expected(
          "a job whose first output keeps its planned size",
          received: "\"\(edge.target)\", whose first output may shrink to meet max_bytes (over_budget: shrink)"))
    }
  }

  mutating func checkJobGraph() {
    var edges: [String: (target: String, mark: SourceMark)] = [:]
    for edge in fromEdges {
      if declaredJobs.contains(edge.target) {
        edges[edge.job] = (edge.target, edge.mark)
        continue
      }
      let others = declaredJobs.filter { $0 != edge.job }
      reader.error(
        edge.mark, "jobs.\(edge.job).from",
        Diagnostic.expected(
          others.isEmpty
            ? "the name of another job (there is none)" : "the name of another job (\(others.joined(separator: ", ")))",
          received: "\"\(edge.target)\"") + Suggestion.didYouMean(edge.target, in: others))
    }
    var reported = Set<String>()
    for start in declaredJobs where edges[start] != nil {
      var path = [start]
      var current = start
      while let next = edges[current]?.target {
        if let loopStart = path.firstIndex(of: next) {
          var cycle = Array(path[loopStart...])
          // Name the cycle from the job listed first in the file, and report it there.
          let first = declaredJobs.first(where: cycle.contains)!
          let rotation = cycle.firstIndex(of: first)!
          cycle = Array(cycle[rotation...] + cycle[..<rotation])
          if reported.insert(cycle.sorted().joined(separator: ",")).inserted {
            reader.error(
              edges[first]!.mark, "jobs.\(first).from",
              Diagnostic.expected(
                "a from chain that ends at a job with sources",
                received: "the cycle " + (cycle + [first]).joined(separator: " → ")))
          }
          break
        }
        path.append(next)
        current = next
      }
    }
  }
}
