import CropKit

/// A usage mistake: printed as `Error: …` with the command's usage line, exit 64.
struct UsageError: Error {
  var message: String
}

/// The "did you mean …?" of every usage error: misspelled commands, options and option
/// values all go through `Suggestion.closest`, the suggester the job-file decoder uses.
enum TypoHint {
  /// How the suggested word is written: options bare (`--force`, as in `unknown option
  /// --forse`), commands and values in quotes (`"run"`, as in `unknown command "rnu"`).
  enum Quoting {
    case bare, quoted
  }

  /// `"; did you mean X?"`, or `""` when no candidate is close enough.
  static func didYouMean(_ word: String, among candidates: [String], quoting: Quoting) -> String {
    guard let closest = Suggestion.closest(to: word, in: candidates) else { return "" }
    switch quoting {
    case .bare: return "; did you mean \(closest)?"
    case .quoted: return "; did you mean \"\(closest)\"?"
    }
  }
}
