/// Text made safe inside XML-style markup: HTML (the proof sheet) and Pango markup (text
/// drawn by libvips), which both read the five XML entities.
package enum MarkupText {
  package static func escaped(_ text: String) -> String {
    var result = ""
    for c in text {
      switch c {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(c)
      }
    }
    return result
  }
}
