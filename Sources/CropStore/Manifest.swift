import CropGeometry
import CropPlan
import CropSpec
import CropSupport
import Foundation

/// The readable record of a run, in the output root: every output with its bytes, hash,
/// format, quality, source and geometry, for people and other systems (CDN uploads). The
/// state database (`StateReader`, `StateWriter`) is what later runs compare against.
package struct Manifest: Codable, Sendable, Equatable {
  package var cropjob: String
  package var libvips: String
  package var outputs: [Entry]

  package struct Entry: Codable, Sendable, Equatable {
    package var path: String
    package var job: String
    package var key: String
    package var bytes: Int
    package var width: Int
    package var height: Int
    package var sha256: String
    package var format: String
    package var quality: Int
    /// Encodes the byte-budget search needed (1 without a budget).
    package var encodes: Int
    package var source: SourceRecord
    package var geometry: GeometryRecord
    /// True when this run could not make the output (its source failed: empty, damaged,
    /// unreadable) and the file is the one the last good run wrote; absent otherwise.
    package var fromLastGoodRun: Bool?
    /// The placeholders computed from the output's pixels (`placeholders:`); absent when none
    /// was asked for.
    package var placeholders: PlaceholderValues?
    /// With `encode.target`: the SSIM of the file against its own uncompressed pixels
    /// (docs/job-file.md, "Perceptual quality target"); absent otherwise.
    package var ssim: Double?
    /// With `encode.frames: all` on an animated source: the frames the file holds
    /// (docs/job-file.md, "Animations"); absent for a still output.
    package var frames: Int?

    package init(
      path: String, job: String, key: String, bytes: Int, width: Int, height: Int, sha256: String, format: String,
      quality: Int, encodes: Int, source: SourceRecord, geometry: GeometryRecord, fromLastGoodRun: Bool? = nil,
      placeholders: PlaceholderValues? = nil, ssim: Double? = nil, frames: Int? = nil
    ) {
      self.path = path
      self.job = job
      self.key = key
      self.bytes = bytes
      self.width = width
      self.height = height
      self.sha256 = sha256
      self.format = format
      self.quality = quality
      self.encodes = encodes
      self.source = source
      self.geometry = geometry
      self.fromLastGoodRun = fromLastGoodRun
      self.placeholders = placeholders
      self.ssim = ssim
      self.frames = frames
    }
  }

  package struct SourceRecord: Codable, Sendable, Equatable {
    package var path: String
    package var sha256: String
    package var bytes: Int
    /// Modification time in whole nanoseconds since 1970 (fast up-to-date check); 0 for
    /// an earlier job's output, which is hashed every time instead.
    package var mtime: Int64

    package init(path: String, sha256: String, bytes: Int, mtime: Int64) {
      self.path = path
      self.sha256 = sha256
      self.bytes = bytes
      self.mtime = mtime
    }
  }

  package struct GeometryRecord: Codable, Sendable, Equatable {
    /// Bounding box of the sampled source region, in oriented source pixels.
    package var crop: Rect
    /// Output pixels per source pixel.
    package var scale: Double
    package var angle: Double
    /// Source point at the output's centre, in oriented source pixels.
    package var centre: Point
    /// The focus found at run time, as the job names it (`attention`, `faces, attention`), if any.
    package var smartFocus: String?
    package var flip: String?
    package var notes: [String]
    /// What that focus found: the strategy that placed the photo, the point, the boxes (absent
    /// with a fixed focus, so that those entries are written as before).
    package var found: FocusRecord?

    package init(
      crop: Rect, scale: Double, angle: Double, centre: Point, smartFocus: String?, flip: String?, notes: [String],
      found: FocusRecord? = nil
    ) {
      // To 1e-6 px (and scale, angle to 1e-9): coordinates without binary noise.
      self.crop = crop.roundedForReport()
      self.scale = scale.roundedForReport(places: 9)
      self.angle = angle.roundedForReport(places: 9)
      self.centre = centre.roundedForReport()
      self.smartFocus = smartFocus
      self.flip = flip
      self.notes = notes
      self.found = found
    }
  }

  /// What a run-time focus found for one output.
  package struct FocusRecord: Codable, Sendable, Equatable {
    /// The strategy that placed the photo: `faces`, `regions`, `attention`, `entropy`, or the
    /// fixed fallback's name.
    package var strategy: String
    /// The point found, in oriented source pixels, before the clamp moved the centre (absent
    /// when a fixed fallback placed the photo).
    package var point: Point?
    /// The boxes found by the strategy that placed the photo (absent when none).
    package var boxes: [BoxRecord]?
    /// The padding the boxes were grown by: `face_padding`, or less when they fit only with
    /// less (absent when no box placed the photo).
    package var padding: Double?

    package init(strategy: String, point: Point?, boxes: [BoxRecord]?, padding: Double? = nil) {
      self.strategy = strategy
      self.point = point
      self.boxes = boxes
      self.padding = padding
    }
  }

  /// One box a focus strategy found.
  package struct BoxRecord: Codable, Sendable, Equatable {
    /// The box, in oriented source pixels.
    package var rect: Rect
    /// The box grown by `face_padding` and clipped to the photo (absent when off the photo).
    package var padded: Rect?
    /// `detector <name>` or `region <type> "<name>"`.
    package var origin: String
    package var score: Double
    /// Whether the placement keeps it inside the guide.
    package var kept: Bool
    /// Why it was left out (`BoxDrop`: a low score, it does not fit beside the boxes kept);
    /// absent when kept.
    package var dropped: String?

    package init(rect: Rect, padded: Rect?, origin: String, score: Double, kept: Bool, dropped: String? = nil) {
      self.rect = rect
      self.padded = padded
      self.origin = origin
      self.score = score
      self.kept = kept
      self.dropped = dropped
    }
  }

  /// `engineVersion` is the libvips version the outputs were made with (`Plan.engineVersion`).
  package init(engineVersion: String, outputs: [Entry]) {
    cropjob = CropKitVersion.string
    libvips = engineVersion
    self.outputs = outputs.sorted { $0.path < $1.path }
  }

  /// File name in the output root: one per shard so that shards never write the same file.
  package static func fileName(shard: Shard?) -> String {
    guard let shard, shard.count > 1 else { return "cropjob-manifest.json" }
    return "cropjob-manifest.shard-\(shard.index)-of-\(shard.count).json"
  }

  /// Every output recorded in `root`'s state database (all shard files, newest row winning;
  /// `StateReader`), or, where there is none yet, in its JSON manifests. Empty when the
  /// state cannot be read.
  package static func loadAll(root: String) -> [String: Entry] {
    (try? StateReader.open(root: root).read(.entries, .all))?.outputs ?? [:]
  }

  /// Every JSON manifest in `root` (all shards), merged by output path: what an earlier
  /// cropjob recorded before the state database. Where two manifests list the same output,
  /// the most recently written one wins: it describes the file on disk.
  static func loadManifests(root: String) -> [String: Entry] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [:] }
    var result: [String: Entry] = [:]
    let manifests = names.filter { $0.hasPrefix("cropjob-manifest") && $0.hasSuffix(".json") }.map { name in
      let path = PathText.appending(root, name)
      var info = stat()
      let mtime = stat(path, &info) == 0 ? Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) : 0
      return (name: name, mtime: mtime)
    }
    for (name, _) in manifests.sorted(by: { ($0.mtime, $0.name) < ($1.mtime, $1.name) }) {
      let path = PathText.appending(root, name)
      guard let data = FileManager.default.contents(atPath: path),
        let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
      else { continue }
      for entry in manifest.outputs { result[entry.path] = entry }
    }
    return result
  }

  /// Removes the per-shard manifests in `root` (after an unsharded run wrote the whole one),
  /// and journals an earlier cropjob left.
  /// Whether `name` (a path relative to the root) is a shard's manifest.
  package static func isShardManifest(_ name: String) -> Bool {
    name.hasPrefix("cropjob-manifest.shard-") && name.hasSuffix(".json")
  }

  package static func removeShardManifests(root: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
    unlink(PathText.appending(root, "cropjob-manifest.journal"))
    for name in names
    where name.hasPrefix("cropjob-manifest.shard-") && (name.hasSuffix(".json") || name.hasSuffix(".journal")) {
      unlink(PathText.appending(root, name))
    }
  }

  /// Deterministic JSON (sorted keys, sorted outputs), as `JSONEncoder` pretty-prints the
  /// whole manifest, byte for byte, but written entry by entry (`ManifestStream`): encoding the
  /// whole value at once held a copy of every entry in Foundation's intermediate tree (tens of
  /// MB for 10,000 outputs).
  package func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    var stream = ManifestStream(format: .json, engineVersion: libvips, cropjob: cropjob) { bytes += $0 }
    for entry in outputs { stream.append(entry) }
    stream.finish()
    return bytes
  }
}
