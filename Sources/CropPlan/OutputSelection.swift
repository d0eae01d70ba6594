/// Which outputs a run (or one shard of it) is responsible for.
extension Plan {
  /// For each source, the path of the original file it comes from (itself, or for a
  /// `from:` source the root of its chain): what shards are chosen by, so that a source is
  /// decoded by one worker only and `from:` chains stay within a shard. One pass: no
  /// search per output.
  package func rootSources() -> [String] {
    var producer: [String: Int] = [:]
    for output in outputs where producer[output.absolutePath] == nil {
      producer[output.absolutePath] = output.sourceIndex
    }
    return sources.indices.map { index in
      var source = sources[index]
      var hops = 0
      while source.producedBy != nil, let upstream = producer[source.absolutePath], hops <= sources.count {
        source = sources[upstream]
        hops += 1
      }
      return source.path
    }
  }

  /// Indices of the outputs in `shard` (all of them without one), in plan order.
  /// `roots` is `rootSources()`, passed in when the caller already has it.
  package func selectedOutputs(shard: Shard?, roots: [String]? = nil) -> [Int] {
    guard let shard else { return Array(outputs.indices) }
    let roots = roots ?? rootSources()
    return outputs.indices.filter { shard.contains(roots[outputs[$0].sourceIndex]) }
  }
}
