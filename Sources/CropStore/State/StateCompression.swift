internal import CZstd

/// The state object's compression: Zstandard (libzstd, Debian `libzstd-dev`) at level 1,
/// one frame with its content size. Level 1 because the object is put every upload interval
/// during a run: a 98 MB state (200,000 outputs) compresses to 35 MB in about 0.7 s, where
/// higher levels take twice as long or more for a few percent (the SHA-256 and ETag hex that
/// fill the rows do not compress much below half).
enum StateCompression {
  static let level: Int32 = 1

  /// `bytes` compressed.
  static func compress(_ bytes: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
    let written = output.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { ZSTD_compress(out.baseAddress, out.count, $0.baseAddress, $0.count, level) }
    }
    precondition(ZSTD_isError(written) == 0, "ZSTD_compress failed on a buffer of its own bound")
    return Array(output.prefix(written))
  }

  /// The bytes `compressed` holds, or nil when it is not one Zstandard frame with its size.
  static func decompress(_ compressed: [UInt8]) -> [UInt8]? {
    let size = compressed.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
    // ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR are the two largest values.
    guard size < UInt64.max - 1, size < UInt64(Int.max) else { return nil }
    var output = [UInt8](repeating: 0, count: Int(size))
    let read = output.withUnsafeMutableBytes { out in
      compressed.withUnsafeBytes { ZSTD_decompress(out.baseAddress, out.count, $0.baseAddress, $0.count) }
    }
    guard ZSTD_isError(read) == 0, read == Int(size) else { return nil }
    return output
  }
}
