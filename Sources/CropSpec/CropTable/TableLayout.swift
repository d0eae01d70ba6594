/// Where each column of a crop table goes in the override its row stands for, derived once
/// from the schema table (`JobSchema.cropTable`, its column groups and its ranges). The
/// general decoder builds a row's YAML node by it, the fast decoder takes each cell's rule
/// from it, and the row store rebuilds a row's override by it.
struct TableLayout: Sendable {
  static let shared = TableLayout()

  /// The columns, in the table's order: a column's index is its place here.
  let names = TableColumns.names
  let source: Int
  let job: Int
  /// The mirror columns (`flip`, `scaleX`, `scaleY`): no slot, a row's mirrors are bits.
  let flip: Int
  let scaleX: Int
  let scaleY: Int
  /// The `rotate` column: in a cropper's frame, the crop's own turn.
  let rotate: Int
  /// Bits of the columns a cropper's frame does not have (`angle` and the place columns but
  /// `rotate`).
  let notFramedBits: UInt16
  /// The crop's columns, each with its key in `crop` (`x` is `crop.x`), and by key.
  let crop: [(column: Int, key: String)]
  let cropRect: (x: Int, y: Int, width: Int, height: Int, angle: Int)
  /// The crop's angle when its column is not set.
  let defaultAngle = JobSchema.crop["angle"].defaultNumber
  /// The place columns that are a place field each (`zoom`, `rotate`).
  let singles: [(column: Int, field: String)]
  /// The place columns that make a point `[x, y]` in pairs (`focus_x`, `focus_y`: `focus`).
  let pairs: [(x: Int, y: Int, field: String)]
  /// The columns of numbers, in the table's order, each with its range as the schema table
  /// declares it and its slot among a row's numbers. A crop's columns and the place columns
  /// are never set together in a valid row, so each group numbers its slots from 0.
  let numbers: [(column: Int, range: ClosedRange<Double>, slot: Int)]
  /// Slots a row's numbers take.
  let slotCount: Int
  /// Bits of a row's set columns (bit i: column i): the crop's columns, those a crop
  /// requires, and the place columns.
  let cropBits: UInt16
  let requiredCropBits: UInt16
  let placeBits: UInt16
  /// Each column's slot (-1: a text column).
  let slots: [Int]
  /// The override's fields a row sets, by the bits of its set columns: `crop` and each
  /// single and pair field, as `fieldGroups` names them, and the set of each combination.
  let fieldGroups: [(bits: UInt16, field: String)]
  let fieldSets: [Set<String>]

  init() {
    let names = TableColumns.names
    precondition(names.count <= UInt16.bitWidth, "a row's set columns are the bits of a UInt16")
    func index(_ name: String) -> Int {
      guard let i = names.firstIndex(of: name) else { preconditionFailure("no crop table column \(name)") }
      return i
    }
    source = index("source")
    job = index("job")
    (flip, scaleX, scaleY, rotate) = (index("flip"), index("scaleX"), index("scaleY"), index("rotate"))
    crop = JobSchema.cropTableCropColumns.map { (index($0), $0) }
    cropRect = (index("x"), index("y"), index("width"), index("height"), index("angle"))
    pairs = JobSchema.cropTablePairs.map { (index($0.0), index($0.1), $0.2) }
    let paired = Set(pairs.flatMap { [$0.x, $0.y] })
    // Text columns, and the mirror columns of croppers' frames (read by the general decoder).
    let text = Set((JobSchema.cropTableTextColumns + JobSchema.cropTableFrameColumns).map(index))
    let cropColumns = Set(crop.map(\.column))
    singles = names.indices.filter { !text.contains($0) && !cropColumns.contains($0) && !paired.contains($0) }
      .map { column in
        precondition(JobSchema.place.keys.contains(names[column]), "\(names[column]) is no place field")
        return (column, names[column])
      }
    var numbers: [(Int, ClosedRange<Double>, Int)] = []
    var cropSlots = 0
    var placeSlots = 0
    for column in names.indices where !text.contains(column) {
      // A crop's columns in pixels (the fast decoder reads tables in pixels only).
      let type =
        cropColumns.contains(column) ? JobSchema.crop[names[column]].type : JobSchema.cropTable[names[column]].type
      guard let range = type.numberRange else {
        preconditionFailure("crop table column \(names[column]) is no number")
      }
      if cropColumns.contains(column) {
        numbers.append((column, range, cropSlots))
        cropSlots += 1
      } else {
        numbers.append((column, range, placeSlots))
        placeSlots += 1
      }
    }
    self.numbers = numbers
    slotCount = max(cropSlots, placeSlots)
    func bits(_ columns: some Sequence<Int>) -> UInt16 { columns.reduce(0) { $0 | 1 << $1 } }
    cropBits = bits(cropColumns)
    requiredCropBits = bits(crop.filter { JobSchema.crop[$0.key].required }.map(\.column))
    placeBits = bits(names.indices.filter { !text.contains($0) && !cropColumns.contains($0) })
    notFramedBits = (placeBits & ~(1 << rotate)) | 1 << cropRect.angle
    var slots = Array(repeating: -1, count: names.count)
    for number in numbers { slots[number.0] = number.2 }
    self.slots = slots
    let groups =
      [(cropBits, "crop")] + singles.map { (bits([$0.column]), $0.field) }
      + pairs.map { (bits([$0.x, $0.y]), $0.field) }
    fieldGroups = groups
    fieldSets = (0..<(1 << groups.count)).map { key in
      Set(groups.indices.filter { (key >> $0) & 1 == 1 }.map { groups[$0].1 })
    }
  }

  /// The fields of the override of a valid row whose set columns are `columns`.
  func fields(_ columns: UInt16) -> Set<String> {
    var key = 0
    for (g, group) in fieldGroups.enumerated() where columns & group.bits != 0 { key |= 1 << g }
    return fieldSets[key]
  }

  /// The index of column `name`.
  func column(_ name: String) -> Int {
    guard let i = names.firstIndex(of: name) else { preconditionFailure("no crop table column \(name)") }
    return i
  }
}
