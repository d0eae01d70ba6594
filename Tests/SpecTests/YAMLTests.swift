import CropSpec
import Dispatch
import Foundation
import TestSupport
import XCTest

final class YAMLTests: XCTestCase {
  // MARK: - Helpers

  private func parse(
    _ text: String, limits: YAMLLimits = .init(), file: StaticString = #filePath,
    line: UInt = #line
  ) -> YAMLNode? {
    do {
      return try YAMLParser.parse(text, limits: limits)
    } catch {
      XCTFail("unexpected error \(error)", file: file, line: line)
      return nil
    }
  }

  private func failure(
    _ bytes: [UInt8], limits: YAMLLimits = .init(), file: StaticString = #filePath,
    line: UInt = #line
  ) -> YAMLError? {
    do {
      let node = try YAMLParser.parse(bytes, limits: limits)
      XCTFail("expected an error, parsed \(String(describing: node))", file: file, line: line)
      return nil
    } catch {
      return error
    }
  }

  private func failure(
    _ text: String, limits: YAMLLimits = .init(), file: StaticString = #filePath,
    line: UInt = #line
  ) -> YAMLError? {
    failure(Array(text.utf8), limits: limits, file: file, line: line)
  }

  private func mark(_ line: Int, _ column: Int) -> SourceMark {
    SourceMark(line: line, column: column)
  }

  /// Scalar texts of a sequence's items.
  private func texts(_ node: YAMLNode?) -> [String?] {
    node?.sequence?.map(\.scalar) ?? []
  }

  /// Keys and scalar values of a mapping, in order.
  private func entries(_ node: YAMLNode?) -> [String] {
    node?.mapping?.map { "\($0.key.scalar ?? "?")=\($0.value.scalar ?? "…")" } ?? []
  }

  // MARK: - Structure, marks, styles, tags

  func testMarksOfKeysValuesAndItems() throws {
    let root = try XCTUnwrap(
      parse(
        """
        version: 1
        jobs:
          avatar:
            sources:
              - "a/*.jpg"
              - b/*.png
            guide: {shape: circle, size: 256}
        """))
    XCTAssertEqual(root.mark, mark(1, 1))
    let pairs = try XCTUnwrap(root.mapping)
    XCTAssertEqual(pairs.map(\.key.mark), [mark(1, 1), mark(2, 1)])
    XCTAssertEqual(pairs[0].value.mark, mark(1, 10))
    let avatarPair = try XCTUnwrap(root["jobs"]?.mapping?.first)
    XCTAssertEqual(avatarPair.key.mark, mark(3, 3))
    let avatar = avatarPair.value
    XCTAssertEqual(avatar.mark, mark(4, 5))
    let sources = try XCTUnwrap(avatar["sources"])
    XCTAssertEqual(sources.mark, mark(5, 7))
    XCTAssertEqual(sources.sequence?.map(\.mark), [mark(5, 9), mark(6, 9)])
    XCTAssertEqual(texts(sources), ["a/*.jpg", "b/*.png"])
    let guide = try XCTUnwrap(avatar["guide"])
    XCTAssertEqual(guide.mark, mark(7, 12))
    XCTAssertEqual(guide.mapping?.map(\.key.mark), [mark(7, 13), mark(7, 28)])
    XCTAssertEqual(guide.mapping?.map(\.value.mark), [mark(7, 20), mark(7, 34)])
    XCTAssertEqual(entries(guide), ["shape=circle", "size=256"])
  }

  func testColumnsCountCharactersNotBytes() throws {
    let root = try XCTUnwrap(parse("été: [ñ, x]\n"))
    let pair = try XCTUnwrap(root.mapping?.first)
    XCTAssertEqual(pair.value.mark, mark(1, 6))
    XCTAssertEqual(pair.value.sequence?.map(\.mark), [mark(1, 7), mark(1, 10)])
  }

