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
  package var jobs: [Job]
  /// The crop table's rows (`overrides_from`), then the inline `overrides`, in the order
  /// they apply: a later override of a source wins.
  package var overrides: OverrideList
  /// The crop table as diagnostics name it (relative to the current folder, like `path`),
  /// if the file has one; its rows are the first `cropTableRows` of `overrides`.
  public var cropTable: String? = nil
  public var cropTableRows = 0
  /// How the crop table is read and what it demands (`overrides_from` as a mapping).
  package var cropTableSettings = CropTableSettings()
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
package struct Job: Sendable {
  package var name: String
  package var input: JobInput
  package var guide: Guide
  package var place: PlaceSpec
  package var outputs: [OutputSpec]
  /// Where the job is declared.
  package var mark: SourceMark
  /// Where its `sources` are given (nil for a `from:` job).
  package var sourcesMark: SourceMark? = nil
  /// `allow_empty`: sources that match no file are not an error.
  package var allowEmpty = false
  /// `index`: the delivery index written after the job's outputs, if any.
  package var index: IndexSpec? = nil
}

/// Where a job's photos come from.
package enum JobInput: Sendable, Hashable {
  /// Files, globs (`*`, `?`, `**`, `[abc]`) and folders, minus `exclude` patterns.
  case sources(include: [String], exclude: [String])
  /// Another job's outputs.
  case from(String)
}

/// How a photo sits under the guide; smart focus is resolved per photo at run time.
package struct PlaceSpec: Sendable, Hashable, Codable {
  package var fit: Fit = .cover
  package var zoom: Double = 1
  package var offset: Point = Point(x: 0, y: 0)
  package var focus: FocusSpec = .named(.centre)
  package var rotate: Double = 0
  package var flipHorizontal = false
  package var flipVertical = false
  package var crop: CropRect? = nil
  package var overflow: Overflow = .clamp
  /// RGBA 0...255; nil: white for formats without alpha, transparent for formats with it.
  package var background: [Double]? = nil
  package var upscale = true
  /// `upscale: skip` (with `upscale` false): the sizes of an output entry that the photo
  /// cannot fill are not written, one output at the photo's own size stands for them (nil:
  /// `true` or `false`; optional so that places without it keep their recipe text and keys).
  package var upscaleSkip: Bool? = nil
  /// `face_padding`: each found box grows by this fraction of its width (left and right) and
  /// of its height (top and bottom) before placement; nil: the default (`facePaddingDefault`).
  /// Optional so that places without it keep their recipe text (and their outputs' keys).
  package var facePadding: Double? = nil
  /// `regions`: the region types `focus: regions` uses; nil: the default (`[face]`).
  package var regionTypes: [RegionType]? = nil

  package init() {}

  /// `face_padding`'s default: 0.3 (docs/job-file.md says why).
  package static let facePaddingDefault = 0.3
  /// `regions`' default.
  package static let regionTypesDefault: [RegionType] = [.face]

  /// The padding in effect.
  package var effectiveFacePadding: Double { facePadding ?? Self.facePaddingDefault }
  /// The region types in effect.
  package var effectiveRegionTypes: [RegionType] { regionTypes ?? Self.regionTypesDefault }
}

/// One output of a job: a path template, one or more sizes, an encoder.
package struct OutputSpec: Sendable, Hashable {
  package var pathTemplate: String
  package var sizes: OutputSizes
  package var encode: EncodeSpec
  package var metadata: MetadataPolicy
  package var mark: SourceMark
  /// The placeholders recorded beside each file (nil: none).
  package var placeholders: PlaceholderSpec? = nil
  /// `cache_control`: the Cache-Control stored with each object in an object store (nil:
  /// none). Not part of the output's key: a change applies to the objects written from then
  /// on (`--force` writes them all again).
  package var cacheControl: String? = nil
}

