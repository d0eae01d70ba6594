import CropKit
import Foundation
import TestSupport
import XCTest

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
    XCTAssertNil(SHA256Digest.none.hexUnlessNone)
    XCTAssertNotEqual(SHA256Digest(hex: text), SHA256Digest(hex: String(text.dropLast()) + "c"))
  }
}
