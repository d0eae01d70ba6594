import CropPlan
import Foundation

/// The `plans` table (state schema 5): each source's recorded plan per job
/// (`RecordedPlan`), as rows and back, and its lookup by a run's first pass.
enum StatePlans {
  static let insert =
    "INSERT OR REPLACE INTO plans(path, job, fingerprint, outputs, issues, shrink, colours, recorded_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

  private static let unit = "\u{1F}"
  private static let record = "\u{1E}"

  /// The row of `plan` of `job` over the source at `source` (absolute); nil when a path, key
  /// or message holds a separator (such a plan is not recorded: the source is planned).
  static func values(source: String, job: String, _ plan: RecordedPlan, recorded: Int64) -> [SQLiteConnection.Value]? {
    let texts = plan.outputs.flatMap { [$0.path, $0.key] } + plan.issues.flatMap { [$0.output ?? "", $0.message] }
    guard !texts.contains(where: { $0.utf8.contains(0x1E) || $0.utf8.contains(0x1F) }) else { return nil }
    let outputs = plan.outputs.map { $0.path + unit + $0.key }.joined(separator: record)
    let issues = plan.issues.map { $0.kind.rawValue + unit + ($0.output ?? "") + unit + $0.message }
      .joined(separator: record)
    return [
      .text(source), .text(job), .text(plan.fingerprint), .text(outputs), plan.issues.isEmpty ? .null : .text(issues),
      .integer(Int64(plan.shrink)), .integer(Int64(plan.colours)), .integer(recorded),
    ]
  }

  /// The plan in the current row of a statement that selects the `plans` columns (nil when
  /// a cell is not one this cropjob writes).
  static func plan(_ s: SQLiteConnection.Statement) -> RecordedPlan? {
    var outputs: [RecordedPlan.Output] = []
    for fields in records(s.text("outputs")) {
      guard fields.count == 2 else { return nil }
      outputs.append(RecordedPlan.Output(path: fields[0], key: fields[1]))
    }
    var issues: [RecordedPlan.Issue] = []
    for fields in records(s.optionalText("issues") ?? "") {
      guard fields.count == 3, let kind = PlanIssue.Kind(rawValue: fields[0]) else { return nil }
      issues.append(RecordedPlan.Issue(kind: kind, output: fields[1].isEmpty ? nil : fields[1], message: fields[2]))
    }
    return RecordedPlan(
      fingerprint: s.text("fingerprint"), outputs: outputs, issues: issues, shrink: Int(s.int("shrink")),
      colours: UInt8(clamping: s.int("colours")))
  }

  /// The records (separated by RS) of `text` and the fields (separated by US) of each, split
  /// on bytes (none when `text` is empty).
  static func records(_ text: String) -> [[String]] {
    var text = text
    return text.withUTF8 { bytes in
      guard !bytes.isEmpty else { return [] }
      var result: [[String]] = []
      var fields: [String] = []
      var start = 0
      for i in 0...bytes.count {
        let byte = i < bytes.count ? bytes[i] : 0x1E
        guard byte == 0x1E || byte == 0x1F else { continue }
        fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        start = i + 1
        if byte == 0x1E {
          result.append(fields)
          fields = []
        }
      }
      return result
    }
  }

  /// The newest recorded plan of `job` over each source at `paths` in one file (`found`,
  /// with its time; a file older than schema 5 has none).
  static func lookUp(
    job: String, paths: [String], in connection: SQLiteConnection,
    into found: inout [String: (time: Int64, plan: RecordedPlan)]
  ) throws(SQLiteConnection.Failure) {
    let version = try connection.prepare("PRAGMA main.user_version")
    guard try version.next(), version.int("user_version") >= 5 else { return }
    let select = try connection.prepare(
      """
      SELECT p.path, p.fingerprint, p.outputs, p.issues, p.shrink, p.colours, p.recorded_ns
      FROM json_each(?) j CROSS JOIN plans p ON p.path = j.value AND p.job = ?
      """)
    for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
      select.bind([
        .text(StateReader.jsonArray(paths[start..<min(paths.count, start + StateReader.batch)])), .text(job),
      ])
      while try select.next() {
        let time = select.int("recorded_ns")
        let path = select.text("path")
        guard time >= found[path]?.time ?? .min, let plan = plan(select) else { continue }
        found[path] = (time, plan)
      }
    }
  }
}

extension StateReader {
  /// What the state records of how `job` planned each source at `paths` (absolute): the
  /// newest plan of each, the source's content hash, and the sizes of the plan's outputs
  /// recorded with its keys (`RecordedSource`). None when the sources are not looked up
  /// (`verifySources`) or the state is held whole (JSON manifests record no plans).
  public func recordedPlans(job: String, paths: [String]) throws(StateError) -> [String: RecordedSource] {
    guard whole == nil, !verifySources, !paths.isEmpty else { return [:] }
    var found: [String: (time: Int64, plan: RecordedPlan)] = [:]
    do {
      lock.lock()
      defer { lock.unlock() }
      for file in files {
        try read(file) { (connection) throws(SQLiteConnection.Failure) in
          try StatePlans.lookUp(job: job, paths: paths, in: connection, into: &found)
        }
      }
    }
    guard !found.isEmpty else { return [:] }
    let sources = paths.filter { found[$0] != nil }
    let known = try read(
      .keys, StateQuery(outputs: sources.flatMap { found[$0]!.plan.outputs.map(\.path) }, sources: sources))
    var result: [String: RecordedSource] = [:]
    for path in sources {
      guard let plan = found[path]?.plan, let hash = known.sources[path]?.sha256 else { continue }
      let bytes = plan.outputs.map { output in
        known.outputs[output.path].flatMap { $0.key == output.key ? $0.bytes : nil }
      }
      result[path] = RecordedSource(plan: plan, sourceHash: hash, bytes: bytes)
    }
    return result
  }
}
