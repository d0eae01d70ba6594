import Foundation

/// The frame a saved crop's numbers are in: what the cropper that saved it measures from.
package enum CropFrame: String, Sendable, Hashable, Codable, CaseIterable {
  /// cropjob's own crop: `x, y` in the upright (EXIF-applied) photo, `angle` about the crop's
  /// centre, flips mirror the output.
  case upright
  /// Cropper.js `getData()`: `x, y, width, height` in the bounding box of the image turned by
  /// `rotate` (clockwise, about its centre) after `scaleX`/`scaleY` (−1: mirrored); with its
  /// default `checkOrientation`, a JPEG's EXIF orientation is folded into them and the image
  /// is the photo as stored.
  case cropperjs
  /// react-easy-crop's `croppedAreaPixels` (or `croppedArea`, in percent): the bounding box of
  /// the upright photo turned by `rotation` after its flips, as in Cropper.js.
  case reactEasyCrop = "react-easy-crop"
}

/// What a saved crop's `x, y, width, height` count in.
package enum CropUnits: String, Sendable, Hashable, Codable, CaseIterable {
  /// Pixels of the frame.
  case pixels
  /// Fractions 0…1 of the frame's width (`x`, `width`) and height (`y`, `height`).
  case relative
  /// Percent 0…100 of the frame's width and height (react-easy-crop's `croppedArea`).
  case percent
}

/// A crop as a cropper saved it, in its frame and units, made into cropjob's crop when the
/// photo's size (and, for a folded orientation, its EXIF orientation) is known: at plan time,
/// from the header. docs/job-file.md ("Crop frames") gives the formula.
package struct FramedCrop: Sendable, Hashable, Codable {
  package var frame: CropFrame
  package var units: CropUnits
  package var x: Double
  package var y: Double
  package var width: Double
  package var height: Double
  /// Degrees, clockwise: `crop.angle` in the upright frame, the cropper's rotation in others.
  package var rotate: Double
  /// Mirrors: of the output in the upright frame (`place.flip`); of the image before it is
  /// turned in the others (Cropper.js `scaleX: -1`, react-easy-crop's `flip.horizontal`).
  package var flipHorizontal: Bool
  package var flipVertical: Bool

  package init(
    frame: CropFrame, units: CropUnits, x: Double, y: Double, width: Double, height: Double, rotate: Double,
    flipHorizontal: Bool = false, flipVertical: Bool = false
  ) {
    self.frame = frame
    self.units = units
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.rotate = rotate
    self.flipHorizontal = flipHorizontal
    self.flipVertical = flipVertical
  }

  /// cropjob's crop and output flips for a photo `photo` pixels in size after EXIF orientation.
  /// `folded`: the EXIF orientation the cropper folded into `rotate` and the flips (Cropper.js
  /// with `checkOrientation`, on a JPEG), whose image is then the photo as stored; 1 for none.
  package func resolved(photo: Size, folded: Int = 1) -> (crop: CropRect, flipHorizontal: Bool, flipVertical: Bool) {
    guard frame != .upright else {
      let (sx, sy) = unitScale(photo.width, photo.height)
      let crop = CropRect(x: x * sx, y: y * sy, width: width * sx, height: height * sy, angle: rotate)
      return (crop, flipHorizontal, flipVertical)
    }
    // The image the cropper turns: the photo as stored when it folded the orientation.
    let image = Geometry.orientedSize(stored: photo, orientation: folded)
    let (c, s) = Angle.cosSin(degrees: rotate)
    let box = Size(
      width: abs(image.width * c) + abs(image.height * s), height: abs(image.width * s) + abs(image.height * c))
    let (sx, sy) = unitScale(box.width, box.height)
    let (w, h) = (width * sx, height * sy)
    let centre = Point(x: x * sx + w / 2, y: y * sy + h / 2)
    // Canvas point = R(rotate)·S·A⁻¹·(upright point − photo centre) + box centre, where S is
    // the mirrors and A the orientation's turn (stored → upright). S·A⁻¹ is a signed
    // permutation: F^e·R(quarter), F the horizontal mirror; so the whole map is F^e·R(θ).
    let a = Geometry.orientationTransform(stored: image, orientation: folded)
    // A⁻¹ = Aᵀ (a rotation or a mirror); S·Aᵀ row by row.
    let (mx, my) = (flipHorizontal ? -1.0 : 1.0, flipVertical ? -1.0 : 1.0)
    var p = (a: mx * a.a, b: mx * a.c, c: my * a.b, d: my * a.d)
    let mirrored = p.a * p.d - p.b * p.c < 0
    if mirrored { (p.a, p.b) = (-p.a, -p.b) }
    let quarter: Double = p.a == 1 ? 0 : p.c == 1 ? 90 : p.a == -1 ? 180 : -90
    var theta = (quarter + (mirrored ? -rotate : rotate)).truncatingRemainder(dividingBy: 360)
    if theta > 180 { theta -= 360 }
    if theta <= -180 { theta += 360 }
    // The crop's centre in the upright photo: the preimage of the box's centre.
    let (ct, st) = Angle.cosSin(degrees: theta)
    let d = Point(x: (centre.x - box.width / 2) * (mirrored ? -1 : 1), y: centre.y - box.height / 2)
    let p0 = Point(x: photo.width / 2 + ct * d.x + st * d.y, y: photo.height / 2 - st * d.x + ct * d.y)
    return (CropRect(x: p0.x - w / 2, y: p0.y - h / 2, width: w, height: h, angle: theta), mirrored, false)
  }

  private func unitScale(_ width: Double, _ height: Double) -> (Double, Double) {
    switch units {
    case .pixels: return (1, 1)
    case .relative: return (width, height)
    case .percent: return (width / 100, height / 100)
    }
  }
}
