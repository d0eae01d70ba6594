import CropPlan
import CropSpec
import XCTest

/// Shard balance over the layouts users have: a shard function whose parts are empty on a
/// product catalogue sends a whole batch array's work to one task.
final class ShardBalanceTests: XCTestCase {
  /// Adversarial path layouts, each `count` paths long.
  static func layouts(count: Int) -> [(name: String, paths: [String])] {
    let prefix = "../../mnt/archive/" + String(repeating: "customer-uploads/2024/originals/", count: 6)
    return [
      // A catalogue: the SKU repeated in folder and file, which cancelled out in FNV-1a's low bits.
      ("catalogue", (0..<count).map { "shoes/SKU\(100_000 + 7 * $0)/SKU\(100_000 + 7 * $0).jpg" }),
      ("one folder", (0..<count).map { "photos/IMG_\(String(1000 + $0)).JPG" }),
      ("name repeated", (0..<count).map { "p\($0)/p\($0)/p\($0).jpg" }),
      // A camera or scanner counting in a constant step.
      ("numeric step", (0..<count).map { "scans/\(String(10 * $0)).png" }),
      ("long common prefix", (0..<count).map { "\(prefix)photo-\($0).jpg" }),
    ]
  }

  /// Every shard of 2, 3, 4, 8, 16 and 100 holds within ±25 % of the mean, in every layout.
  /// 40,000 paths: a uniformly random assignment gives 100 shards a mean of 400 and a standard
  /// deviation of 20, so ±25 % is 5 σ and an ideal hash passes; with 1,000 paths (mean 10,
  /// σ 3.2) even an ideal hash would fail, so fewer paths would test luck, not the hash.
  func testEveryShardIsWithinAQuarterOfTheMeanOnAdversarialLayouts() {
    for (name, paths) in Self.layouts(count: 40_000) {
      for count in [2, 3, 4, 8, 16, 100] {
        var sizes = [Int](repeating: 0, count: count)
        for path in paths { sizes[Shard.index(of: path, count: count)] += 1 }
        let mean = Double(paths.count) / Double(count)
        let worst = sizes.map { abs(Double($0) - mean) / mean }.max()!
        XCTAssertLessThanOrEqual(
          worst, 0.25,
          "\(name) over \(count) shards: \(count <= 16 ? "\(sizes)" : "min \(sizes.min()!) max \(sizes.max()!)")")
      }
    }
  }

  /// The catalogue of the report, 1,200 photos: over 4 shards FNV-1a gave 0/0/1200/0.
  func testACatalogueOf1200PhotosFillsEveryShard() {
    let paths = Self.layouts(count: 1200)[0].paths
    for count in [4, 8] {
      var sizes = [Int](repeating: 0, count: count)
      for path in paths { sizes[Shard.index(of: path, count: count)] += 1 }
      // σ of a fair split is about 14 for 8 shards of 150: ±25 % is 2.6 σ.
      XCTAssertTrue(
        sizes.allSatisfy { abs(Double($0) - 1200.0 / Double(count)) <= 0.25 * 1200.0 / Double(count) }, "\(sizes)")
    }
  }

  /// `contains` and `index(of:count:)` agree: each path is in exactly one shard.
  func testEachPathIsInExactlyOneShard() {
    for path in Self.layouts(count: 200).flatMap(\.paths) {
      let owners = (0..<7).filter { Shard(index: $0, count: 7).contains(path) }
      XCTAssertEqual(owners, [Shard.index(of: path, count: 7)], path)
    }
  }
}