/// The sizes one output entry expands to.
package enum OutputSizes: Sendable, Hashable {
  /// Multiples of the guide size (`scales: [1, 2, 3]`; the guide itself is `[1]`).
  case scales([Double])
  /// Output widths in pixels; heights follow the guide's aspect.
  case widths([Int])
}

/// Encoder settings plus the byte budget.
package struct EncodeSpec: Sendable, Hashable {
  package var options: EncodeOptions
  /// Largest file allowed; the highest quality that fits is searched by bisection.
  package var maxBytes: Int?
  /// Lowest quality the budget search may go down to.
  package var minQuality: Int = 30
  /// What an output too big for `maxBytes` even at `minQuality` does.
  package var overBudget: OverBudget = .fail
  /// The colour space the output's pixels are written in.
  package var colour: ColourPolicy = .srgb
  /// Which frames of an animated source the output holds (`all` only for formats that
  /// animate: the decoder makes an inherited `all` `first` for the others).
  package var frames: FramesPolicy = .first
  /// A perceptual quality target: the lowest quality from `minQuality` to the quality whose
  /// file scores at least this (within `maxBytes`, which wins), found by bisection.
  package var target: QualityTarget?

  package init(
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
package struct QualityTarget: Sendable, Hashable, Codable {
  /// SSIM on luma, 0…1.
  package var ssim: Double

  package init(ssim: Double) { self.ssim = ssim }

  /// Formats whose quality a target searches.
  package static let formats: [OutputFormat] = [.jpeg, .webp, .avif]
}

/// What an output does when even `min_quality` does not fit its `max_bytes`.
package enum OverBudget: String, Sendable, Hashable, Codable, CaseIterable {
  /// The output fails with the smallest size reached (nothing is written).
  case fail
  /// The output is written at the largest pixel size (same aspect, found by bisection) whose
  /// file fits at `min_quality`; the manifest records the size written.
  case shrink
}

/// Which frames of an animated source (GIF, WebP) an output holds.
package enum FramesPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  /// The first frame, as a still image (what cropjob always wrote before `frames`).
  case first
  /// Every frame, each placed the same way, with the source's frame delays and loop count:
  /// an animated WebP or GIF.
  case all
}

/// The colour space of an output's pixels.
package enum ColourPolicy: String, Sendable, Hashable, Codable, CaseIterable {
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
package struct MetadataPolicy: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Kinds of metadata that can be kept.
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
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

    package static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

    /// The kinds stored in EXIF.
    package static let exif: Set<Kind> = [.copyright, .artist, .date, .camera, .gps]
  }

  package var kept: Set<Kind>

  package init(kept: Set<Kind>) { self.kept = kept }

  package static let strip = MetadataPolicy(kept: [])
  package static let keep = MetadataPolicy(kept: Set(Kind.allCases))

  package var description: String {
    kept.isEmpty ? "strip" : kept == Set(Kind.allCases) ? "keep" : kept.sorted().map(\.rawValue).joined(separator: ",")
  }
}

/// An exact placement for one source (e.g. saved from an interactive cropper).
package struct Override: Sendable {
  /// Job name, or nil for every job that reads the source.
  package var job: String?
  /// Source path, relative to the job file's folder.
  package var source: String
  /// Place fields that win over the job's.
  package var place: PlaceSpec
  /// Which place fields this override sets (the others come from the job).
  package var fields: Set<String>
  /// Where it is written: in the job file, or (for a crop table's row) the row's line, column 1.
  package var mark: SourceMark
  /// A crop table's crop in a cropper's frame or in relative units: `place.crop` holds its
  /// numbers as written until the planner makes it cropjob's crop from the photo's header
  /// (`resolved(for:)`).
  package var framedCrop: FramedCrop? = nil
  /// A crop table row with problems under `on_error: fail-row`: its source fails with this
  /// message (and the override sets nothing).
  package var failure: String? = nil

  /// This override with its framed crop made cropjob's crop for a photo `photo` pixels in size
  /// after EXIF orientation, `folded` the orientation a cropper folded into it (1: none).
  package func resolved(photo: Size, folded: Int) -> Override {
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
