import CropKit
import Foundation

/// The one place `cropjob` reads its `CROPJOB_*` environment variables (docs/cli.md,
/// "Environment"). Each becomes a value: the default of a command-line option (a flag given
/// wins), an option the library takes per run, or a process-wide switch set once at start
/// (`applyProcessWide`). Nothing else in cropjob reads the environment for its settings.
struct EnvironmentSettings {
  /// `CROPJOB_JPEG_DECODER` (`auto` or `libvips`): `run --jpeg-decoder`'s default, and the
  /// decoder of the header reads of `plan` and `preview`.
  var jpegDecoder: JPEGDecoder?
  /// `CROPJOB_JPEG_ENCODER` (`auto` or `libvips`): `run --jpeg-encoder`'s default.
  var jpegEncoder: JPEGEncoder?
  /// `CROPJOB_PLAN_WINDOW`: sources per planning window (tests make it small, to plan a few
  /// hundred sources in many windows).
  var planWindow: Int?
  /// `CROPJOB_STATE_BATCH`: outputs per state transaction (`RunOptions.stateBatchSize`; tests
  /// make it small so that a kill lands between commits).
  var stateBatch: Int?
  /// `CROPJOB_STATE_UPLOAD_INTERVAL`: seconds between uploads of the state to an object
  /// store's output prefix during a run (`RunOptions.stateUploadInterval`, 60 by default).
  var stateUploadInterval: Double?
  /// `CROPJOB_PORTABLE_SHA256` set (any value): digests without libcrypto.
  var portableSHA256 = false
  /// `CROPJOB_FACES_LIBRARY`: the face detector's library file instead of the installed one.
  var facesLibrary: String?

  init(_ environment: [String: String]) {
    jpegDecoder = environment["CROPJOB_JPEG_DECODER"].flatMap { JPEGDecoder(rawValue: $0.lowercased()) }
    jpegEncoder = environment["CROPJOB_JPEG_ENCODER"].flatMap { JPEGEncoder(rawValue: $0.lowercased()) }
    planWindow = environment["CROPJOB_PLAN_WINDOW"].flatMap { Int($0) }.map { max(1, $0) }
    stateBatch = environment["CROPJOB_STATE_BATCH"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    stateUploadInterval = environment["CROPJOB_STATE_UPLOAD_INTERVAL"].flatMap { Double($0) }.flatMap {
      $0 > 0 ? $0 : nil
    }
    portableSHA256 = environment["CROPJOB_PORTABLE_SHA256"] != nil
    facesLibrary = environment["CROPJOB_FACES_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// This process's.
  static let current = EnvironmentSettings(ProcessInfo.processInfo.environment)

  /// Sets the switches that hold for the whole process (the face detector is loaded once per
  /// process; digests are made everywhere): called once, before any command runs.
  func applyProcessWide() {
    SHA256.usePortableCode(portableSHA256)
    FaceDetector.useLibrary(at: facesLibrary)
  }

  /// The run options `cropjob run` starts from, before its flags.
  var runOptions: RunOptions {
    var options = RunOptions()
    if let stateBatch { options.stateBatchSize = stateBatch }
    if let stateUploadInterval { options.stateUploadInterval = stateUploadInterval }
    if let jpegDecoder { options.jpegDecoder = jpegDecoder }
    if let jpegEncoder { options.jpegEncoder = jpegEncoder }
    return options
  }
}
