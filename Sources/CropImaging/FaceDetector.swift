internal import CFaceDetect
internal import CVipsShim
import CropGeometry
import CropSpec
import Foundation

/// `focus: faces`: OpenCV's Haar cascades for frontal and profile faces (Debian's
/// `opencv-data`), run on a small greyscale copy of the decoded photo.
public enum FaceDetector {
  /// The frontal cascade: `haarcascade_frontalface_alt2.xml` (fewer false positives than
  /// `_default` at the same recall on cropjob's samples).
  public static let cascadeName = "haarcascade_frontalface_alt2.xml"
  /// The Debian package that installs it.
  public static let package = "opencv-data"
  /// Where the cascade is looked for: `$CROPJOB_CASCADES` when set, else Debian's folder.
  public static var cascadeFolder: String {
    ProcessInfo.processInfo.environment["CROPJOB_CASCADES"] ?? "/usr/share/opencv4/haarcascades"
  }
  /// The cascade's path.
  public static var cascadePath: String { (cascadeFolder as NSString).appendingPathComponent(cascadeName) }
  /// The profile cascade: it finds faces turned to one side, and on the mirror image those
  /// turned to the other; its boxes count where they overlap no box kept before them. It runs
  /// with a coarser scale step (1.2, not 1.1) and 5 neighbours, not 4 (`cj_faces.cpp`).
  public static let profileName = "haarcascade_profileface.xml"
  /// The profile cascade's path.
  public static var profilePath: String { (cascadeFolder as NSString).appendingPathComponent(profileName) }
  /// Detection runs on a copy whose long side is at most this many pixels.
  public static let detectionSide = 512
  /// Smallest face found, in pixels of that copy (the cascade's own window is 20 × 20).
  public static let minimumFace = 20

  /// OpenCV's version, as its library reports it; "unavailable" when the face detector's
  /// library cannot be loaded (`libraryProblem`).
  public static var openCVVersion: String {
    guard let version = cj_faces_opencv_version() else { return "unavailable" }
    return String(cString: version)
  }

  /// Why the face detector's library (`libCropjobFaces.so`, which links OpenCV) cannot be
  /// loaded, naming what is missing; nil once it is loaded. It is opened on first use, so
  /// that only jobs that ask for faces load OpenCV; this call loads it.
  public static var libraryProblem: String? {
    var message = [CChar](repeating: 0, count: 2048)
    return cj_faces_load(&message, message.count) != 0 ? nil : text(message)
  }

  /// What `cropjob --version` prints: OpenCV's version and the cascade files (loading the
  /// detector's library), or why faces are unavailable.
  public static var versionLine: String {
    if let problem = libraryProblem { return "unavailable: \(problem)" }
    return "opencv \(openCVVersion) (\(cascadeName), \(profileName))"
  }

  /// Why faces cannot be detected on this machine (the detector's library cannot be loaded,
  /// or a cascade is missing or unreadable), naming what to install; nil when they can.
  public static func problem() -> String? {
    if let problem = libraryProblem { return problem }
    for path in [cascadePath, profilePath] {
      guard FileManager.default.isReadableFile(atPath: path) else {
        return "the face detector's cascade \(path) is missing (install the Debian package \(package))"
      }
      var message = [CChar](repeating: 0, count: 512)
      guard cj_faces_check(path, &message, message.count) != 0 else {
        return "\(text(message)) (reinstall the Debian package \(package))"
      }
    }
    return nil
  }

  /// A C string written into `buffer`.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The faces in `source`, in oriented full-resolution source pixels, sorted top to bottom
  /// then left to right; the score is how many raw detections were merged into each, the
  /// origin names the cascade that found it.
  public static func faces(in source: DecodedSource) throws(ImagingError) -> [FocusBox] {
    let grey = try GreyCopy(source, longSide: detectionSide)
    var found = [cj_face](repeating: cj_face(), count: 64)
    var message = [CChar](repeating: 0, count: 512)
    let count = grey.pixels.withUnsafeBufferPointer { pixels in
      cj_faces_detect(
        pixels.baseAddress, Int32(grey.width), Int32(grey.height), Int32(grey.width), cascadePath, profilePath,
        Int32(minimumFace), &found, Int32(found.count), &message, message.count)
    }
    guard count >= 0 else {
      throw ImagingError(operation: "faces", path: source.path, message: text(message))
    }
    // Copy pixels → decoded pixels → oriented source pixels.
    let toSource =
      source.toDecoded.inverted()!
      * Affine.scale(x: Double(source.width) / Double(grey.width), y: Double(source.height) / Double(grey.height))
    return found.prefix(Int(min(count, Int32(found.count)))).map { face in
      let box = toSource.boundingBox(of: Rect(x: face.x, y: face.y, width: face.width, height: face.height))
      let cascade = Int(face.pose) == CJ_FACE_PROFILE ? profileName : cascadeName
      return FocusBox(rect: box, origin: .detector("opencv \(openCVVersion) \(cascade)"), score: face.score)
    }
  }
}

/// An 8-bit greyscale copy of a decoded source, shrunk so that its long side is at most
/// `longSide` (box filter), luma weights 0.299, 0.587, 0.114 as OpenCV's `COLOR_RGB2GRAY`.
struct GreyCopy {
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
    pixels = [UInt8](unsafeUninitializedCapacity: w * h) { buffer, initialised in
      raster.pixels.withUnsafeBufferPointer { p in
        for i in 0..<(w * h) {
          let o = i * bands
          let y =
            colour
            ? 0.299 * Double(p[o]) + 0.587 * Double(p[o + 1]) + 0.114 * Double(p[o + 2]) : Double(p[o])
          buffer[i] = UInt8(min(255, max(0, y.rounded())))
        }
      }
      initialised = w * h
    }
  }
}
