internal import CVipsShim
import CropGeometry
import CropSpec

/// Finds the most interesting point of a photo with libvips' smart crop.
package enum SmartFocus {
  /// The normalised source point at the centre of the most interesting window of
  /// `window` source pixels (the guide's footprint on the photo).
  package static func locate(_ source: DecodedSource, strategy: SmartStrategy, window: Size) throws(ImagingError)
    -> Point
  {
    let w = max(1, min(source.width, Int((window.width * source.scaleX).rounded())))
    let h = max(1, min(source.height, Int((window.height * source.scaleY).rounded())))
    if w >= source.width && h >= source.height { return Point(x: 0.5, y: 0.5) }
    var left: Int32 = 0
    var top: Int32 = 0
    let status = cj_smartcrop_position(source.image.pointer, Int32(w), Int32(h), strategy.rawValue, &left, &top)
    try Vips.check(status, "smartcrop", path: source.path)
    return Point(
      x: (Double(left) + Double(w) / 2) / Double(source.width), y: (Double(top) + Double(h) / 2) / Double(source.height)
    )
  }
}
