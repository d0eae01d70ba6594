import Foundation

/// Pure placement math: from the oriented photo size, the guide and the placement to the
/// affine transform and output size that render one output. No I/O, no pixels.
///
/// See `docs/geometry.md` for the conventions, with diagrams and worked numbers.
package enum Geometry {
  /// Relative difference between the crop's and the guide's scales above which the crop's
  /// aspect wins (`PlacementNote.cropAspectMismatch`).
  package static let cropAspectTolerance = 0.01

  /// Slack, in source pixels, when deciding whether a point lies inside the photo.
  package static let coverageTolerance = 1e-6

  /// Places a photo of `source` size (after EXIF orientation) under `guide`, producing the
  /// output at `outputScale` (the output is the guide at that scale: @2x → 2; 640 px wide from
  /// a 1600 px guide → 0.4).
  ///
  /// Requires `validate(source:guide:placement:outputScale:)` to return no problems.
  package static func place(
    source: Size, guide: Guide, placement: Placement, outputScale: Double = 1
  ) -> PlacementResult {
    let problems = validate(
      source: source, guide: guide, placement: placement, outputScale: outputScale)
    precondition(problems.isEmpty, "Geometry.place: " + problems.joined(separator: "; "))

    var notes: [PlacementNote] = []
    let photo = Rect(size: source)
    let flip = Affine.scale(
      x: placement.flipHorizontal ? -1 : 1, y: placement.flipVertical ? -1 : 1)

    // 1. Guide space: frame size, scale (guide px per source px), rotation, centre.
    var frame = Size(guide.size)
    let scale: Double
    let angle: Double
    var centre: Point
    if let crop = placement.crop {
      scale = frame.width / crop.width
      let scaleY = frame.height / crop.height
      if abs(scale - scaleY) / scale > cropAspectTolerance {
        notes.append(.cropAspectMismatch(cropAspect: crop.aspect, guideAspect: frame.aspect))
        frame.height = crop.height * scale
      }
      angle = crop.angle
      centre = crop.centre
    } else {
      angle = placement.rotate
      scale =
        baseScale(fit: placement.fit, source: source, guide: frame, degrees: angle)
        * placement.zoom
      let linear = flip * Affine.rotation(degrees: angle) * Affine.scale(scale)
      let focus = Point(x: placement.focus.x * source.width, y: placement.focus.y * source.height)
      centre = focus - linear.inverted()!.applyLinear(placement.offset)
      if placement.overflow == .clamp {
        centre = clampCentre(centre, source: source, guide: frame, linear: linear)
      }
    }
    let linear = flip * Affine.rotation(degrees: angle) * Affine.scale(scale)
    let toGuide = Affine.translation(frame.centre) * linear * Affine.translation(-centre)

    // 2. Output size and output scale k (guide → output), with the upscale rule.
    let containFit = placement.crop == nil && placement.fit == .contain
    func fittedScale(_ size: PixelSize) -> Double {
      let kx = Double(size.width) / frame.width
      let ky = Double(size.height) / frame.height
      return containFit ? min(kx, ky) : max(kx, ky)
    }
    var outputSize = PixelSize(rounding: frame * outputScale)
    var k = fittedScale(outputSize)
    if k * scale > 1 + 1e-9 {
      if placement.upscale {
        notes.append(.upscaling(factor: k * scale))
      } else {
        let requested = outputSize
        let capped = frame * (1 / scale)
        outputSize = PixelSize(
          width: max(1, Int((capped.width + 1e-9).rounded(.down))),
          height: max(1, Int((capped.height + 1e-9).rounded(.down))))
        k = fittedScale(outputSize)
        notes.append(.upscaleCapped(requested: requested, actual: outputSize))
      }
    }
    let outputCentre = Size(outputSize).centre
    var transform =
      Affine.translation(outputCentre) * Affine.scale(k) * Affine.translation(-frame.centre)
      * toGuide
    var guideRect = Rect(
      x: outputCentre.x - k * frame.width / 2, y: outputCentre.y - k * frame.height / 2,
      width: k * frame.width, height: k * frame.height)

    // 3. Shrink: trim the output to the photo's footprint.
    if placement.overflow == .shrink {
      let trimmed = shrinkBox(photo: photo, transform: transform, outputSize: outputSize)
      if let (x0, y0, size) = trimmed, size != outputSize || x0 != 0 || y0 != 0 {
        notes.append(.shrunkToFootprint(from: outputSize, to: size))
        let shift = Point(x: -Double(x0), y: -Double(y0))
        transform = Affine.translation(shift) * transform
        guideRect = guideRect.offsetBy(shift)
        outputSize = size
      }
    }

    // 4. What is sampled, and what is covered.
    let inverse = transform.inverted()!
    let preimage = Rect(size: Size(outputSize)).corners.map(inverse.apply)
    let covers = preimage.allSatisfy { photo.contains($0, tolerance: coverageTolerance) }
    let sampled = Polygon.clip(preimage, to: photo)
    var region = Rect.zero
    if Polygon.area(sampled) > 0, let box = Rect.boundingBox(of: sampled) {
      region = snapped(box)
    }
    if let crop = placement.crop,
      !crop.regionCorners.allSatisfy({ photo.contains($0, tolerance: coverageTolerance) })
    {
      notes.append(.cropOutsidePhoto)
    }
    if !covers { notes.append(.guideNotCovered) }

    return PlacementResult(
      transform: transform, outputSize: outputSize, scale: k * scale, angle: angle,
      centre: Point(x: snapped(centre.x), y: snapped(centre.y)), sourceRegion: region,
      coversOutput: covers, notes: notes, guideRect: snapped(guideRect))
  }

  /// The whole-pixel box (origin and size) of output ∩ photo footprint in output pixels, or
  /// `nil` when the photo does not reach the output at all.
  static func shrinkBox(
    photo: Rect, transform: Affine, outputSize: PixelSize
  ) -> (Int, Int, PixelSize)? {
    let footprint = Polygon.clip(
      photo.corners.map(transform.apply), to: Rect(size: Size(outputSize)))
    guard Polygon.area(footprint) > 0, let box = Rect.boundingBox(of: footprint) else {
      return nil
    }
    // Nearest whole pixel, ties inwards (so a footprint edge on a half pixel is not padded
    // with half a pixel of background).
    func edges(_ lo: Double, _ hi: Double, _ extent: Int) -> (Int, Int) {
      let a = min(max(Int((snapped(lo) + 0.5).rounded(.down)), 0), extent - 1)
      let b = max(min(Int((snapped(hi) - 0.5).rounded(.up)), extent), a + 1)
      return (a, b)
    }
    let (x0, x1) = edges(box.minX, box.maxX, outputSize.width)
    let (y0, y1) = edges(box.minY, box.maxY, outputSize.height)
    return (x0, y0, PixelSize(width: x1 - x0, height: y1 - y0))
  }

  /// `v` rounded to a whole number when within 1e-7 of one (removes floating-point noise
  /// from reported coordinates; never changes a value by more than 1e-7).
  static func snapped(_ v: Double) -> Double {
    let r = v.rounded()
    return abs(v - r) <= 1e-7 ? r + 0 : v
  }

  /// Corners snapped, and the width and height too (a crop at y 12.6 of height 900 reads
  /// 900, not the 899.9999999999999 that `912.6 - 12.6` gives).
  static func snapped(_ r: Rect) -> Rect {
    let x0 = snapped(r.minX)
    let y0 = snapped(r.minY)
    return Rect(x: x0, y: y0, width: snapped(snapped(r.maxX) - x0), height: snapped(snapped(r.maxY) - y0))
  }
}