  func testScalarStylesAndText() throws {
    let root = try XCTUnwrap(
      parse(
        """
        - plain
        - 'single'
        - "double\\tescape"
        - |
          literal
          text
        - >
          folded
          text
        - 12
        -
        """))
    let items = try XCTUnwrap(root.sequence)
    XCTAssertEqual(
      items.map(\.scalarStyle), [.plain, .quoted, .quoted, .literal, .literal, .plain, .plain])
    XCTAssertEqual(
      items.map(\.scalar),
      ["plain", "single", "double\tescape", "literal\ntext\n", "folded text\n", "12", ""])
    XCTAssertEqual(items.map(\.mark.line), [1, 2, 3, 4, 7, 10, 11])
  }

  func testTagsAreKept() throws {
    let root = try XCTUnwrap(parse("- !!str 1\n- !local x\n- !!map {a: 1}\n- untagged\n"))
    XCTAssertEqual(root.sequence?.map(\.tag), ["!!str", "!local", "!!map", nil])
    XCTAssertEqual(root.sequence?.first?.scalar, "1")
  }

  func testNestedStructures() throws {
    let root = try XCTUnwrap(
      parse(
        """
        outputs:
          - path: a.jpg
            scales: [1, 2, [3, {deep: yes}]]
          - {path: b.png, encode: {format: png}}
        """))
    let outputs = try XCTUnwrap(root["outputs"]?.sequence)
    XCTAssertEqual(outputs.count, 2)
    XCTAssertEqual(outputs[0].mark, mark(2, 5))
    XCTAssertEqual(outputs[0]["path"]?.scalar, "a.jpg")
    let scales = try XCTUnwrap(outputs[0]["scales"]?.sequence)
    XCTAssertEqual(scales.count, 3)
    XCTAssertEqual(scales[2].sequence?[1]["deep"]?.scalar, "yes")
    XCTAssertEqual(scales[2].sequence?[1]["deep"]?.mark, mark(3, 31))
    XCTAssertEqual(outputs[1]["encode"]?["format"]?.scalar, "png")
    XCTAssertEqual(outputs[1].mark, mark(4, 5))
  }

  func testEmptyInputsGiveNil() throws {
    for text in ["", "\n\n", "# only a comment\n  # another\n", "---\n", "--- # c\n...\n"] {
      XCTAssertNil(try YAMLParser.parse(text), text.debugDescription)
    }
    XCTAssertNil(try YAMLParser.parse([0xEF, 0xBB, 0xBF]))
    XCTAssertEqual(try YAMLParser.parse("--- ''")?.scalarStyle, .quoted)
  }

  func testByteOrderMarkIsAllowed() throws {
    let root = try XCTUnwrap(try YAMLParser.parse([0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8)))
    XCTAssertEqual(root.mapping?.first?.key.mark, mark(1, 1))
    XCTAssertEqual(root["a"]?.mark, mark(1, 4))
  }

  // MARK: - Anchors, aliases, merge keys

  func testAliasesExpandToCopiesWithTheAliasMark() throws {
    let root = try XCTUnwrap(
      parse(
        """
        base: &b {fit: cover, zoom: 2}
        one: *b
        list: [&s hello, *s]
        """))
    let one = try XCTUnwrap(root["one"])
    XCTAssertEqual(one.mark, mark(2, 6))
    XCTAssertEqual(entries(one), ["fit=cover", "zoom=2"])
    XCTAssertEqual(one.mapping?.first?.key.mark, mark(1, 11), "children keep their own marks")
    let list = try XCTUnwrap(root["list"]?.sequence)
    XCTAssertEqual(list.map(\.scalar), ["hello", "hello"])
    XCTAssertEqual(list.map(\.mark), [mark(3, 8), mark(3, 18)])
  }

  func testAnchorRedefinitionUsesTheLatest() throws {
    let root = try XCTUnwrap(parse("- &a one\n- *a\n- &a two\n- *a\n"))
    XCTAssertEqual(texts(root), ["one", "one", "two", "two"])
  }

