/// A job file's overrides in the order they apply: its crop table's rows (kept compactly,
/// each made into an `Override` when asked for), then its inline `overrides`.
package struct OverrideList: RandomAccessCollection, Sendable {
  /// The crop table's rows.
  package let table: CropTableRows
  /// The inline overrides.
  package let inline: [Override]

  /// The rows of `table`, then `inline`.
  package init(table: CropTableRows = CropTableRows(), inline: [Override] = []) {
    self.table = table
    self.inline = inline
  }

  package var startIndex: Int { 0 }
  package var endIndex: Int { table.count + inline.count }

  package subscript(index: Int) -> Override {
    index < table.count ? table[index] : inline[index - table.count]
  }

  /// Override `index`'s source path, without making the override.
  package func source(at index: Int) -> String {
    index < table.count ? table.source(at: index) : inline[index - table.count].source
  }

  /// Override `index`'s job (nil: every job), without making the override.
  package func job(at index: Int) -> String? {
    index < table.count ? table.job(at: index) : inline[index - table.count].job
  }
}
