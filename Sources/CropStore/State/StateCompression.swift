internal import CZstd
import CropSupport
import Glibc

/// The state object's compression: Zstandard (libzstd, Debian `libzstd-dev`) at level 1,
/// one frame with its content size and a checksum. Level 1 because the object is put every
/// upload interval during a run: a 98 MB state (200,000 outputs) compresses to 35 MB in about
/// 0.7 s, where higher levels take twice as long or more for a few percent (the SHA-256 and
/// ETag hex that fill the rows do not compress much below half).
///
/// Both ways stream between the state file and the compressed bytes in chunks of 1 MiB, so
/// the uncompressed state is never held in memory: a worker holds the compressed object only
/// (175 bytes an output), whatever the batch.
package enum StateCompression {
  package static let level: Int32 = 1
  /// The size of the chunks read from a file or written to one.
  package static let chunk = 1 << 20

  /// The file at `path` compressed; nil when it cannot be read.
  package static func compress(file path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    guard let context = ZSTD_createCCtx() else { return nil }
    defer { ZSTD_freeCCtx(context) }
    ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    ZSTD_CCtx_setPledgedSrcSize(context, UInt64(info.st_size))
    var compressed: [UInt8] = []
    var input = [UInt8](repeating: 0, count: chunk)
    var output = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
    while true {
      let count = input.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      let end = count == 0
      let done = input.withUnsafeBytes { source -> Bool in
        var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: count, pos: 0)
        while true {
          let (left, written) = output.withUnsafeMutableBytes { target -> (Int, Int) in
            var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
            let left = ZSTD_compressStream2(context, &outBuffer, &inBuffer, end ? ZSTD_e_end : ZSTD_e_continue)
            return (left, outBuffer.pos)
          }
          guard ZSTD_isError(left) == 0 else { return false }
          compressed.append(contentsOf: output.prefix(written))
          if end ? left == 0 : inBuffer.pos == inBuffer.size { return true }
        }
      }
      guard done else { return nil }
      if end { return compressed }
    }
  }

  /// Why `decompress(_:toFile:)` wrote no file.
  package enum Failure: Error {
    /// The bytes are not one whole Zstandard frame.
    case notAFrame
    /// The file could not be written (`AtomicWriter`'s message).
    case cannotWrite(String)
  }

  /// Writes what `compressed` holds to a new file at `path`, replacing one there, through
  /// `AtomicWriter` (its folder created; not fsynced): the whole frame, or no file.
  package static func decompress(_ compressed: [UInt8], toFile path: String) throws(Failure) {
    var notAFrame = false
    do throws(AtomicWriter.WriteError) {
      try AtomicWriter.write(to: path, durable: false) { (emit) throws(AtomicWriter.WriteError) in
        guard try decompress(compressed, emit: emit) else {
          notAFrame = true
          throw AtomicWriter.WriteError(path: path, message: "not one Zstandard frame")
        }
      }
    } catch {
      throw notAFrame ? .notAFrame : .cannotWrite(error.message)
    }
  }

  /// Passes what `compressed` holds to `emit`, a chunk at a time; false when it is not one
  /// whole Zstandard frame (what was passed is then to be dropped).
  private static func decompress(
    _ compressed: [UInt8], emit: ([UInt8]) throws(AtomicWriter.WriteError) -> Void
  ) throws(AtomicWriter.WriteError) -> Bool {
    guard let context = ZSTD_createDCtx() else { return false }
    defer { ZSTD_freeDCtx(context) }
    var output = [UInt8](repeating: 0, count: chunk)
    var read = 0
    var left = 1
    // A frame ends when ZSTD_decompressStream returns 0 with everything flushed; input left
    // after it (a second frame, trailing bytes) or a frame cut short is not a state object.
    while left != 0 {
      let (result, written) = compressed.withUnsafeBytes { source in
        output.withUnsafeMutableBytes { target -> (Int, Int) in
          var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: read)
          var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
          let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
          read = inBuffer.pos
          return (result, outBuffer.pos)
        }
      }
      guard ZSTD_isError(result) == 0 else { return false }
      try emit(written == output.count ? output : Array(output.prefix(written)))
      left = result
      if left != 0 && read == compressed.count && written < output.count { return false }
    }
    return read == compressed.count
  }
}
