/// "Did you mean …?" for misspelled keys and values.
public enum Suggestion {
  /// The closest candidate within a small edit distance, if any: one edit for words of up
  /// to three letters (`gif` does not suggest `avif`, nor `c` `a`), else two or a third.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
    let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 < word.count else { return nil }
    return best.0
  }

  static func didYouMean(_ word: String, in candidates: [String]) -> String {
    closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
