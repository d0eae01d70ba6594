internal import CVipsShim
import CropGeometry
import CropPlan
import CropSpec

/// Interleaved 8-bit pixels in Swift memory (row-major, `bands` bytes a pixel): what the
/// preview draws on, and the bridge between libvips images and plain arrays.
package struct Raster: Sendable, Equatable {
  package var width: Int
  package var height: Int
  /// 1 (grey or mask), 3 (RGB) or 4 (RGBA).
  package var bands: Int
  package var pixels: [UInt8]

  /// A raster filled with one colour (`colour.count` must equal `bands`).
  package init(width: Int, height: Int, colour: [UInt8]) {
    self.width = width
    self.height = height
    bands = colour.count
    var row: [UInt8] = []
    row.reserveCapacity(width * colour.count)
    for _ in 0..<width { row += colour }
    pixels = []
    pixels.reserveCapacity(width * height * colour.count)
    for _ in 0..<height { pixels += row }
  }

  package init(width: Int, height: Int, bands: Int, pixels: [UInt8]) {
    precondition(
      pixels.count == width * height * bands, "Raster: \(pixels.count) bytes for \(width)x\(height)x\(bands)")
    self.width = width
    self.height = height
    self.bands = bands
    self.pixels = pixels
  }

  /// The bytes of pixel (x, y).
  package func pixel(x: Int, y: Int) -> [UInt8] {
    let i = (y * width + x) * bands
    return Array(pixels[i..<i + bands])
  }

  /// Encodes as PNG (`compression`: zlib level 0…9; `palette`: 8-bit palette through
  /// libimagequant, about a third of the size, slightly dithered).
  package func pngBytes(palette: Bool = false, compression: Int = 6) throws(ImagingError) -> [UInt8] {
    let image = try vipsImage()
    var options = EncodeOptions(format: .png)
    options.palette = palette
    options.compression = compression
    return try ImageEncoder.encode(image, options: options, quality: 90)
  }

  /// Decodes image bytes (any format libvips reads) into a raster, for tests and tools.
  package static func decode(path: String) throws(ImagingError) -> Raster {
    Vips.start()
    var out: OpaquePointer?
    try Vips.check(cj_load(path, 1, 0, 1, &out), "load", path: path)
    guard let out else { throw ImagingError(operation: "load", path: path, message: "no image") }
    let image = VipsImage(out, path: path)
    return try image.raster()
  }

  package func vipsImage() throws(ImagingError) -> VipsImage {
    Vips.start()
    var out: OpaquePointer?
    let status = pixels.withUnsafeBytes {
      cj_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), &out)
    }
    try Vips.check(status, "raster", path: nil)
    guard let out else { throw ImagingError(operation: "raster", path: nil, message: "no image") }
    return VipsImage(out, path: nil)
  }
}

extension VipsImage {
  /// Copies the pixels of an 8-bit image into Swift memory.
  func raster() throws(ImagingError) -> Raster {
    // 8-bit images are cast as they are; others are clipped (cropjob's own images are 8-bit).
    let image = try derive("cast") { cj_cast_uchar($0, $1) }
    var data: UnsafeMutableRawPointer?
    var size = 0
    try Vips.check(cj_write_to_memory(image.pointer, &data, &size), "read pixels", path: path)
    guard let data else { throw ImagingError(operation: "read pixels", path: path, message: "no pixels") }
    defer { cj_free(data) }
    let count = image.width * image.height * image.bands
    guard size >= count else {
      throw ImagingError(operation: "read pixels", path: path, message: "\(size) bytes for \(count) pixels")
    }
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    return Raster(width: image.width, height: image.height, bands: image.bands, pixels: bytes)
  }
}

extension Renderer {
  /// The raw pixel bytes of an image in any band format, with its size and format (for tests
  /// that compare floats bit for bit).
  package static func pixelBytes(_ image: VipsImage) throws(ImagingError) -> (width: Int, height: Int, bytes: [UInt8]) {
    var data: UnsafeMutableRawPointer?
    var size = 0
    try Vips.check(cj_write_to_memory(image.pointer, &data, &size), "read pixels", path: image.path)
    guard let data else { throw ImagingError(operation: "read pixels", path: image.path, message: "no pixels") }
    defer { cj_free(data) }
    return (image.width, image.height, Array(UnsafeRawBufferPointer(start: data, count: size)))
  }

  /// The pixels of an image the renderer made, in Swift memory (for tests).
  package static func rasterOf(_ image: VipsImage) throws(ImagingError) -> Raster { try image.raster() }

  /// A float memory image of `pixels` (width × height × bands), for tests of the passes that
  /// take premultiplied floats.
  package static func floatImage(width: Int, height: Int, bands: Int, pixels: [Float]) throws(ImagingError)
    -> VipsImage
  {
    precondition(pixels.count == width * height * bands)
    Vips.start()
    var out: OpaquePointer?
    let status = pixels.withUnsafeBufferPointer {
      cj_from_memory_float($0.baseAddress, Int32(width), Int32(height), Int32(bands), &out)
    }
    try Vips.check(status, "raster", path: nil)
    guard let out else { throw ImagingError(operation: "raster", path: nil, message: "no image") }
    return VipsImage(out, path: nil)
  }

  /// `render`, with the pixels copied into Swift memory (3 or 4 bands).
  package static func raster(_ source: DecodedSource, geometry: PlacementResult, style: RenderStyle)
    throws(ImagingError)
    -> Raster
  {
    try render(source, geometry: geometry, style: style).raster()
  }
}
