/// A valid row's values, decoded straight from its cells.
struct TableRowValues {
  /// The `source` cell (its bytes are in the row).
  var source: TableCell
  /// 0: every job; i: the job file's job i − 1, in the order it declares them.
  var job: UInt32
  /// The set columns of numbers: bit i is column i.
  var columns: UInt16
  /// The numbers, by slot (`TableLayout.numbers`).
  var numbers: SIMD8<Double>
  /// The mirrors (`flip`, or `scaleX` and `scaleY`): bit 0 left-right, bit 1 top-bottom,
  /// bit 2 set when the row gives them.
  var mirrors: UInt8
}

/// Decodes a crop table row's cells straight into the values of the override it stands for,
/// with no YAML node and no string: each cell by its column's rule in `TableLayout` (the
/// schema table's type and range; a crop's in the table's units), then the row's rules
/// (`JobSchema.cropTableRules`, and in a cropper's frame: a crop, its turn and mirrors). It
/// takes only a row it proves valid by the checks the general decoder makes; any other row,
/// one with a problem to report, goes to the general decoder (`TableRowShape`), which words
/// every message. `CropTableDifferentialTests` holds the two to the same results.
struct TableRowFastDecoder {
  let layout = TableLayout.shared
  /// The job file's job names, as bytes, in the order it declares them.
  let jobNames: [[UInt8]]
  /// Whether the rows are crops in a cropper's frame.
  let framed: Bool
  /// Each number column's range (the crop's in the table's units), by column.
  let ranges: [ClosedRange<Double>?]
  /// The flip names and their mirror bits.
  static let flips: [([UInt8], UInt8)] = [("horizontal", 1), ("vertical", 2), ("both", 3), ("none", 0)].map {
    (Array($0.0.utf8), $0.1)
  }

  init(jobs: [String], settings: CropTableSettings) {
    precondition(layout.slotCount <= SIMD8<Double>.scalarCount, "a row's numbers fit in a SIMD8")
    jobNames = jobs.map { Array($0.utf8) }
    framed = settings.frame != .upright
    var ranges = [ClosedRange<Double>?](repeating: nil, count: layout.names.count)
    for (column, range, _) in layout.numbers { ranges[column] = range }
    for (column, key) in layout.crop where key != "angle" {
      ranges[column] = JobSchema.cropTableRange(key, units: settings.units)
    }
    self.ranges = ranges
  }

  /// The values of `row` when it is valid; nil when it may not be (the general decoder says).
  func decode(_ row: TableRowCells) -> TableRowValues? {
    row.bytes.withUnsafeBufferPointer { bytes in decode(row.cells, bytes) }
  }

  private func decode(_ cells: [TableCell?], _ bytes: UnsafeBufferPointer<UInt8>) -> TableRowValues? {
    func text(_ cell: TableCell) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
    }
    // A path or a name: a CSV cell or a JSON string, not empty (a JSON number, `true` or
    // `null` there asks for quotes).
    func isString(_ cell: TableCell) -> Bool {
      (cell.kind == .csv || cell.kind == .jsonString) && cell.end > cell.start
    }
    guard let source = cells[layout.source], isString(source) else { return nil }
    // Mirrors: a flip name, or Cropper.js's scales (1, or -1 for a mirror) in its frames.
    var mirrors: UInt8 = 0
    if let cell = cells[layout.flip] {
      guard cells[layout.scaleX] == nil, cells[layout.scaleY] == nil, isString(cell),
        let bits = Self.flips.first(where: { $0.0.elementsEqual(text(cell)) })?.1
      else { return nil }
      mirrors = bits | 4
    }
    for (column, bit) in [(layout.scaleX, UInt8(1)), (layout.scaleY, UInt8(2))] {
      guard let cell = cells[column] else { continue }
      guard framed, cell.kind == .csv || cell.kind == .jsonNumber, let value = NodeReader.numberValue(text(cell)),
        value == 1 || value == -1
      else { return nil }
      mirrors |= (value == -1 ? bit : 0) | 4
    }
    var job: UInt32 = 0
    if let cell = cells[layout.job] {
      guard isString(cell), let index = jobNames.firstIndex(where: { $0.elementsEqual(text(cell)) }) else {
        return nil
      }
      job = UInt32(index + 1)
    }
    var columns: UInt16 = 0
    var numbers = SIMD8<Double>()
    for (column, _, slot) in layout.numbers {
      guard let cell = cells[column] else { continue }
      // A number: a CSV cell or a JSON number, as YAML's plain scalar reads it, in range.
      guard cell.kind == .csv || cell.kind == .jsonNumber, let value = NodeReader.numberValue(text(cell)),
        ranges[column]!.contains(value)
      else { return nil }
      numbers[slot] = value
      columns |= 1 << column
    }
    // In a cropper's frame a row is a crop, with its turn (`rotate`) and mirrors only.
    if framed {
      guard columns & layout.requiredCropBits == layout.requiredCropBits, columns & layout.notFramedBits == 0 else {
        return nil
      }
      return TableRowValues(source: source, job: job, columns: columns, numbers: numbers, mirrors: mirrors)
    }
    // Something is set; a crop is all of its required columns and nothing of place; a
    // point is both of its columns.
    guard columns != 0 || mirrors != 0 else { return nil }
    if columns & layout.cropBits != 0 {
      guard columns & layout.requiredCropBits == layout.requiredCropBits, columns & layout.placeBits == 0 else {
        return nil
      }
    }
    for (x, y, _) in layout.pairs where (columns >> x) & 1 != (columns >> y) & 1 { return nil }
    return TableRowValues(source: source, job: job, columns: columns, numbers: numbers, mirrors: mirrors)
  }
}
