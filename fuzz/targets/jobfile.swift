// libFuzzer target: job-file bytes through the YAML parser and the spec decoder, with output
// formats checked against what libvips can write (`.libvips`), as `cropjob` checks them.
// Every input must give a job file or diagnostics, never a crash, a hang or unbounded memory.
import CropKit

/// Start-up work outside the timed inputs: libvips, and the one-time probe of the AVIF/HEIF
/// encoders behind `OutputFormat.available` (seconds under ASan, which libFuzzer would
/// otherwise count against the first input and report as a timeout).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  _ = OutputFormat.available
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJobFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let result = JobFileLoader.load(bytes: bytes, path: "fuzz.yaml", formats: .libvips)
  // A job file without diagnostics' errors must exist; one with errors must not.
  let hasErrors = result.diagnostics.contains { $0.severity == .error }
  precondition(hasErrors == (result.jobFile == nil), "jobFile and diagnostics disagree")
  for diagnostic in result.diagnostics { _ = diagnostic.description }
  return 0
}
