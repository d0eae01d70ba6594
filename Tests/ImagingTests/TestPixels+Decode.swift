import CropImaging
import CropPlan
import TestSupport

extension TestPixels {
  /// Decodes `path` at full size (EXIF orientation applied, sRGB).
  init(path: String) throws {
    let header = try SourceHeader.read(path: path)
    let decoded = try DecodedSource.decode(path: path, header: header, shrink: 1)
    try self.init(decoded.image)
  }

  /// The pixels of a decoded or rendered image.
  init(_ image: VipsImage) throws {
    let raster = try Renderer.rasterOf(image)
    self.init(width: raster.width, height: raster.height, bands: raster.bands, bytes: raster.pixels)
  }
}
