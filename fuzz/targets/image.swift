// libFuzzer target: image bytes through cropjob's imaging layer, as a run meets them: the
// header (SourceHeader.read, with the input limits a job applies), then the decode
// (DecodedSource.decode, full size and shrink-on-load). Any input must give an image of the
// header's size or an ImagingError, never a crash, a hang or unbounded memory.
import CropKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One file per fuzzing process, rewritten for every input.
private let path = FileManager.default.temporaryDirectory
  .appendingPathComponent("cropjob-fuzz-image-\(getpid())").path

/// Small enough to keep the fuzzer fast; the CLI's default is 0x3FFF² (docs/reliability.md).
private let maxPixels = 4_000_000

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  Vips.start()
  atexit { unlink(path) }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard fd >= 0 else { fatalError("cannot write \(path)") }
  if let data, size > 0 { _ = write(fd, data, size) }
  close(fd)
  let header: SourceHeader
  do {
    header = try SourceHeader.read(path: path)
  } catch {
    precondition(error.path == path && !error.message.isEmpty, "header error without path or message")
    return 0
  }
  precondition(header.storedWidth > 0 && header.storedHeight > 0, "empty image accepted")
  guard header.width * header.height <= maxPixels, header.pages <= 1000 else { return 0 }
  for shrink in header.format == .jpeg || header.format == .webp ? [1, 2] : [1] {
    do {
      let decoded = try DecodedSource.decode(path: path, header: header, shrink: shrink)
      if shrink == 1 {
        precondition(
          decoded.width == header.width && decoded.height == header.height, "decoded size differs from header")
      }
    } catch {
      precondition(error.path == path && !error.message.isEmpty, "decode error without path or message")
    }
  }
  return 0
}
