import CropGeometry

/// A crop table's rows, kept compactly: a row of a crop takes about 90 bytes (its path,
/// its job, which columns it sets, six numbers and its line) where an `Override` value with
/// its path takes about 300. A row's override is made when it is asked for, as the general
/// decoder would have made it (`CropTableDifferentialTests` compares them).
package struct CropTableRows: Sendable {
  private static let layout = TableLayout.shared
  /// The job file's jobs, in the order it declares them (a row's job is an index here).
  private let jobNames: [String]
  /// The table's frame and units (each row's crop is in them).
  private let settings: CropTableSettings
  /// The rows' paths, one after another, and where each ends.
  private var sourceBytes: [UInt8] = []
  private var sourceEnds: [Int] = []
  /// 0: every job; i: `jobNames[i - 1]`.
  private var jobs: [UInt32] = []
  /// The set columns of numbers (bit i: column i); 0 for a row in `decoded`.
  private var columns: [UInt16] = []
  /// `slotCount` numbers a row (`TableLayout.numbers`).
  private var numbers: [Double] = []
  private var lines: [UInt32] = []
  /// Each row's mirrors (`TableRowValues.mirrors`).
  private var mirrors: [UInt8] = []
  /// Rows the general decoder read, whole (all of them with `CropTableDecoding.general`).
  private var decoded: [Int: Override] = [:]

  /// No rows.
  package init() {
    jobNames = []
    settings = CropTableSettings()
  }

  init(jobs: [String], settings: CropTableSettings) {
    jobNames = jobs
    self.settings = settings
  }

  package var count: Int { lines.count }
  /// Bytes taken by the paths of the rows.
  var sourceByteCount: Int { sourceBytes.count }
  /// How many rows the general decoder read (what tests check the fast decoder against).
  package var generalRowCount: Int { decoded.count }

  /// Row `index`'s override.
  package subscript(index: Int) -> Override {
    if let override = decoded[index] { return override }
    let layout = Self.layout
    let bits = columns[index]
    let base = index * layout.slotCount
    func value(_ column: Int) -> Double? { (bits >> column) & 1 == 1 ? numbers[base + layout.slots[column]] : nil }
    var place = PlaceSpec()
    // In a cropper's frame `rotate` is the crop's own turn, and its mirror replaces the job's.
    let framed = settings.frame != .upright
    if bits & layout.cropBits != 0 {
      let c = layout.cropRect
      place.crop = CropRect(
        x: value(c.x) ?? 0, y: value(c.y) ?? 0, width: value(c.width) ?? 0, height: value(c.height) ?? 0,
        angle: value(framed ? layout.rotate : c.angle) ?? layout.defaultAngle)
    }
    var fields: Set<String> = framed ? ["crop", "flip"] : layout.fields(bits)
    for (column, field) in framed ? [] : layout.singles {
      guard let v = value(column) else { continue }
      switch field {
      case "zoom": place.zoom = v
      case "rotate": place.rotate = v
      default: preconditionFailure("no place field \(field) for a crop table column")
      }
    }
    for (x, y, field) in layout.pairs {
      guard let vx = value(x), let vy = value(y) else { continue }
      switch field {
      case "focus": place.focus = .point(Point(x: vx, y: vy))
      case "offset": place.offset = Point(x: vx, y: vy)
      default: preconditionFailure("no place field \(field) for crop table columns")
      }
    }
    let m = mirrors[index]
    if m & 4 != 0 {
      (place.flipHorizontal, place.flipVertical) = (m & 1 != 0, m & 2 != 0)
      fields.insert("flip")
    }
    var override = Override(
      job: job(at: index), source: source(at: index), place: place, fields: fields,
      mark: SourceMark(line: Int(lines[index]), column: 1))
    if !settings.isPlain, let crop = place.crop {
      override.framedCrop = FramedCrop(
        frame: settings.frame, units: settings.units, x: crop.x, y: crop.y, width: crop.width, height: crop.height,
        rotate: crop.angle, flipHorizontal: framed && place.flipHorizontal, flipVertical: framed && place.flipVertical)
    }
    return override
  }

  /// Row `index`'s source path, as written.
  package func source(at index: Int) -> String {
    withSource(at: index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Row `index`'s job; nil for every job.
  package func job(at index: Int) -> String? {
    jobs[index] == 0 ? nil : jobNames[Int(jobs[index]) - 1]
  }

  /// Row `index`'s job: 0 for every job, else its job's place in the job file plus one.
  func jobCode(at index: Int) -> UInt32 { jobs[index] }

  /// The line row `index` starts on.
  func line(at index: Int) -> Int { Int(lines[index]) }

  /// Calls `body` with the bytes of row `index`'s source path.
  func withSource<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let start = index == 0 ? 0 : sourceEnds[index - 1]
    return sourceBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<sourceEnds[index]])) }
  }

  /// Makes room for `rows` rows whose paths take `sourceBytes` bytes.
  mutating func reserve(rows: Int, sourceBytes bytes: Int) {
    sourceBytes.reserveCapacity(bytes)
    sourceEnds.reserveCapacity(rows)
    jobs.reserveCapacity(rows)
    columns.reserveCapacity(rows)
    numbers.reserveCapacity(rows * Self.layout.slotCount)
    lines.reserveCapacity(rows)
    mirrors.reserveCapacity(rows)
  }

  /// Adds the row of `values`, decoded from `row`, which starts on `line`.
  mutating func append(_ values: TableRowValues, of row: TableRowCells, line: Int) {
    row.withBytes(values.source) { sourceBytes.append(contentsOf: $0) }
    sourceEnds.append(sourceBytes.count)
    jobs.append(values.job)
    columns.append(values.columns)
    for slot in 0..<Self.layout.slotCount { numbers.append(values.numbers[slot]) }
    lines.append(UInt32(clamping: line))
    mirrors.append(values.mirrors)
  }

  /// Adds a row the general decoder read: its override, and its job as `jobCode(at:)` gives it.
  mutating func append(_ override: Override, job: UInt32) {
    decoded[count] = override
    sourceBytes.append(contentsOf: override.source.utf8)
    sourceEnds.append(sourceBytes.count)
    jobs.append(job)
    columns.append(0)
    numbers.append(contentsOf: repeatElement(0, count: Self.layout.slotCount))
    lines.append(UInt32(clamping: override.mark.line))
    mirrors.append(0)
  }
}
