internal import CSystem
import Foundation

/// SHA-256 (FIPS 180-4), for content hashes and output keys. Foundation on Linux has none.
/// The one-shot digests (`hex`) go through the system's libcrypto when it can be loaded at run
/// time (CPU SHA extensions: hashing the sources was 15-20 % of a thumbnail run's CPU with the
/// portable code below, which stays as the fallback and for incremental use).
package struct SHA256 {
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]
  private var buffer: [UInt8] = []
  private var length: UInt64 = 0

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  package init() {}

  package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    length += UInt64(bytes.count)
    if bytes.withContiguousStorageIfAvailable({ absorb(UnsafeRawBufferPointer($0)) }) == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { absorb($0) }
    }
  }

  /// Hashes whole blocks straight from `input` (no copy), keeping only the tail in `buffer`.
  private mutating func absorb(_ input: UnsafeRawBufferPointer) {
    var rest = input
    if !buffer.isEmpty {
      let take = min(64 - buffer.count, rest.count)
      buffer.append(contentsOf: rest.prefix(take))
      rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(take))
      guard buffer.count == 64 else { return }
      let block = buffer
      block.withUnsafeBytes { compress(blocks: $0) }
      buffer.removeAll(keepingCapacity: true)
    }
    let whole = rest.count / 64 * 64
    if whole > 0 { compress(blocks: UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
    if whole < rest.count { buffer.append(contentsOf: rest.dropFirst(whole)) }
  }

  package mutating func finalize() -> [UInt8] {
    let bitLength = length * 8
    var tail: [UInt8] = [0x80]
    while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
    for i in (0..<8).reversed() { tail.append(UInt8((bitLength >> (UInt64(i) * 8)) & 0xff)) }
    let saved = length
    update(tail)
    length = saved
    return state.flatMap { word in (0..<4).reversed().map { UInt8((word >> (UInt32($0) * 8)) & 0xff) } }
  }

  /// Compresses `blocks.count / 64` blocks. The working state stays in locals and the message
  /// schedule on the stack (an earlier version allocated it per block: 3x slower on sources).
  private mutating func compress(blocks: UnsafeRawBufferPointer) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      Self.k.withUnsafeBufferPointer { k in
        var offset = 0
        while offset + 64 <= blocks.count {
          for i in 0..<16 {
            w[i] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + i * 4, as: UInt32.self))
          }
          for i in 16..<64 {
            let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] &>> 3)
            let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] &>> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          for i in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
          }
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
          offset += 64
        }
      }
    }
    state = [h0, h1, h2, h3, h4, h5, h6, h7]
  }

  /// Whether digests are made by the system's libcrypto (loaded at run time when present),
  /// else by this type's portable code: the same digests, more slowly.
  package static var usesLibcrypto: Bool { cj_sha256_available() != 0 }

  /// With `portable`, libcrypto is not used for any digest of this process from now on
  /// (comparisons; `cropjob` sets it from `CROPJOB_PORTABLE_SHA256`), until called with false.
  package static func usePortableCode(_ portable: Bool) { cj_sha256_set_portable(portable ? 1 : 0) }

  /// Hex digest of `bytes`.
  package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    if cj_sha256_available() != 0,
      let digest = bytes.withContiguousStorageIfAvailable({ p -> [UInt8]? in
        var out = [UInt8](repeating: 0, count: 32)
        return cj_sha256_buffer(p.baseAddress, p.count, &out) == 0 ? out : nil
      }) ?? nil
    {
      return hexString(digest)
    }
    var hasher = SHA256()
    hasher.update(bytes)
    return hexString(hasher.finalize())
  }

  /// Hex digest of a file, read in 1 MiB chunks into one reused buffer.
  package static func hex(fileAt path: String) throws -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    switch cj_sha256_file(path, &digest) {
    case 0: return hexString(digest)
    case -1: throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    default: break  // libcrypto unavailable: portable code
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { close(fd) }
    var hasher = SHA256()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let n = read(fd, chunk.baseAddress, chunk.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
      }
      if n == 0 { break }
      hasher.length += UInt64(n)
      hasher.absorb(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
    }
    return hexString(hasher.finalize())
  }
}

/// `digest` as lowercase hex digits (also `SHA256Digest.hex`).
func hexString(_ digest: [UInt8]) -> String {
  // Written straight into the string's storage (an intermediate array was ~1,000
  // instructions a digest, two digests per output key).
  String(unsafeUninitializedCapacity: digest.count * 2) { text in
    let digits: StaticString = "0123456789abcdef"
    digits.withUTF8Buffer { digits in
      for (i, byte) in digest.enumerated() {
        text[2 * i] = digits[Int(byte >> 4)]
        text[2 * i + 1] = digits[Int(byte & 15)]
      }
    }
    return digest.count * 2
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self &>> n) | (self &<< (32 &- n)) }
}
