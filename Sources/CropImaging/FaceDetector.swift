internal import CFaceDetect
internal import CVipsShim
import CropGeometry
import CropSpec
import Foundation

/// `focus: faces`: libfacedetection's YuNet CNN (BSD-3-Clause; the prebuilt library of the PyPI
/// wheel yuface 2023.5.1, which scripts/install-deps.sh installs), run on a small BGR copy of the
/// decoded photo (docs/job-file.md, "The face detector").
package enum FaceDetector {
  /// The detector's name, as box origins record it (`detector yunet ...`).
  package static let name = "yunet libfacedetection 0.0.3 (yuface 2023.5.1)"
  /// Boxes the detector scores below this (0…100) are not faces: on Tests/Corpora/faces, 70
  /// kept every face the detector finds there but one stray box (docs/job-file.md).
  package static let minimumScore = 70

  /// Why the face detector cannot run on this machine (a CPU without AVX2 or FMA, or the
  /// library missing), naming what is missing; nil once it is loaded. It is opened on first
  /// use, so that only jobs that ask for faces load it; this call loads it.
  package static func problem() -> String? {
    var message = [CChar](repeating: 0, count: 2048)
    return cj_faces_load(&message, message.count) != 0 ? nil : text(message)
  }

  /// Opens the detector from the library file at `path` (nil: the installed one) when it is
  /// first used. Process-wide, before that first use (`problem()`, a detection, `versionLine`):
  /// false once the library is loaded (nothing changes then), or for a path too long.
  @discardableResult
  package static func useLibrary(at path: String?) -> Bool { cj_faces_set_library(path) != 0 }

  /// Why a CPU with (or without) AVX2 and FMA cannot run the detector; nil when it can.
  package static func cpuProblem(avx2: Bool, fma: Bool) -> String? {
    var message = [CChar](repeating: 0, count: 512)
    return cj_faces_cpu_check(avx2 ? 1 : 0, fma ? 1 : 0, &message, message.count) != 0 ? nil : text(message)
  }

  /// What `cropjob --version` prints: the detector and its library (loading it), or why faces
  /// are unavailable.
  package static var versionLine: String {
    if let problem = problem() { return "unavailable: \(problem)" }
    return "\(name), \(String(cString: cj_faces_library_path()))"
  }

  /// A C string written into `buffer`.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The faces in `source` scored at least `minimumScore`, in oriented full-resolution source
  /// pixels, sorted top to bottom then left to right, with the detector's score (0…100) and
  /// its five landmarks. The detector sees a copy at most `longSide` pixels long
  /// (`FaceDetectionSize`; never enlarged).
  package static func faces(in source: DecodedSource, longSide: Int = FaceDetectionSize.baseSide)
    throws(ImagingError) -> [FocusBox]
  {
    let copy = try BGRCopy(source, longSide: longSide)
    var found = [cj_face](repeating: cj_face(), count: 256)
    var message = [CChar](repeating: 0, count: 512)
    let count = copy.pixels.withUnsafeBufferPointer { pixels in
      cj_faces_detect(
        pixels.baseAddress, Int32(copy.width), Int32(copy.height), Int32(copy.width * 3), Int32(minimumScore),
        &found, Int32(found.count), &message, message.count)
    }
    guard count >= 0 else {
      throw ImagingError(operation: "faces", path: source.path, message: text(message))
    }
    // Copy pixels → decoded pixels → oriented source pixels.
    let toSource =
      source.toDecoded.inverted()!
      * Affine.scale(x: Double(source.width) / Double(copy.width), y: Double(source.height) / Double(copy.height))
    let photo = Rect(x: 0, y: 0, width: Double(source.header.width), height: Double(source.header.height))
    return found.prefix(Int(min(count, Int32(found.count)))).compactMap { face in
      let box = toSource.boundingBox(of: Rect(x: face.x, y: face.y, width: face.width, height: face.height))
      // The detector may report a box reaching past the photo's edge: what lies on it.
      guard let clipped = box.intersection(photo) else { return nil }
      let l = face.landmarks
      let marks = [(l.0, l.1), (l.2, l.3), (l.4, l.5), (l.6, l.7), (l.8, l.9)].map {
        toSource.apply(Point(x: $0.0, y: $0.1))
      }
      return FocusBox(rect: clipped, origin: .detector(name), score: face.score, landmarks: marks)
    }
  }
}

/// An 8-bit BGR copy of a decoded source (the detector's input), shrunk so that its long side
/// is at most `longSide` (box filter); grey sources are repeated in the three channels, alpha
/// is ignored.
struct BGRCopy {
  var width: Int
  var height: Int
  var pixels: [UInt8]

  init(_ source: DecodedSource, longSide: Int) throws(ImagingError) {
    let factor = max(1, Double(max(source.width, source.height)) / Double(longSide))
    var image = source.image
    if factor > 1 { image = try image.derive("shrink for faces") { cj_shrink($0, factor, factor, $1) } }
    let raster = try image.raster()
    let (w, h, bands) = (raster.width, raster.height, raster.bands)
    let colour = bands >= 3
    width = w
    height = h
    pixels = [UInt8](unsafeUninitializedCapacity: w * h * 3) { buffer, initialised in
      raster.pixels.withUnsafeBufferPointer { p in
        for i in 0..<(w * h) {
          let o = i * bands
          buffer[3 * i] = colour ? p[o + 2] : p[o]
          buffer[3 * i + 1] = colour ? p[o + 1] : p[o]
          buffer[3 * i + 2] = p[o]
        }
      }
      initialised = w * h * 3
    }
  }
}
