import CropSpec
import CropSupport
import Foundation

/// The stream's first phases: the files each job reads, their headers and stored regions,
/// and the sources `from:` jobs read.
extension PlanStream {
  /// The files each job that reads files names, each file once however many jobs name it
  /// (numbered in the order first found); patterns that match nothing are warned about.
  func expandSources(_ paths: inout StandardPaths) {
    var index = IndexTable()
    var hashes: [UInt32] = []
    for job in jobFile.jobs {
      guard case .sources(let include, let exclude) = job.input else { continue }
      let (matches, unmatched, failures) = SourceExpansion.expandCompact(
        include: include, exclude: exclude, base: jobFile.baseDirectory, storage: planner.storage)
      for failure in failures {
        // A listing refused (no such bucket, no permission, wrong key): nothing is done.
        issues.append(
          PlanIssue(
            severity: .error, job: job.name, source: failure.location, output: nil,
            message: "cannot list the sources: \(failure.message)", blocksRun: true, kind: .source))
      }
      if matches.count > 0 {
        for pattern in unmatched { issue(.warning, job: job.name, source: pattern, "matches no file", kind: .noMatch) }
      }
      if matches.count == 0, failures.isEmpty, let empty = EmptyJobs.finding(job) {
        // Blocks the run: a job that cannot produce anything is refused before anything is done.
        issues.append(
          PlanIssue(
            severity: empty.allowed ? .warning : .error, job: job.name, source: nil, output: nil,
            message: empty.message, blocksRun: !empty.allowed, kind: .emptyJob))
      }
      var list = JobList()
      // Each match's subfolder, as listed: the matches' buffer, shared, not copied.
      list.subdirectories = matches.subdirectories
      let start = table.count
      // The match each new source is; their paths and objects join the table after the loop
      // (all of the first job's matches, new and in order, are taken as they are: one copy of
      // a million paths, not two).
      var added: [Int32] = []
      added.reserveCapacity(matches.count)
      table.plainPaths.reserveCapacity(start + matches.count)
      table.recorded.reserveCapacity(start + matches.count)
      hashes.reserveCapacity(start + matches.count)
      index.reserve(hashes.count + matches.count) { Int(hashes[$0]) }
      for m in 0..<matches.count {
        let path = matches.paths[m]
        var plain = matches.regular[m]
        let absolute = SourceExpansion.absolute(
          path, base: jobFile.baseDirectory, cwd: currentDirectory, paths: &paths, plain: &plain)
        let hash = UInt32(truncatingIfNeeded: HashSet64.hash(absolute))
        var candidates: [Int] = []
        _ = index.find(hash: Int(hash)) { found in
          if hashes[found] == hash { candidates.append(found) }
          return false
        }
        let number: Int
        let existing = candidates.first { found in
          guard found >= start else { return absolutePath(found, &paths) == absolute }
          var plain = table.plainPaths[found]
          return SourceExpansion.absolute(
            matches.paths[Int(added[found - start])], base: jobFile.baseDirectory, cwd: currentDirectory,
            paths: &paths, plain: &plain) == absolute
        }
        if let existing {
          number = existing
        } else {
          number = start + added.count
          added.append(Int32(m))
          table.plainPaths.append(plain)
          table.recorded.append(false)
          hashes.append(hash)
          index.insert(hash: Int(hash), index: number) { Int(hashes[$0]) }
        }
        list.append(number)
      }
      table.appendFiles(
        paths: matches.paths, objects: matches.objects, selected: added.count == matches.count ? nil : added)
      table.fileCount = table.count
      lists[job.name] = list
    }
    // The expansion's hash table gives way to the sorted list the checks search, of the
    // sources on disk: an output is planned at a path on disk (an object store's in the
    // folder that stands for its prefix), which no source in object storage can have.
    index = IndexTable()
    let local = (0..<Int32(hashes.count)).filter { !table.objects.isObject(Int($0)) }
    guard !local.isEmpty else { return }
    table.byHash = local.sorted { (hashes[Int($0)], $0) < (hashes[Int($1)], $1) }
    table.hashes = hashes
  }

