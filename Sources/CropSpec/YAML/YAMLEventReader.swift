internal import CYAML

/// One libyaml parse event, in Swift terms (marks already 1-based).
enum YAMLEvent {
  case documentStart(SourceMark)
  case documentEnd
  case scalar(String, ScalarStyle, tag: String?, anchor: String?, mark: SourceMark)
  case sequenceStart(tag: String?, anchor: String?, mark: SourceMark)
  case sequenceEnd
  case mappingStart(tag: String?, anchor: String?, mark: SourceMark)
  case mappingEnd
  case alias(String, mark: SourceMark)
}

/// Drives libyaml's event parser over a byte buffer. This is the only place that sees C
/// types: events are converted, and libyaml errors translated, before anything leaves.
enum YAMLEventReader {
  /// Calls `handle` for each event, in order, until the stream ends, libyaml reports an
  /// error, or `handle` throws (which stops libyaml at once).
  static func read(
    _ source: YAMLSource, _ handle: (YAMLEvent) throws(YAMLError) -> Void
  ) throws(YAMLError) {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) != 0 else {
      throw YAMLError(
        message: "cannot initialize the YAML parser (out of memory)",
        mark: SourceMark(line: 1, column: 1))
    }
    defer { yaml_parser_delete(&parser) }
    try source.bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> Void in
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      while true {
        guard yaml_parser_parse(&parser, &event) != 0 else {
          throw translateError(parser, source)
        }
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT { return }
        if let converted = convert(event) { try handle(converted) }
      }
    }
  }

  private static func mark(_ mark: yaml_mark_t) -> SourceMark {
    SourceMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
  }

  /// Shortens tags of the YAML core schema to the `!!` form they are usually written in.
  private static func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let full = string(pointer) else { return nil }
    let core = "tag:yaml.org,2002:"
    return full.hasPrefix(core) ? "!!" + full.dropFirst(core.count) : full
  }

  private static func convert(_ event: yaml_event_t) -> YAMLEvent? {
    let start = mark(event.start_mark)
    switch event.type {
    case YAML_DOCUMENT_START_EVENT:
      return .documentStart(start)
    case YAML_DOCUMENT_END_EVENT:
      return .documentEnd
    case YAML_SCALAR_EVENT:
      let data = event.data.scalar
      let text =
        data.value.map {
          String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
        } ?? ""
      let style: ScalarStyle
      switch data.style {
      case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .quoted
      case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .literal
      default: style = .plain
      }
      return .scalar(
        text, style, tag: tag(data.tag), anchor: string(data.anchor), mark: start)
    case YAML_SEQUENCE_START_EVENT:
      let data = event.data.sequence_start
      return .sequenceStart(tag: tag(data.tag), anchor: string(data.anchor), mark: start)
    case YAML_SEQUENCE_END_EVENT:
      return .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      let data = event.data.mapping_start
      return .mappingStart(tag: tag(data.tag), anchor: string(data.anchor), mark: start)
    case YAML_MAPPING_END_EVENT:
      return .mappingEnd
    case YAML_ALIAS_EVENT:
      return .alias(string(event.data.alias.anchor) ?? "", mark: start)
    default:
      return nil  // stream start (and stream end, handled by the caller)
    }
  }

  private static func translateError(_ parser: yaml_parser_t, _ source: YAMLSource)
    -> YAMLError
  {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown YAML error"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return YAMLError(
        message: "out of memory while parsing YAML", mark: SourceMark(line: 1, column: 1))
    case YAML_READER_ERROR:
      var message = problem
      if parser.problem_value != -1 {
        message += " (value 0x\(String(parser.problem_value, radix: 16, uppercase: true)))"
      }
      return YAMLError(message: message, mark: source.mark(atOffset: parser.problem_offset))
    default:
      let at = mark(parser.problem_mark)
      if parser.error == YAML_SCANNER_ERROR, let tab = source.indentationTab(near: at) {
        return YAMLError(
          message: "tabs are not allowed for indentation; indent with spaces", mark: tab)
      }
      var message = problem
      if let context = parser.context.map({ String(cString: $0) }) {
        message += " (\(context) at \(mark(parser.context_mark)))"
      }
      return YAMLError(message: message, mark: at)
    }
  }
}