  func testMergeKeyExplicitKeysWin() throws {
    let root = try XCTUnwrap(
      parse(
        """
        base: &base {fit: cover, zoom: 2, rotate: 0}
        job:
          zoom: 3
          <<: *base
          focus: top
        """))
    let job = try XCTUnwrap(root["job"])
    XCTAssertEqual(entries(job), ["zoom=3", "fit=cover", "rotate=0", "focus=top"])
    XCTAssertEqual(job["zoom"]?.mark, mark(3, 9))
    XCTAssertEqual(job["fit"]?.mark, mark(1, 19), "merged pairs keep the anchor's marks")
  }

  func testMergeKeyWithSequenceEarlierMappingsWin() throws {
    let root = try XCTUnwrap(
      parse(
        """
        a: &a {x: 1, y: 1}
        b: &b {y: 2, z: 2}
        c:
          <<: [*a, *b]
          z: 3
        d:
          <<: {inline: yes}
        """))
    XCTAssertEqual(entries(root["c"]), ["x=1", "y=1", "z=3"])
    XCTAssertEqual(entries(root["d"]), ["inline=yes"])
  }

  func testQuotedMergeKeyIsAnOrdinaryKey() throws {
    let root = try XCTUnwrap(parse("\"<<\": 1\n<<: {a: 2}\n"))
    XCTAssertEqual(entries(root), ["<<=1", "a=2"])
  }

  func testMergeKeyNeedsMappings() throws {
    let scalar = try XCTUnwrap(failure("a: &a 5\nb:\n  <<: *a\n"))
    XCTAssertEqual(scalar.mark, mark(3, 7))
    XCTAssertTrue(scalar.message.contains("expects a mapping"), scalar.message)
    let inList = try XCTUnwrap(failure("a: &a {x: 1}\nb:\n  <<: [*a, [1]]\n"))
    XCTAssertEqual(inList.mark, mark(3, 12))
  }

  func testTwoMergeKeysAreDuplicates() throws {
    let error = try XCTUnwrap(failure("a: &a {x: 1}\nb:\n  <<: *a\n  <<: *a\n"))
    XCTAssertEqual(
      error, YAMLError(message: "duplicate key \"<<\" (first at 3:3)", mark: mark(4, 3)))
  }

  func testUnknownAlias() throws {
    let error = try XCTUnwrap(failure("a: 1\nb: *nope\n"))
    XCTAssertEqual(error.mark, mark(2, 4))
    XCTAssertTrue(error.message.contains("unknown alias *nope"), error.message)
  }

  func testRecursiveAlias() throws {
    let error = try XCTUnwrap(failure("a: &x [1, *x]\n"))
    XCTAssertEqual(error.mark, mark(1, 11))
  }

  // MARK: - Keys and documents

  func testDuplicateKeys() throws {
    XCTAssertEqual(
      failure("a: 1\nb: 2\na: 3\n"),
      YAMLError(message: "duplicate key \"a\" (first at 1:1)", mark: mark(3, 1)))
    XCTAssertEqual(
      failure("outer:\n  {k: 1, \"k\": 2}\n"),
      YAMLError(message: "duplicate key \"k\" (first at 2:4)", mark: mark(2, 10)))
    // The same key in different mappings is fine.
    XCTAssertNotNil(parse("a: {k: 1}\nb: {k: 1}\n"))
  }

  func testMergedKeysAreNotDuplicates() throws {
    let root = try XCTUnwrap(parse("a: &a {k: 1}\nb:\n  <<: *a\n  k: 2\n"))
    XCTAssertEqual(entries(root["b"]), ["k=2"])
  }

  func testNonScalarKeys() throws {
    let flow = try XCTUnwrap(failure("[a, b]: 1\n"))
    XCTAssertEqual(flow.mark, mark(1, 1))
    XCTAssertTrue(flow.message.contains("mapping keys must be scalars"), flow.message)
    let explicit = try XCTUnwrap(failure("ok: 1\n? {a: 1}\n: 2\n"))
    XCTAssertEqual(explicit.mark, mark(2, 3))
    XCTAssertTrue(explicit.message.contains("found a mapping"), explicit.message)
    let alias = try XCTUnwrap(failure("a: &m [1]\n*m : 2\n"))
    XCTAssertEqual(alias.mark, mark(2, 1))
    // A scalar alias as a key is fine.
    XCTAssertEqual(entries(parse("a: &k name\n*k : 2\n")), ["a=name", "name=2"])
  }

