/// "Did you mean …?" for misspelled keys and values.
package enum Suggestion {
  /// The closest candidate within a small edit distance, if any: one edit (a swap of two
  /// neighbours counts as one) for words of up to three letters, so `rnu` suggests `run` but
  /// `gif` not `avif` nor `c` `a`; else two edits or a third of the word.
  package static func closest(to word: String, in candidates: [String]) -> String? {
    let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
    let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 < word.count else { return nil }
    return best.0
  }

  static func didYouMean(_ word: String, in candidates: [String]) -> String {
    closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
  }

  /// Edit distance where swapping two neighbours is one edit (optimal string alignment), so
  /// `rnu` is one edit from `run` and `jepg` one from `jpeg`.
  package static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = Swift.min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
