internal import CVipsShim

/// An owned libvips image: released when the last Swift reference goes away.
/// C pointers stay inside the Imaging folder.
package final class VipsImage: @unchecked Sendable {
  package let pointer: OpaquePointer
  /// The file this image came from, for error messages.
  package let path: String?

  package init(_ pointer: OpaquePointer, path: String?) {
    self.pointer = pointer
    self.path = path
  }

  deinit { cj_unref(pointer) }

  package var width: Int { Int(cj_width(pointer)) }
  package var height: Int { Int(cj_height(pointer)) }
  package var bands: Int { Int(cj_bands(pointer)) }
  var hasAlpha: Bool { cj_has_alpha(pointer) != 0 }
  var isFloat: Bool { cj_is_float(pointer) != 0 }

  /// Runs a shim call that produces a new image, with errors attributed to `operation`.
  func derive(
    _ operation: String, _ body: (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Int32
  ) throws(ImagingError) -> VipsImage {
    var out: OpaquePointer?
    let status = body(pointer, &out)
    try Vips.check(status, operation, path: path)
    guard let out else {
      throw ImagingError(operation: operation, path: path, message: "no image returned")
    }
    return VipsImage(out, path: path)
  }
}
