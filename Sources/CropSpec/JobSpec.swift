import CropGeometry
import CropStorage

/// A whole job file, decoded and validated.
public struct JobFile: Sendable {
  /// The job file's path as given (diagnostics name it).
  public var path: String
  /// Folder that relative paths in the file are resolved against (the job file's folder).
  public var baseDirectory: String
  public var version: Int
  /// Output root: every output path resolves inside it (as written in the file).
  public var outputRoot: String
  /// The output root parsed: `.local(path:)` (relative to `baseDirectory` unless absolute)
  /// or `.s3(bucket:key:)`, the key a prefix ("" for the whole bucket, else usually ending
  /// in `/`; outputs are written at `key` + their path under the root).
  public var outputLocation: StorageLocation
  public var limits: InputLimits
  /// Jobs in file order.
  public var jobs: [Job]
  /// The crop table's rows (`overrides_from`), then the inline `overrides`, in the order
  /// they apply: a later override of a source wins.
  public var overrides: OverrideList
  /// The crop table as diagnostics name it (relative to the current folder, like `path`),
  /// if the file has one; its rows are the first `cropTableRows` of `overrides`.
  public var cropTable: String? = nil
  public var cropTableRows = 0
  /// How the crop table is read and what it demands (`overrides_from` as a mapping).
  public var cropTableSettings = CropTableSettings()
}

/// Input limits checked from each source's header before any pixel is decoded.
public struct InputLimits: Sendable, Hashable, Codable {
  /// Default 0x3FFF² (268 million) pixels, as sharp's default `limitInputPixels`.
  public var maxPixels: Int = 0x3FFF * 0x3FFF
  /// Default 256 MiB.
  public var maxFileBytes: Int = 256 << 20
  /// Pages or frames; only the first is used.
  public var maxPages: Int = 1000
  public init() {}
}

/// One named job: which photos, how they sit under the guide, and what to write.
public struct Job: Sendable {
  public var name: String
  public var input: JobInput
  public var guide: Guide
  public var place: PlaceSpec
  public var outputs: [OutputSpec]
  /// Where the job is declared.
  public var mark: SourceMark
  /// Where its `sources` are given (nil for a `from:` job).
  public var sourcesMark: SourceMark? = nil
  /// `allow_empty`: sources that match no file are not an error.
  public var allowEmpty = false
  /// `index`: the delivery index written after the job's outputs, if any.
  public var index: IndexSpec? = nil
}

/// Where a job's photos come from.
public enum JobInput: Sendable, Hashable {
  /// Files, globs (`*`, `?`, `**`, `[abc]`) and folders, minus `exclude` patterns.
  case sources(include: [String], exclude: [String])
  /// Another job's outputs.
  case from(String)
}

/// How a photo sits under the guide; smart focus is resolved per photo at run time.
public struct PlaceSpec: Sendable, Hashable, Codable {
  public var fit: Fit = .cover
  public var zoom: Double = 1
  public var offset: Point = Point(x: 0, y: 0)
  public var focus: FocusSpec = .named(.centre)
  public var rotate: Double = 0
  public var flipHorizontal = false
  public var flipVertical = false
  public var crop: CropRect? = nil
  public var overflow: Overflow = .clamp
  /// RGBA 0...255; nil: white for formats without alpha, transparent for formats with it.
  public var background: [Double]? = nil
  public var upscale = true
  /// `upscale: skip` (with `upscale` false): the sizes of an output entry that the photo
  /// cannot fill are not written, one output at the photo's own size stands for them (nil:
  /// `true` or `false`; optional so that places without it keep their recipe text and keys).
  public var upscaleSkip: Bool? = nil
  /// `face_padding`: each found box grows by this fraction of its width (left and right) and
  /// of its height (top and bottom) before placement; nil: the default (`facePaddingDefault`).
  /// Optional so that places without it keep their recipe text (and their outputs' keys).
  public var facePadding: Double? = nil
  /// `regions`: the region types `focus: regions` uses; nil: the default (`[face]`).
  public var regionTypes: [RegionType]? = nil

  public init() {}

  /// `face_padding`'s default: 0.3 (docs/job-file.md says why).
  public static let facePaddingDefault = 0.3
  /// `regions`' default.
  public static let regionTypesDefault: [RegionType] = [.face]

  /// The padding in effect.
  public var effectiveFacePadding: Double { facePadding ?? Self.facePaddingDefault }
  /// The region types in effect.
  public var effectiveRegionTypes: [RegionType] { regionTypes ?? Self.regionTypesDefault }
}

/// One output of a job: a path template, one or more sizes, an encoder.
public struct OutputSpec: Sendable, Hashable {
  public var pathTemplate: String
  public var sizes: OutputSizes
  public var encode: EncodeSpec
  public var metadata: MetadataPolicy
  public var mark: SourceMark
  /// The placeholders recorded beside each file (nil: none).
  public var placeholders: PlaceholderSpec? = nil
  /// `cache_control`: the Cache-Control stored with each object in an object store (nil:
  /// none). Not part of the output's key: a change applies to the objects written from then
  /// on (`--force` writes them all again).
  public var cacheControl: String? = nil
}

/// The sizes one output entry expands to.
public enum OutputSizes: Sendable, Hashable {
  /// Multiples of the guide size (`scales: [1, 2, 3]`; the guide itself is `[1]`).
  case scales([Double])
  /// Output widths in pixels; heights follow the guide's aspect.
  case widths([Int])
}