  func testSecondDocumentIsRejected() throws {
    let error = try XCTUnwrap(failure("a: 1\n---\nb: 2\n"))
    XCTAssertEqual(error.mark, mark(2, 1))
    XCTAssertTrue(error.message.contains("second YAML document"), error.message)
    XCTAssertEqual(failure("--- a\n...\n--- b\n")?.mark, mark(3, 1))
  }

  // MARK: - Hostile input

  func testInputLargerThanMaxBytes() throws {
    var limits = YAMLLimits()
    limits.maxBytes = 16
    let error = try XCTUnwrap(failure("key: 0123456789abcdef\n", limits: limits))
    XCTAssertEqual(error.mark, mark(1, 1))
    XCTAssertTrue(error.message.contains("22 bytes"), error.message)
    XCTAssertTrue(error.message.contains("16 bytes"), error.message)
    XCTAssertNil(try YAMLParser.parse("# 16 bytes.....\n", limits: limits))
    let big = [UInt8](repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)
    XCTAssertEqual(failure(big)?.mark, mark(1, 1))
  }

  func testInvalidUTF8IsRejectedWithItsPosition() throws {
    let cases: [([UInt8], SourceMark)] = [
      (Array("a: ".utf8) + [0xFF], mark(1, 4)),
      (Array("a: 1\nb: \"é".utf8) + [0xC3, 0x28, 0x22], mark(2, 6)),  // bad continuation
      (Array("a: 1\r\nb: ".utf8) + [0xE2, 0x82], mark(2, 4)),  // truncated at the end
      (Array("x: ".utf8) + [0xC0, 0xAF], mark(1, 4)),  // overlong
      (Array("x: ".utf8) + [0xED, 0xA0, 0x80], mark(1, 4)),  // surrogate
      (Array("x: ".utf8) + [0xF4, 0x90, 0x80, 0x80], mark(1, 4)),  // beyond U+10FFFF
      ([0xFE, 0xFF, 0x00, 0x61], mark(1, 1)),  // UTF-16
    ]
    for (bytes, expected) in cases {
      let error = try XCTUnwrap(failure(bytes), "\(bytes)")
      XCTAssertEqual(error.mark, expected, "\(bytes): \(error)")
      XCTAssertTrue(error.message.contains("UTF-8"), error.message)
    }
  }

  func testNULBytesAreRejected() throws {
    let error = try XCTUnwrap(failure(Array("a: 1\nb: x".utf8) + [0] + Array("y\n".utf8)))
    XCTAssertEqual(error.mark, mark(2, 5))
    XCTAssertTrue(error.message.contains("NUL"), error.message)
  }

  func testControlCharactersAreRejectedWithPosition() throws {
    let error = try XCTUnwrap(failure("a: 1\nb: \u{1}\n"))
    XCTAssertEqual(error.mark, mark(2, 4))
  }

  func testTabsInIndentation() throws {
    let cases: [(String, SourceMark)] = [
      ("a:\n\tb: 1\n", mark(2, 1)),
      ("a:\n  b: 1\n\tc: 2\n", mark(3, 1)),
      ("a:\n  \tb: 1\n", mark(2, 3)),
      ("a: b\n\tc\n", mark(2, 1)),
      ("-\tb\n", mark(1, 2)),
      ("\t- a\n", mark(1, 1)),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(
        failure(text),
        YAMLError(
          message: "tabs are not allowed for indentation; indent with spaces", mark: expected),
        text.debugDescription)
    }
  }

