import CropSpec
import CropSupport

/// A stream's issues (`PlanStream.issues`), held compactly: a batch may warn of nearly every
/// output (upscaling 200,000 outputs of small photos), and a `PlanIssue` holds four strings
/// of its own. Here the paths are in `StringTable`s (one buffer each), the jobs and the first
/// few thousand distinct messages are kept once however often they come (a batch's warnings
/// repeat a few messages), and each issue takes 12 bytes besides; an element is made again
/// when read. The same issues in the same order as an array of them.
package struct PlanIssueList: RandomAccessCollection, Sendable {
  private struct Row: Sendable {
    var severity: UInt8
    var kind: UInt8
    var blocksRun: Bool
    /// Bit 0: a job, bit 1: a source, bit 2: an output.
    var present: UInt8
    /// Index in `texts`.
    var job: Int32
    /// Index in `texts` (≥ 0), or −1 − its index in `otherMessages`.
    var message: Int32
  }

  /// Distinct messages kept once each, at most (the rest go to `otherMessages`).
  private static let sharedMessages = 4096
  private static let severities: [Diagnostic.Severity] = [.error, .warning]
  private static let kinds = PlanIssue.Kind.allCases

  private var rows: [Row] = []
  /// One entry per issue ("" without one).
  private var sources = StringTable()
  private var outputs = StringTable()
  private var texts: [String] = []
  private var textNumbers: [String: Int32] = [:]
  private var otherMessages = StringTable()
  /// Distinct messages in `texts`.
  private var sharedCount = 0

  package init() {}

  package init(_ issues: some Sequence<PlanIssue>) {
    self += issues
  }

  package var startIndex: Int { 0 }
  package var endIndex: Int { rows.count }

  package subscript(index: Int) -> PlanIssue {
    let row = rows[index]
    return PlanIssue(
      severity: Self.severities[Int(row.severity)], job: row.present & 1 != 0 ? texts[Int(row.job)] : nil,
      source: row.present & 2 != 0 ? sources[index] : nil, output: row.present & 4 != 0 ? outputs[index] : nil,
      message: row.message >= 0 ? texts[Int(row.message)] : otherMessages[Int(-1 - row.message)],
      blocksRun: row.blocksRun, kind: Self.kinds[Int(row.kind)])
  }

  package mutating func append(_ issue: PlanIssue) {
    var message: Int32
    if let known = textNumbers[issue.message] {
      message = known
    } else if sharedCount < Self.sharedMessages {
      sharedCount += 1
      message = number(issue.message)
    } else {
      message = -1 - Int32(otherMessages.count)
      otherMessages.append(issue.message)
    }
    rows.append(
      Row(
        severity: issue.severity == .error ? 0 : 1, kind: UInt8(Self.kinds.firstIndex(of: issue.kind)!),
        blocksRun: issue.blocksRun,
        present: (issue.job == nil ? 0 : 1) | (issue.source == nil ? 0 : 2) | (issue.output == nil ? 0 : 4),
        job: issue.job.map { number($0) } ?? 0, message: message))
    sources.append(issue.source ?? "")
    outputs.append(issue.output ?? "")
  }

  /// The number of `text` in `texts`, added if new.
  private mutating func number(_ text: String) -> Int32 {
    if let known = textNumbers[text] { return known }
    let number = Int32(texts.count)
    texts.append(text)
    textNumbers[text] = number
    return number
  }

  package static func += (list: inout PlanIssueList, issues: some Sequence<PlanIssue>) {
    for issue in issues { list.append(issue) }
  }
}
