internal import CPixels
internal import CTurboJPEG
internal import CVipsShim

/// The score of `encode.target` (docs/job-file.md, "Perceptual quality target"): SSIM on
/// luma between an output's uncompressed pixels and its encoded file decoded again
/// (`cj_ssim.c` states the luma and the windows).
package struct PerceptualScore {
  let width: Int
  let height: Int
  let luma: [Double]
  /// The reference's Gaussian mean and variance at each window (`cj_ssim_reference`),
  /// computed once for every candidate; empty when the image is smaller than a window.
  let mean: [Double]
  let variance: [Double]

  /// The reference: the pixels about to be encoded (8-bit, 1 to 4 bands).
  package init(reference raster: Raster) {
    width = raster.width
    height = raster.height
    luma = Self.luma(raster)
    let windows = max(0, width - 10) * max(0, height - 10)
    var mean = [Double](repeating: 0, count: windows)
    var variance = [Double](repeating: 0, count: windows)
    if windows > 0 {
      let status = luma.withUnsafeBufferPointer { a in
        mean.withUnsafeMutableBufferPointer { m in
          variance.withUnsafeMutableBufferPointer { v in
            cj_ssim_reference(a.baseAddress, Int32(raster.width), Int32(raster.height), m.baseAddress, v.baseAddress)
          }
        }
      }
      if status != 0 { (mean, variance) = ([], []) }
    }
    self.mean = mean
    self.variance = variance
  }

  /// The SSIM of `raster` against the reference, or nil when the image is smaller than a
  /// window. The raster must have the reference's size.
  package func score(_ raster: Raster) -> Double? {
    precondition(raster.width == width && raster.height == height, "PerceptualScore: size differs")
    return score(pixels: raster.pixels, bands: raster.bands)
  }

  /// The SSIM of encoded `bytes` against the reference: a JPEG of YCbCr or grey decoded by
  /// libjpeg-turbo directly (the pixels libvips' loader gives, without a libvips image and
  /// its threads: docs/job-file.md, "Perceptual quality target"), anything else by libvips.
  func score(encoded bytes: [UInt8], path: String?) throws(ImagingError) -> Double? {
    let decoded: Raster
    if let direct = Self.decodeJPEG(bytes) {
      decoded = direct
    } else {
      decoded = try Raster.decode(bytes: bytes, path: path)
    }
    guard decoded.width == width, decoded.height == height else {
      throw ImagingError(
        operation: "score", path: path,
        message: "the file decodes to \(decoded.width)x\(decoded.height), not \(width)x\(height)")
    }
    return score(pixels: decoded.pixels, bands: decoded.bands)
  }

  private func score(pixels: [UInt8], bands: Int) -> Double? {
    guard !mean.isEmpty else { return nil }
    var score = 0.0
    let status = luma.withUnsafeBufferPointer { a in
      mean.withUnsafeBufferPointer { m in
        variance.withUnsafeBufferPointer { v in
          pixels.withUnsafeBufferPointer { p in
            cj_ssim_score(
              a.baseAddress, m.baseAddress, v.baseAddress, p.baseAddress, Int32(bands), Int32(width), Int32(height),
              &score)
          }
        }
      }
    }
    return status == 0 ? score : nil
  }

  /// A JPEG's pixels as libvips' loader gives them (libjpeg-turbo with its defaults, the
  /// accurate integer IDCT and fancy upsampling; docs/decoding.md): RGB from YCbCr, one band
  /// from grey. Nil for any other file, another colour space, or any warning (libvips then
  /// decodes it, as before).
  package static func decodeJPEG(_ bytes: [UInt8]) -> Raster? {
    guard bytes.count > 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF,
      let handle = tjInitDecompress()
    else { return nil }
    defer { tjDestroy(handle) }
    return bytes.withUnsafeBufferPointer { jpeg -> Raster? in
      guard let base = jpeg.baseAddress else { return nil }
      var width: Int32 = 0
      var height: Int32 = 0
      var subsampling: Int32 = 0
      var colourspace: Int32 = 0
      guard tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
        width > 0, height > 0
      else { return nil }
      let (bands, format): (Int, TJPF)
      switch colourspace {
      case Int32(TJCS_YCbCr.rawValue): (bands, format) = (3, TJPF_RGB)
      case Int32(TJCS_GRAY.rawValue): (bands, format) = (1, TJPF_GRAY)
      default: return nil
      }
      var failed = false
      let pixels = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * bands) { buffer, count in
        failed =
          tjDecompress2(
            handle, base, UInt(jpeg.count), buffer.baseAddress, width, 0, height, Int32(format.rawValue), 0) != 0
        count = buffer.count
      }
      return failed ? nil : Raster(width: Int(width), height: Int(height), bands: bands, pixels: pixels)
    }
  }

  static func luma(_ raster: Raster) -> [Double] {
    var luma = [Double](repeating: 0, count: raster.width * raster.height)
    _ = raster.pixels.withUnsafeBufferPointer { p in
      luma.withUnsafeMutableBufferPointer {
        cj_luma(p.baseAddress, Int32(raster.width), Int32(raster.height), Int32(raster.bands), $0.baseAddress)
      }
    }
    return luma
  }
}

extension Raster {
  /// Decodes encoded image bytes (any format libvips reads; the first page) into a raster.
  package static func decode(bytes: [UInt8], path: String? = nil) throws(ImagingError) -> Raster {
    Vips.start()
    var data: UnsafeMutableRawPointer?
    var size = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var bands: Int32 = 0
    let status = bytes.withUnsafeBytes {
      cj_decode_buffer($0.baseAddress, $0.count, &data, &size, &width, &height, &bands)
    }
    try Vips.check(status, "decode", path: path)
    guard let data else { throw ImagingError(operation: "decode", path: path, message: "no pixels") }
    defer { cj_free(data) }
    let count = Int(width) * Int(height) * Int(bands)
    guard size >= count, (1...4).contains(bands) else {
      throw ImagingError(operation: "decode", path: path, message: "\(size) bytes for \(width)x\(height)x\(bands)")
    }
    return Raster(
      width: Int(width), height: Int(height), bands: Int(bands),
      pixels: Array(UnsafeRawBufferPointer(start: data, count: count)))
  }
}
