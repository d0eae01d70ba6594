import CropImaging
import CropPlan
import Foundation

/// How `run` executes a plan.
public struct RunOptions: Sendable {
  /// Concurrent sources (default: the cores).
  public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  /// Rebuild outputs even when they are up to date.
  public var force = false
  /// Stop scheduling at the first failure.
  public var failFast = false
  /// Delete outputs of earlier runs that the plan no longer produces.
  public var prune = false
  /// Replace files in the output root that cropjob did not write (else the run is refused).
  public var overwrite = false
  public var shard: Shard? = nil
  /// Bound on decoded pixels in flight across workers.
  public var maxPixelsInFlight = 120_000_000
  public var strictness: DecodeStrictness = .warning
  /// Outputs recorded per state transaction, at most (a commit also happens every second;
  /// tests make it small so that a kill lands between commits).
  public var stateBatchSize = 256
  /// Seconds between uploads of the state to the output prefix while a run writes to an
  /// object store (it is also put there when the run opens and when it ends): what a killed
  /// worker loses at most.
  public var stateUploadInterval: Double = 60
  /// Encoded bytes waiting for or in their PUT to an object store, at most (one output
  /// larger than this is sent alone): what the overlap of PUTs with encodes holds in memory.
  public var maxUploadBytesInFlight = 64 << 20
  /// PUTs to an object store at once (the store allows 16 requests in flight).
  public var uploaders = 8
  /// Which decoder reads JPEG sources (and their headers when the run reads them again);
  /// the planner's header reader takes its own (`VipsHeaderReader.jpegDecoder`).
  public var jpegDecoder = JPEGDecoder.auto
  /// Which encoder writes stripped JPEG and PNG outputs.
  public var jpegEncoder = JPEGEncoder.auto
  /// This run's stop switch (a new one per `RunOptions`): `cancel()` it from any thread or a
  /// signal handler to stop the run (`CancellationToken`).
  public var cancellation = CancellationToken()

  public init() {}
}
