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
      ])
    }
    XCTAssertEqual(digests[0][0], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(digests[0][1], "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    XCTAssertEqual(digests[0], digests[1])
    let oracle = try Subprocess.run("/usr/bin/sha256sum", [file.path]).stdout
    XCTAssertEqual(String(oracle.prefix(64)), digests[1][2])
  }
}