  func testTabsOutsideIndentationAreFine() throws {
    XCTAssertEqual(entries(parse("a: 1\t# comment\nb:\t2\n")), ["a=1", "b=2"])
    XCTAssertEqual(texts(parse("[\n\tx,\ty]\n")), ["x", "y"])
    XCTAssertEqual(parse("a: \"tab\there\"\n")?["a"]?.scalar, "tab\there")
    XCTAssertEqual(parse("a: |\n  x\n  \ty\n")?["a"]?.scalar, "x\n\ty\n")
  }

  func testDepthLimit() throws {
    var limits = YAMLLimits()
    limits.maxDepth = 3
    XCTAssertNotNil(parse("[[[x]]]", limits: limits))
    XCTAssertEqual(failure("[[[[x]]]]", limits: limits)?.mark, mark(1, 4))
    XCTAssertEqual(failure("a:\n  b:\n    c:\n      d: 1\n", limits: limits)?.mark, mark(4, 7))
    XCTAssertEqual(failure("- - - - x\n", limits: limits)?.mark, mark(1, 7))
    // Expanding an alias counts the levels it brings in.
    let viaAlias = try XCTUnwrap(failure("a: &a [[1]]\nb: [*a]\n", limits: limits))
    XCTAssertEqual(viaAlias.mark, mark(2, 5))
    XCTAssertTrue(viaAlias.message.contains("deeper than 3"), viaAlias.message)
  }

  func testHundredThousandNestedBracketsFailFast() throws {
    let text = String(repeating: "[", count: 100_000)
    let start = Date()
    let error = try XCTUnwrap(failure(text))
    let elapsed = Date().timeIntervalSince(start)
    XCTAssertLessThan(elapsed, 15, "took \(elapsed) s (a hang guard, not a speed assertion)")
    XCTAssertEqual(error.mark, mark(1, 65))
    XCTAssertTrue(error.message.contains("deeper than 64"), error.message)

    let block = String(repeating: "- ", count: 100_000) + "x\n"
    let blockStart = Date()
    XCTAssertEqual(failure(block)?.mark, mark(1, 129))
    XCTAssertLessThan(Date().timeIntervalSince(blockStart), 15, "a hang guard, not a speed assertion")
  }

  func testBillionLaughsIsRejected() throws {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    var text =
      "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
    for (previous, name) in zip(names, names.dropFirst()) {
      let aliases = Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
      text += "\(name): &\(name) [\(aliases)]\n"
    }
    let start = Date()
    let error = try XCTUnwrap(failure(text))
    XCTAssertLessThan(Date().timeIntervalSince(start), 15, "a hang guard, not a speed assertion")
    XCTAssertTrue(error.message.contains("more than 100000 nodes"), error.message)
    XCTAssertEqual(error.mark, mark(6, 8), "the first alias of f pushes the count past the limit")
  }

  func testNodeLimitCountsExpandedAliases() throws {
    var limits = YAMLLimits()
    limits.maxNodes = 10
    // 1 mapping + 2 keys + 1 sequence + 3 items = 7; the alias adds 4 more.
    XCTAssertNotNil(parse("a: &s [1, 2, 3]\nb: 1\n", limits: limits))
    let error = try XCTUnwrap(failure("a: &s [1, 2, 3]\nb: *s\n", limits: limits))
    XCTAssertEqual(error.mark, mark(2, 4))
  }

  func testTooManyAliases() throws {
    let items = Array(repeating: "*x", count: 101).joined(separator: ", ")
    let error = try XCTUnwrap(failure("a: &x 1\nb: [\(items)]\n"))
    XCTAssertEqual(error.mark, mark(2, 5 + 100 * 4))
    XCTAssertTrue(error.message.contains("more than 100 alias"), error.message)
    let hundred = Array(repeating: "*x", count: 100).joined(separator: ", ")
    XCTAssertEqual(parse("a: &x 1\nb: [\(hundred)]\n")?["b"]?.sequence?.count, 100)
  }

  // MARK: - libyaml errors

