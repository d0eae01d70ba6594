/// Path-string helpers with NSString's semantics that never trap.
///
/// swift-corelibs-foundation (Swift 6.3.1) traps inside `String._startOfLastPathComponent` on
/// ordinary strings: `("a" as NSString).deletingLastPathComponent`,
/// `("x///p//" as NSString).pathExtension` (also `lastPathComponent`,
/// `deletingPathExtension`). Job files are written by anyone, so paths from them go through
/// these instead (found by fuzz/targets/jobfile.swift; see docs/reliability.md).
package enum PathText {
  /// `path` without trailing slashes ("/" stays "/", "" stays "").
  static func trimmingTrailingSlashes(_ path: String) -> Substring {
    var end = path.endIndex
    while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
    if end == path.startIndex && !path.isEmpty { return "/" }
    return path[..<end]
  }

  /// NSString.appendingPathComponent, as swift-corelibs-foundation does it (no clean-up of
  /// either part): `component` after `path` with one "/" between them unless `path` already
  /// ends with one; either part alone when the other is empty. Without bridging to NSString
  /// (about 1,900 instructions a call: 4 % of a no-op re-run, which joins paths per source
  /// and per output).
  package static func appending(_ path: String, _ component: String) -> String {
    guard !component.isEmpty else { return path }
    guard !path.isEmpty else { return component }
    var (path, component) = (path, component)
    return path.withUTF8 { head in
      component.withUTF8 { tail in
        let slash = head.last != UInt8(ascii: "/")
        let count = head.count + (slash ? 1 : 0) + tail.count
        // The bytes copied once into the new string (`+=` three times was ~950 instructions).
        return String(unsafeUninitializedCapacity: count) { buffer in
          let bytes = UnsafeMutableRawBufferPointer(buffer)
          bytes.copyMemory(from: UnsafeRawBufferPointer(head))
          if slash { bytes[head.count] = UInt8(ascii: "/") }
          UnsafeMutableRawBufferPointer(rebasing: bytes[(count - tail.count)...]).copyMemory(
            from: UnsafeRawBufferPointer(tail))
          return count
        }
      }
    }
  }

  /// NSString.lastPathComponent: "a/b.jpg" → "b.jpg", "a/b/" → "b", "/" → "/".
  package static func lastComponent(_ path: String) -> String {
    asciiLastComponent(path) ?? lastComponentByCharacters(path)
  }

  /// `lastComponent` of an ASCII path, by its bytes (a batch names a million photos and two
  /// million outputs: walking their characters cost more than the rest of naming them); nil
  /// for any other path. In ASCII each character is one byte, so the answer is the same.
  static func asciiLastComponent(_ path: String) -> String? {
    var path = path
    return path.withUTF8 { bytes -> String? in
      let slash = UInt8(ascii: "/")
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      var end = bytes.count
      while end > 0, bytes[end - 1] == slash { end -= 1 }
      if end == 0 { return bytes.isEmpty ? "" : "/" }
      var start = end
      while start > 0, bytes[start - 1] != slash { start -= 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
  }

  /// `lastComponent`, character by character (any path).
  package static func lastComponentByCharacters(_ path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    if trimmed == "/" { return "/" }
    guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// NSString.deletingLastPathComponent: "a/b.jpg" → "a", "a" → "", "/a" → "/", "a//b" → "a".
  package static func deletingLastComponent(_ path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    if trimmed == "/" { return "/" }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let parent = trimmingTrailingSlashes(String(trimmed[..<slash]))
    if parent.isEmpty { return path.hasPrefix("/") ? "/" : "" }
    return collapsingSlashes(parent)
  }

  /// Runs of "/" as one, as NSString's path methods return them.
  static func collapsingSlashes<S: StringProtocol>(_ path: S) -> String {
    var result = ""
    var previousSlash = false
    for character in path {
      if character == "/" && previousSlash { continue }
      previousSlash = character == "/"
      result.append(character)
    }
    return result
  }

  /// `path` without empty components ("a//b/" → "a/b", "/a" → "a"), and without "." components
  /// with `droppingDots` ("./a/." → "a"); with `keepingRoot`, a leading "/" stays ("/a//b" →
  /// "/a/b"). Components are split at "/" characters (a "/" that a combining mark joins stays
  /// inside its component). A path that is already so is returned as it is, found by its bytes
  /// (`isJoined`): most are, and splitting each of a million paths cost more than naming them.
  package static func joiningComponents(_ path: String, keepingRoot: Bool, droppingDots: Bool) -> String {
    if isJoined(path, keepingRoot: keepingRoot, droppingDots: droppingDots) { return path }
    var parts = path.split(separator: "/", omittingEmptySubsequences: true)
    if droppingDots { parts.removeAll { $0 == "." } }
    return (keepingRoot && path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }

  /// Whether `joiningComponents` gives `path` back: no empty component (no "/" first unless
  /// `keepingRoot`, none last, none doubled) and, with `droppingDots`, no "." component; "" is.
  /// A "/" byte always splits here, so a path this accepts has no such component by characters
  /// either (it may reject one whose "/" a combining mark joins: that one takes the split).
  package static func isJoined(_ path: String, keepingRoot: Bool, droppingDots: Bool) -> Bool {
    var path = path
    return path.withUTF8 { bytes in
      let slash = UInt8(ascii: "/")
      let dot = UInt8(ascii: ".")
      var start = 0
      if keepingRoot, bytes.first == slash {
        if bytes.count == 1 { return true }
        start = 1
      }
      var length = 0  // of the component so far
      var isDot = false  // it is "."
      for byte in bytes[start...] {
        if byte == slash {
          if length == 0 || (droppingDots && isDot) { return false }
          length = 0
        } else {
          isDot = length == 0 && byte == dot
          length += 1
        }
      }
      if length == 0 { return bytes.isEmpty }
      return !(droppingDots && isDot)
    }
  }

  /// NSString.pathExtension: "a/b.JPG" → "JPG", ".hidden" → "", "a." → "", "a.b/" → "b".
  package static func pathExtension(_ path: String) -> String {
    var name = lastComponent(path)
    if let ascii = name.withUTF8({ bytes -> String? in
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return "" }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), as: UTF8.self)
    }) {
      return ascii
    }
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// NSString.deletingPathExtension: "a/b.jpg" → "a/b", "a." → "a", ".hidden" → ".hidden".
  package static func deletingPathExtension(_ path: String) -> String {
    let trimmed = String(trimmingTrailingSlashes(path))
    let name = lastComponent(trimmed)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return collapsingSlashes(trimmed) }
    let removed = name.distance(from: dot, to: name.endIndex)
    return collapsingSlashes(trimmed.dropLast(removed))
  }
}
