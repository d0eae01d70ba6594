extension RandomAccessCollection {
  /// The index of the first element for which `isAfter` holds, in a collection where every
  /// element for which it holds comes after every element for which it does not (a binary
  /// search: `endIndex` when it holds for none).
  package func partitionPoint(where isAfter: (Element) -> Bool) -> Index {
    var low = startIndex
    var length = count
    while length > 0 {
      let half = length / 2
      let middle = index(low, offsetBy: half)
      if isAfter(self[middle]) {
        length = half
      } else {
        low = index(after: middle)
        length -= half + 1
      }
    }
    return low
  }
}

extension [UInt64] {
  /// Whether the sorted array holds `value` (a binary search).
  package func containsSorted(_ value: UInt64) -> Bool {
    let found = partitionPoint { $0 >= value }
    return found < count && self[found] == value
  }
}