  func testSyntaxErrorsAreTranslated() throws {
    let error = try XCTUnwrap(failure("a: 1\nb: [1, 2\nc: 3\n"))
    XCTAssertGreaterThanOrEqual(error.mark.line, 2)
    XCTAssertTrue(error.message.contains("expected"), error.message)
    XCTAssertTrue(error.message.contains("at 2:4"), "context mark: \(error.message)")

    let mapping = try XCTUnwrap(failure("a: 1\n b: 2\n"))
    XCTAssertEqual(mapping.mark, mark(2, 3))
    XCTAssertEqual(mapping.message, "mapping values are not allowed in this context")
  }

  // MARK: - yaml-test-suite

  /// Invalid inputs that libyaml 0.2.5 accepts (it is lenient about these), so they parse.
  private static let knownAcceptedInvalid: Set<String> = [
    "9C9N",  // flow sequence lines indented less than the key
    "9JBA",  // comment right after `]` without a space
    "CVW2",  // comment right after `,` without a space
    "DK95/01",  // tab at the start of a quoted scalar's continuation line
    "G5U8",  // plain `-` items in a flow sequence
    "MUS6/00",  // `%YAML 1.1#...`: comment without a space in a directive
    "QB6E",  // quoted scalar continuation lines indented less than the key
    "S98Z",  // block scalar whose leading empty lines are more indented than content
    "SU5Z",  // comment right after a double-quoted scalar without a space
    "X4QW",  // comment right after a block scalar indicator without a space
    "Y79Y/003",  // tab before an item of a multi-line flow sequence
    "YJV2",  // `[-]`
  ]

  /// Valid inputs that libyaml 0.2.5 refuses: its own known failures of the suite (tabs as
  /// separation, flow keys on a later line, `:` adjacent in flow, directive forms, empty keys).
  /// The job-file language's own restrictions (one document per file, scalar keys) are apart:
  /// `jobFileRestrictions`.
  private static let knownRefusedValid: Set<String> = [
    "2JQS",  // did not find expected key
    "2LFX",  // found unknown directive name
    "2SXE",  // mapping values are not allowed in this context
    "4ABK",  // found unexpected ':'
    "4MUZ/00",  // did not find expected ',' or '}'
    "4MUZ/01",  // did not find expected ',' or '}'
    "4MUZ/02",  // did not find expected ',' or '}'
    "58MP",  // did not find expected node content
    "5MUD",  // did not find expected ',' or '}'
    "5T43",  // did not find expected node content
    "6BCT",  // tabs are not allowed for indentation; indent with spaces
    "6CA3",  // tabs are not allowed for indentation; indent with spaces
    "6LVF",  // found unknown directive name
    "6M2F",  // did not find expected key
    "7Z25",  // did not find expected <document start>
    "8XYN",  // did not find expected alphabetic or numeric character
    "96NN/00",  // tabs are not allowed for indentation; indent with spaces
    "96NN/01",  // tabs are not allowed for indentation; indent with spaces
    "9SA2",  // did not find expected ',' or '}'
    "A2M4",  // tabs are not allowed for indentation; indent with spaces
    "BEC7",  // found incompatible YAML document
    "CFD4",  // did not find expected node content
    "DBG4",  // did not find expected node content
    "DK3J",  // did not find expected <document start>
    "DK95/00",  // tabs are not allowed for indentation; indent with spaces
    "DK95/03",  // tabs are not allowed for indentation; indent with spaces
    "DK95/04",  // tabs are not allowed for indentation; indent with spaces
    "FP8R",  // did not find expected <document start>
    "FRK4",  // found unexpected ':'
    "HM87/00",  // did not find expected node content
    "HWV9",  // did not find expected node content
    "K3WX",  // did not find expected ',' or '}'
    "M7A3",  // did not find expected <document start>
    "MUS6/05",  // found unknown directive name
    "MUS6/06",  // found unknown directive name
    "NHX8",  // did not find expected key
    "NJ66",  // did not find expected ',' or '}'
    "NKF9",  // did not find expected key
    "Q5MG",  // tabs are not allowed for indentation; indent with spaces
    "QT73",  // did not find expected node content
    "R4YG",  // tabs are not allowed for indentation; indent with spaces
    "S3PD",  // did not find expected key
    "SM9W/01",  // did not find expected key
    "UKK6/00",  // did not find expected key
    "UT92",  // did not find expected ',' or '}'
    "VJP3/01",  // did not find expected ',' or '}'
    "W4TN",  // could not find expected directive name
    "W5VH",  // did not find expected alphabetic or numeric character
    "Y79Y/001",  // tabs are not allowed for indentation; indent with spaces
    "Y79Y/010",  // tabs are not allowed for indentation; indent with spaces
  ]

