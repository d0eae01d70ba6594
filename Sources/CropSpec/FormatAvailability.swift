/// Which output formats this machine can write. The job-file decoder asks only when a file
/// names a format outside `baseline`, so validating a job file that writes JPEG and PNG
/// starts nothing; the imaging stage supplies the real answer (`FormatAvailability.libvips`).
public struct FormatAvailability: Sendable {
  /// Formats every libvips that cropjob runs on can write: its JPEG and PNG savers are what
  /// cropjob's own samples and tests need, so they are not probed.
  package static let baseline: Set<OutputFormat> = [.jpeg, .png]

  /// Accepts every format: a pure check of the job file (`JobFileLoader`'s default). A
  /// format the machine cannot write then fails its outputs at run time.
  public static let unchecked = FormatAvailability { OutputFormat.allCases }

  private let probe: @Sendable () -> [OutputFormat]
  private let faces: @Sendable () -> String?

  /// `probe` lists the formats that can be written; `faceDetectorProblem` says why faces
  /// cannot be detected (nil when they can). Each is called at most once per decode, and only
  /// when the file needs it.
  package init(
    probe: @escaping @Sendable () -> [OutputFormat], faceDetectorProblem: @escaping @Sendable () -> String? = { nil }
  ) {
    self.probe = probe
    self.faces = faceDetectorProblem
  }

  /// The formats `probe` lists.
  package func available() -> [OutputFormat] { probe() }

  /// Why `focus: faces` cannot work on this machine, naming the package to install; nil when
  /// it can.
  public func faceDetectorProblem() -> String? { faces() }
}
