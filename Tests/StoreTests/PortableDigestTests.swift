import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `SHA256.usePortableCode` (what `CROPJOB_PORTABLE_SHA256` sets in `cropjob`): libcrypto is
/// left alone and the portable code gives the same digests (FIPS 180-2 test vectors, and a
/// file read in chunks).
final class PortableDigestTests: XCTestCase {
  func testThePortableSwitchTurnsLibcryptoOffAndKeepsTheDigests() throws {
    defer { SHA256.usePortableCode(false) }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(repeating: 0x61, count: 3 << 20 | 17).write(to: file)
    var digests: [[String]] = []
    for portable in [false, true] {
      SHA256.usePortableCode(portable)
      if portable { XCTAssertFalse(SHA256.usesLibcrypto) }
      digests.append([
        SHA256.hex(Array("abc".utf8)),
        SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
        try SHA256.hex(fileAt: file.path),
        SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)),
      ])
    }
    XCTAssertEqual(digests[0][3], "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    XCTAssertEqual(digests[0][0], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(digests[0][1], "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    XCTAssertEqual(digests[0], digests[1])
    let oracle = try Subprocess.run("/usr/bin/sha256sum", [file.path]).stdout
    XCTAssertEqual(String(oracle.prefix(64)), digests[1][2])
  }

  /// Buffers are hashed by libcrypto's SHA256_Init/Update/Final (Debian's libcrypto 3 has them;
  /// where one lacks them, by the portable code, as without libcrypto) and, with the portable
  /// switch, by the portable code: both give FIPS 180 vectors and Python's `hashlib` digests of
  /// seeded random buffers of every length from 0 to 200 bytes (all the block boundaries) and
  /// of a few larger ones.
  func testBufferDigestsAreFIPSAndPythonsDigests() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    guard SHA256.usesLibcrypto else { throw Skipped.because("libcrypto cannot be loaded here") }
    guard let crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else {
      throw Skipped.because("no libcrypto.so.3")
    }
    defer { dlclose(crypto) }
    for symbol in ["SHA256_Init", "SHA256_Update", "SHA256_Final"] {
      XCTAssertNotNil(dlsym(crypto, symbol), "\(symbol): the libcrypto half would be the portable code")
    }
    defer { SHA256.usePortableCode(false) }
    let fips: [(String, String)] = [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ]
    var random = SeededRandom(seed: 180)
    let lengths = Array(0...200) + [1_000, 4_095, 65_543, 1 << 20 | 3]
    let buffers =
      fips.map { Array($0.0.utf8) } + lengths.map { (0..<$0).map { _ in UInt8.random(in: 0...255, using: &random) } }
    let file = TestPaths.scratch().appendingPathComponent("buffers")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    try Data(buffers.joined()).write(to: file)
    let script = """
      import hashlib, sys
      data = open(sys.argv[1], "rb").read()
      at = 0
      for n in map(int, sys.argv[2:]):
          print(hashlib.sha256(data[at:at + n]).hexdigest())
          at += n
      """
    let run = try Subprocess.run(python, ["-c", script, file.path] + buffers.map { String($0.count) })
    XCTAssertEqual(run.status, 0, run.stderr)
    let pythons = run.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(pythons.count, buffers.count)
    XCTAssertEqual(Array(pythons.prefix(fips.count)), fips.map(\.1))
    for portable in [false, true] {
      SHA256.usePortableCode(portable)
      XCTAssertEqual(SHA256.usesLibcrypto, !portable)
      for (index, buffer) in buffers.enumerated() where index < pythons.count {
        XCTAssertEqual(SHA256.hex(buffer), pythons[index], "\(buffer.count) bytes, portable \(portable)")
      }
    }
  }

  /// A digest held in 32 bytes (`SHA256Digest`, a source's recorded hash in the plan's table)
  /// gives back the very text it was made from, and only 64 lowercase hex digits make one.
  func testDigestsKeptInThirtyTwoBytesGiveTheirTextBack() {
    let text = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    XCTAssertEqual(SHA256Digest(hex: text)?.hex, text)
    XCTAssertEqual(SHA256Digest(hex: text)?.hexUnlessNone, text)
    XCTAssertEqual(
      SHA256Digest(hex: String(repeating: "0", count: 63) + "f")?.hex, String(repeating: "0", count: 63) + "f")
    XCTAssertNil(SHA256Digest(hex: text.uppercased()))
    XCTAssertNil(SHA256Digest(hex: String(text.dropLast())))
    XCTAssertNil(SHA256Digest(hex: text + "0"))
    XCTAssertNil(SHA256Digest(hex: String(text.dropLast()) + "g"))
    XCTAssertNil(SHA256Digest(hex: String(text.dropLast(2)) + "é"))  // 64 bytes, not all hex digits
    XCTAssertNil(SHA256Digest.none.hexUnlessNone)
    XCTAssertNotEqual(SHA256Digest(hex: text), SHA256Digest(hex: String(text.dropLast()) + "c"))
  }

  /// The planner's path hashes (`HashSet64.hash`) are 64-bit FNV-1a over the UTF-8 bytes: the
  /// published test vectors (and a path with a non-ASCII name).
  func testPathHashesAreFNV1a() {
    XCTAssertEqual(HashSet64.hash(""), 0xcbf2_9ce4_8422_2325)
    XCTAssertEqual(HashSet64.hash("a"), 0xaf63_dc4c_8601_ec8c)
    XCTAssertEqual(HashSet64.hash("foobar"), 0x8594_4171_f739_67e8)
    var expected: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "/work/out/café/ü.png".utf8 { expected = (expected ^ UInt64(byte)) &* 0x100_0000_01b3 }
    XCTAssertEqual(HashSet64.hash("/work/out/café/ü.png"), expected)
  }
}