  /// What the job-file reader refuses on purpose in valid YAML: a second document, and keys
  /// that are not scalars. Every refused valid input has one of these messages or is listed in
  /// `knownRefusedValid`.
  private static let jobFileRestrictions = [
    "found a second YAML document; expected exactly one document per file",
    "mapping keys must be scalars",
  ]

  private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<YAMLNode?, YAMLError>?
    var value: Result<YAMLNode?, YAMLError>? {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    func set(_ result: Result<YAMLNode?, YAMLError>) {
      lock.lock()
      stored = result
      lock.unlock()
    }
  }

  /// Parses on another thread; nil when it does not finish within `seconds`.
  private func parseBounded(_ bytes: [UInt8], seconds: Double) -> Result<YAMLNode?, YAMLError>? {
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do throws(YAMLError) {
        outcome.set(.success(try YAMLParser.parse(bytes)))
      } catch {
        outcome.set(.failure(error))
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return outcome.value
  }

  /// The YAML test suite's data: Tests/Corpora's copy, or YAML_TEST_SUITE_DATA (an upstream
  /// checkout's `data` folder, to try a newer suite).
  private var yamlTestSuiteData: URL {
    ProcessInfo.processInfo.environment["YAML_TEST_SUITE_DATA"].map { URL(fileURLWithPath: $0) }
      ?? Corpora.yamlTestSuite
  }

  func testYAMLTestSuite() throws {
    let data = yamlTestSuiteData
    let fileManager = FileManager.default
    let inputs = Corpora.yamlTestSuiteInputs(in: data)
    XCTAssertGreaterThan(inputs.count, 300)

    var errorCases = 0
    var validCases = 0
    var rejected = 0
    var accepted: Set<String> = []
    var refusedValid: Set<String> = []
    for input in inputs {
      let folder = input.deletingLastPathComponent()
      let id = String(folder.path.dropFirst(data.path.count + 1))
      let expectsError = fileManager.fileExists(
        atPath: folder.appendingPathComponent("error").path)
      let bytes = Array(try Data(contentsOf: input))
      guard let result = parseBounded(bytes, seconds: 5) else {
        XCTFail("\(id): no result within 5 s")
        continue
      }
      if case .failure(let error) = result {
        XCTAssertGreaterThanOrEqual(error.mark.line, 1, "\(id): \(error)")
        XCTAssertGreaterThanOrEqual(error.mark.column, 1, "\(id): \(error)")
        XCTAssertFalse(error.message.isEmpty, id)
      }
      guard expectsError else {
        validCases += 1
        if case .failure(let error) = result,
          !Self.jobFileRestrictions.contains(where: { error.message.hasPrefix($0) })
        {
          refusedValid.insert(id)
        }
        continue
      }
      errorCases += 1
      switch result {
      case .failure: rejected += 1
      case .success: accepted.insert(id)
      }
    }
    XCTAssertEqual(accepted, Self.knownAcceptedInvalid, "invalid inputs that parsed")
    XCTAssertEqual(refusedValid, Self.knownRefusedValid, "valid inputs that were refused")
    XCTAssertEqual(rejected + accepted.count, errorCases)
    XCTAssertGreaterThan(errorCases, 80)
    XCTAssertGreaterThan(validCases, 250)
    print(
      "yaml-test-suite: \(inputs.count) inputs, \(validCases) valid (\(refusedValid.count) refused by libyaml), "
        + "\(errorCases) invalid (\(rejected) rejected)")
  }
}