  /// Every file source's header (read concurrently, window by window, answered by the
  /// reader's cache where it can), checked against the input limits; then the regions of
  /// those some job's focus needs.
  func readHeaders(_ paths: inout StandardPaths) {
    planner.headers.start()  // before the threads (libvips' start-up is not thread-safe)
    let needed = regionSources(&paths)
    let planner = self.planner
    var start = 0
    while start < table.fileCount {
      let range = start..<(start + min(window, table.fileCount - start))
      let absolutes = range.map { absolutePath($0, &paths) }
      planner.headers.prepare(paths: absolutes)
      let results =
        table.objects.isEmpty
        ? ConcurrentMap.map(absolutes) { planner.readHeader($0) }
        // Sources in object storage: their heads' GETs mostly wait, 8 at once.
        : ConcurrentMap.map(
          Array(zip(absolutes, range.map { table.objects.object($0, path: table.paths[$0]) })), threads: 8
        ) {
          planner.readHeader($0.0, object: $0.1)
        }
      for (k, number) in range.enumerated() {
        table.setHeader(number, results[k].0)
        table.recorded[number] = results[k].recordedHash != nil
        if let error = results[k].1 { table.errors[number] = error }
      }
      let wanted = range.enumerated().filter { needed.contains($0.element) && results[$0.offset].0 != nil }
        .map { (index: $0.element, absolute: absolutes[$0.offset]) }
      planner.readRegions(wanted, into: &table, issues: &issues)
      start = range.upperBound
    }
  }

  /// The file sources whose regions some job needs, after overrides.
  func regionSources(_ paths: inout StandardPaths) -> Set<Int> {
    guard overrides.count > 0 || jobFile.jobs.contains(where: { Planner.usesRegions($0.place) }) else { return [] }
    var result = Set<Int>()
    for job in jobFile.jobs {
      guard case .sources = job.input, let list = lists[job.name] else { continue }
      for number in (0..<list.count).map(list.number) where !result.contains(number) {
        let source = table.planned(number, absolute: absolutePath(number, &paths), withShrink: false)
        if Planner.usesRegions(overrides.place(job.place, job: job.name, source: source)) { result.insert(number) }
      }
    }
    return result
  }

  /// For a `from:` job: the upstream job's first output entry, at its largest size, from
  /// each of its sources, is a source of this job, whose header is what that output will
  /// be; they are numbered after the sources so far, sorted by path. A second `from:` job of
  /// the same upstream reads the same sources (the same numbers: one decode for both).
  func addProducedSources(_ produced: ProducedSources, of upstream: String, for job: Job, stage: Int) {
    for other in jobFile.jobs where other.name != job.name {
      if case .from(upstream) = other.input, let known = lists[other.name] {
        lists[job.name] = known
        return
      }
    }
    let ascii = produced.paths.isASCII
    let sorted = (0..<produced.paths.count).sorted {
      ascii ? produced.paths.less($0, $1) : produced.paths[$0] < produced.paths[$1]
    }
    let start = table.count
    var list = JobList()
    for i in sorted {
      list.append(table.count)
      table.append(path: produced.paths[i], header: produced.headers[i])
      table.producedRoots.append(produced.roots[i])
    }
    table.producedRanges.append((start, sorted.count, upstream, stage))
    lists[job.name] = list
  }

  /// Records a problem of the whole plan.
  func issue(
    _ severity: Diagnostic.Severity, job: String?, source: String? = nil, _ message: String,
    kind: PlanIssue.Kind = .source
  ) {
    issues.append(
      PlanIssue(
        severity: severity, job: job, source: source, output: nil, message: message, blocksRun: false, kind: kind))
  }
}

/// The sources an upstream job's outputs make for the `from:` jobs that read them: path
/// (relative to the output root), header and the file the chain starts from.
struct ProducedSources {
  var paths = StringTable()
  var headers: [SourceHeader] = []
  var roots: [Int32] = []

  mutating func add(_ output: PlannedOutput, root: Int) {
    let format = output.encode.options.format
    paths.append(output.path)
    headers.append(
      SourceHeader(
        format: InputFormat(readingBack: format) ?? .png,
        storedWidth: output.geometry.outputSize.width, storedHeight: output.geometry.outputSize.height,
        orientation: 1, bands: output.style.alpha ? 4 : 3, hasAlpha: output.style.alpha, pages: 1))
    roots.append(Int32(root))
  }
}
