import Foundation

/// Everything the imaging layer needs to render one output, and everything the planner and
/// manifest report about it.
package struct PlacementResult: Sendable, Hashable, Codable {
  /// Source (oriented) pixels → output pixels of this output size, in continuous
  /// coordinates (pixel `(i, j)` covers `[i, i+1) × [j, j+1)`).
  package var transform: Affine
  /// Exact output pixel size.
  package var outputSize: PixelSize
  /// Output pixels per source pixel (uniform).
  package var scale: Double
  /// Total rotation applied to the photo, degrees clockwise (`rotate`, or `crop.angle`).
  package var angle: Double
  /// Source point at the guide's centre, after clamping. It lands on the output centre
  /// (except after an `overflow: shrink` trim, which moves the output rectangle).
  package var centre: Point
  /// Bounding box, in source pixels, of the part of the photo actually sampled:
  /// bbox(preimage of the output rectangle ∩ photo). `Rect.zero` when nothing is sampled.
  package var sourceRegion: Rect
  /// `true` when the photo covers every output pixel; `false` means the background shows.
  package var coversOutput: Bool
  /// Things worth telling the user, in a fixed order.
  package var notes: [PlacementNote]
  /// The guide frame in output pixels (for masks: the circle is inscribed in it). Equal to
  /// the output rectangle up to sub-pixel rounding, unless shrink trimmed the output.
  package var guideRect: Rect

  /// Creates a result.
  package init(
    transform: Affine, outputSize: PixelSize, scale: Double, angle: Double, centre: Point,
    sourceRegion: Rect, coversOutput: Bool, notes: [PlacementNote], guideRect: Rect
  ) {
    self.transform = transform
    self.outputSize = outputSize
    self.scale = scale
    self.angle = angle
    self.centre = centre
    self.sourceRegion = sourceRegion
    self.coversOutput = coversOutput
    self.notes = notes
    self.guideRect = guideRect
  }

  /// The output rectangle `[0, width] × [0, height]`.
  package var outputRect: Rect { Rect(size: Size(outputSize)) }

  /// Output pixels → source pixels.
  package var inverse: Affine { transform.inverted()! }

  /// The same placement written at `size` pixels: the output rectangle is scaled onto the
  /// new size axis by axis, so the same part of the photo fills it (`sourceRegion`, `centre`,
  /// `coversOutput` and `angle` are unchanged; `scale` follows the width).
  package func resized(to size: PixelSize) -> PlacementResult {
    let sx = Double(size.width) / Double(outputSize.width)
    let sy = Double(size.height) / Double(outputSize.height)
    var result = self
    result.transform = Affine.scale(x: sx, y: sy) * transform
    result.outputSize = size
    result.scale = scale * sx
    result.guideRect = Rect(
      x: guideRect.x * sx, y: guideRect.y * sy, width: guideRect.width * sx, height: guideRect.height * sy)
    return result
  }
}
