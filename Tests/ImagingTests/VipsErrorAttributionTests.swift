import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40, point 3: libvips keeps one error buffer for the process, so one file's failure
/// carried lines another thread's reads had left there ("source: bad seek to N" from two
/// AVIFs in a truncated PNG's failure). Each failure now carries only what its own thread
/// raised (Sources/CVipsShim/cj_errors.c).
final class VipsErrorAttributionTests: XCTestCase {
  func testAFailureCarriesNoOtherThreadsLibvipsErrors() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truncated = folder.appendingPathComponent("truncated.png").path
    let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sample("cat.png")))
    try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: truncated))
    let header = try SourceHeader.read(path: truncated)
    // Another thread's libvips call fails and leaves its error in libvips' buffer, as a
    // read of another file that nobody asked the error of does. (libvips' C API through
    // dlsym: importing CVips here would make `VipsImage` ambiguous in this test target.)
    typealias OpenSource = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    typealias Buffer = @convention(c) () -> UnsafePointer<CChar>?
    typealias Clear = @convention(c) () -> Void
    let open = unsafeBitCast(try XCTUnwrap(dlsym(nil, "vips_source_new_from_file")), to: OpenSource.self)
    let buffer = unsafeBitCast(try XCTUnwrap(dlsym(nil, "vips_error_buffer")), to: Buffer.self)
    let clear = unsafeBitCast(try XCTUnwrap(dlsym(nil, "vips_error_clear")), to: Clear.self)
    let done = DispatchSemaphore(value: 0)
    let other = Thread {
      _ = open("/no/such/folder/other-file.avif")
      done.signal()
    }
    other.start()
    done.wait()
    let text = buffer().map { String(cString: $0) } ?? ""
    XCTAssertTrue(text.contains("other-file.avif"), "the other thread's error is in libvips' buffer: \(text)")
    defer { clear() }
    XCTAssertThrowsError(try DecodedSource.decode(path: truncated, header: header, shrink: 1)) { error in
      let message = "\(error)"
      XCTAssertTrue(message.contains("truncated.png"), message)
      XCTAssertFalse(message.contains("other-file.avif"), "another file's libvips error: \(message)")
    }
  }
}
