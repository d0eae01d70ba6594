import CropExecute
import CropKit
import Foundation
import TestSupport
import XCTest

/// The prefetcher of sources in object storage, over a store that counts its reads and how
/// many are in flight (the local store underneath, each read made slow): every object is
/// read once whoever asks first, the bytes are the object's, and no more objects are fetched
/// ahead than the bound allows.
final class ObjectPrefetchTests: XCTestCase {
  /// `LocalStorage` whose reads take 3 ms and are counted.
  final class CountingStore: ObjectStorage, @unchecked Sendable {
    let local: LocalStorage
    let lock = NSLock()
    var reads: [String: Int] = [:]
    var inFlight = 0
    var peakInFlight = 0

    init(root: String) { local = LocalStorage(root: root) }

    var displayName: String { "counting" }
    var statsAreRequests: Bool { true }
    func list(prefix: String, pageSize: Int) -> any ObjectPages { local.list(prefix: prefix, pageSize: pageSize) }
    func stat(_ key: String) throws(StorageError) -> ObjectInfo? { try local.stat(key) }
    func write(_ bytes: [UInt8], to key: String, options: WriteOptions) throws(StorageError) -> WrittenObject {
      try local.write(bytes, to: key, options: options)
    }
    func delete(_ key: String) throws(StorageError) { try local.delete(key) }
    func read(_ key: String, range: ByteRange?) throws(StorageError) -> [UInt8] {
      lock.withLock {
        reads[key, default: 0] += 1
        inFlight += 1
        peakInFlight = max(peakInFlight, inFlight)
      }
      usleep(3000)
      defer { lock.withLock { inFlight -= 1 } }
      return try local.read(key, range: range)
    }
  }

  func testEachObjectIsReadOnceWithinTheBound() throws {
    let folder = TestPaths.scratch()
    let store = CountingStore(root: folder.path)
    var entries: [(source: Int, object: SourceObject)] = []
    for i in 0..<40 {
      let key = "p\(i).jpg"
      let bytes = [UInt8](repeating: UInt8(i), count: 1000 + i)
      try Data(bytes).write(to: folder.appendingPathComponent(key))
      let info = try XCTUnwrap(try store.local.stat(key))
      entries.append((source: i * 2, object: SourceObject(store: store, info: info)))
    }
    let order = entries
    // At most 3 objects or 3,100 bytes ahead (3 objects of 1,000 to 1,039 bytes).
    let prefetch = ObjectPrefetch(order: order, maxBytes: 3100, maxAhead: 3, fetchers: 4)
    let taken = LockedBox([Int: [UInt8]]())
    // Two workers take the tasks in order; every fifth task needs no bytes (all up to date).
    let next = LockedBox(0)
    WorkerPool.runWorkers(2) {
      while true {
        let index = next.withLock { value -> Int in
          value += 1
          return value - 1
        }
        guard index < order.count else { return }
        let (source, object) = order[index]
        if index % 5 == 0 {
          prefetch.discard(source)
          continue
        }
        usleep(2000)  // "decoding" the one before
        let bytes = try? prefetch.bytes(of: source, object)
        taken.withLock { $0[index] = bytes }
      }
    }
    prefetch.stop()
    for index in 0..<order.count where index % 5 != 0 {
      XCTAssertEqual(taken.withLock { $0[index] }, [UInt8](repeating: UInt8(index), count: 1000 + index))
    }
    for (key, count) in store.reads { XCTAssertEqual(count, 1, "\(key) read \(count) times") }
    for index in order.indices where index % 5 != 0 { XCTAssertEqual(store.reads["p\(index).jpg"], 1) }
    XCTAssertLessThanOrEqual(store.peakInFlight, 3 + 2, "3 ahead by the bound, and the 2 workers' own reads")
  }

  func testFetchersReadAheadTogetherUpToTheBound() throws {
    let folder = TestPaths.scratch()
    let store = CountingStore(root: folder.path)
    var order: [(source: Int, object: SourceObject)] = []
    for i in 0..<8 {
      try Data([UInt8](repeating: UInt8(i), count: 100)).write(to: folder.appendingPathComponent("p\(i).jpg"))
      order.append(
        (source: i, object: SourceObject(store: store, info: try XCTUnwrap(try store.local.stat("p\(i).jpg")))))
    }
    // No worker asks yet: the fetchers alone read the first 4 (the bound), several at once.
    let prefetch = ObjectPrefetch(order: order, maxAhead: 4, fetchers: 4)
    let deadline = Date().addingTimeInterval(10)
    while store.lock.withLock({ store.reads.count }) < 4 && Date() < deadline { usleep(1000) }
    usleep(20_000)
    XCTAssertEqual(store.lock.withLock { store.reads.count }, 4, "4 objects fetched ahead, no more")
    XCTAssertGreaterThanOrEqual(store.peakInFlight, 2, "the fetches overlap")
    for (source, object) in order {
      XCTAssertEqual(try prefetch.bytes(of: source, object), [UInt8](repeating: UInt8(source), count: 100))
    }
    prefetch.stop()
    XCTAssertEqual(store.reads.count, 8)
    for (key, count) in store.reads { XCTAssertEqual(count, 1, "\(key) read \(count) times") }
  }
}