/// Encoder settings plus the byte budget.
public struct EncodeSpec: Sendable, Hashable {
  public var options: EncodeOptions
  /// Largest file allowed; the highest quality that fits is searched by bisection.
  public var maxBytes: Int?
  /// Lowest quality the budget search may go down to.
  public var minQuality: Int = 30
  /// What an output too big for `maxBytes` even at `minQuality` does.
  public var overBudget: OverBudget = .fail
  /// The colour space the output's pixels are written in.
  public var colour: ColourPolicy = .srgb
  /// Which frames of an animated source the output holds (`all` only for formats that
  /// animate: the decoder makes an inherited `all` `first` for the others).
  public var frames: FramesPolicy = .first
  /// A perceptual quality target: the lowest quality from `minQuality` to the quality whose
  /// file scores at least this (within `maxBytes`, which wins), found by bisection.
  public var target: QualityTarget?

  public init(
    options: EncodeOptions, maxBytes: Int?, minQuality: Int = 30, overBudget: OverBudget = .fail,
    colour: ColourPolicy = .srgb, target: QualityTarget? = nil
  ) {
    self.options = options
    self.maxBytes = maxBytes
    self.minQuality = minQuality
    self.overBudget = overBudget
    self.colour = colour
    self.target = target
  }
}

/// `encode.target`: the score an output's file must reach against its own uncompressed
/// pixels (docs/job-file.md, "Perceptual quality target").
public struct QualityTarget: Sendable, Hashable, Codable {
  /// SSIM on luma, 0…1.
  public var ssim: Double

  public init(ssim: Double) { self.ssim = ssim }

  /// Formats whose quality a target searches.
  public static let formats: [OutputFormat] = [.jpeg, .webp, .avif]
}

/// What an output does when even `min_quality` does not fit its `max_bytes`.
public enum OverBudget: String, Sendable, Hashable, Codable, CaseIterable {
  /// The output fails with the smallest size reached (nothing is written).
  case fail
  /// The output is written at the largest pixel size (same aspect, found by bisection) whose
  /// file fits at `min_quality`; the manifest records the size written.
  case shrink
}

/// Which frames of an animated source (GIF, WebP) an output holds.
public enum FramesPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  /// The first frame, as a still image (what cropjob always wrote before `frames`).
  case first
  /// Every frame, each placed the same way, with the source's frame delays and loop count:
  /// an animated WebP or GIF.
  case all
}

/// The colour space of an output's pixels.
public enum ColourPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  /// Converted to sRGB through the source's ICC profile (CMYK and wide gamut included);
  /// untagged sources are taken as sRGB.
  case srgb
  /// RGB pixels stay in the source's colour space (Display P3, Adobe RGB …) and the
  /// source's ICC profile is embedded, whatever `metadata` says. Sources that are not RGB
  /// (CMYK, greyscale, Lab) are converted to sRGB all the same: outputs are RGB.
  case keep
}

/// Which metadata outputs keep: nothing by default (`strip`), everything (`keep`), or a
/// list of kinds. The orientation tag and the EXIF thumbnail are never written.
public struct MetadataPolicy: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Kinds of metadata that can be kept.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The ICC profile (sRGB after colour conversion).
    case icc
    /// EXIF Copyright and Artist.
    case copyright, artist
    /// EXIF dates and times.
    case date
    /// Camera make, model, lens, serial number and exposure settings.
    case camera
    /// EXIF GPS position.
    case gps
    case xmp, iptc

    public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

    /// The kinds stored in EXIF.
    public static let exif: Set<Kind> = [.copyright, .artist, .date, .camera, .gps]
  }

  public var kept: Set<Kind>

  public init(kept: Set<Kind>) { self.kept = kept }

  public static let strip = MetadataPolicy(kept: [])
  public static let keep = MetadataPolicy(kept: Set(Kind.allCases))

  public var description: String {
    kept.isEmpty ? "strip" : kept == Set(Kind.allCases) ? "keep" : kept.sorted().map(\.rawValue).joined(separator: ",")
  }
}

/// An exact placement for one source (e.g. saved from an interactive cropper).
public struct Override: Sendable {
  /// Job name, or nil for every job that reads the source.
  public var job: String?
  /// Source path, relative to the job file's folder.
  public var source: String
  /// Place fields that win over the job's.
  public var place: PlaceSpec
  /// Which place fields this override sets (the others come from the job).
  public var fields: Set<String>
  /// Where it is written: in the job file, or (for a crop table's row) the row's line, column 1.
  public var mark: SourceMark
  /// A crop table's crop in a cropper's frame or in relative units: `place.crop` holds its
  /// numbers as written until the planner makes it cropjob's crop from the photo's header
  /// (`resolved(for:)`).
  public var framedCrop: FramedCrop? = nil
  /// A crop table row with problems under `on_error: fail-row`: its source fails with this
  /// message (and the override sets nothing).
  public var failure: String? = nil

  /// This override with its framed crop made cropjob's crop for a photo `photo` pixels in size
  /// after EXIF orientation, `folded` the orientation a cropper folded into it (1: none).
  public func resolved(photo: Size, folded: Int) -> Override {
    guard let framedCrop else { return self }
    var o = self
    let resolved = framedCrop.resolved(photo: photo, folded: folded)
    o.place.crop = resolved.crop
    if framedCrop.frame != .upright {
      o.place.flipHorizontal = resolved.flipHorizontal
      o.place.flipVertical = resolved.flipVertical
    }
    o.framedCrop = nil
    return o
  }
}
