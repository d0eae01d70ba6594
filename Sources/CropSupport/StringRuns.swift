/// A list of strings where a string often repeats the one before (the subfolder of each of a
/// folder's thousand files): each run of equal strings is kept once, with where it ends (8
/// bytes and the string's bytes a run, where a `StringTable` holds every string).
package struct StringRuns: Sendable {
  /// The string of each run.
  private var values = StringTable()
  /// The index after each run's last string.
  private var ends: [UInt32] = []

  package init() {}

  package var count: Int { ends.last.map(Int.init) ?? 0 }
  package var isEmpty: Bool { ends.isEmpty }
  /// How many runs of equal strings there are (each kept once).
  package var runCount: Int { ends.count }

  /// Adds `text` at the end; its index is the old `count`.
  package mutating func append(_ text: String) {
    precondition(count < Int(UInt32.max), "StringRuns holds at most 4 Gi strings")
    if !ends.isEmpty, values.last(equals: text) {
      ends[ends.count - 1] += 1
    } else {
      values.append(text)
      ends.append(UInt32(count + 1))
    }
  }

  package subscript(index: Int) -> String {
    // The first run that ends after `index`.
    values[ends.partitionPoint { Int($0) > index }]
  }

  /// Releases spare capacity (after the last append).
  package mutating func shrink() {
    values.shrink()
    ends.shrinkToFit()
  }
}
