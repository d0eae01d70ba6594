import CropPlan
import CropSpec
import CropSupport
import Foundation

/// A delivery index (`index:` of a job; docs/job-file.md, "index"): per image (a source), its
/// outputs grouped by format into `srcset` candidates, the fallback format, the size
/// attributes and the placeholder, as JSON for other systems; `html` renders it as a page of
/// `<picture>` elements. Made from the manifest's entries only, sorted, with no time in it:
/// the same outputs give the same bytes.
package struct DeliveryIndex: Codable, Sendable, Equatable {
  /// `cropjob index`: marks the file as cropjob's (`isCropjobIndex`).
  package var generator = DeliveryIndex.marker
  package var version = 1
  package var job: String
  package var images: [Image]

  package static let marker = "cropjob index"

  package struct Image: Codable, Sendable, Equatable {
    package var source: String
    /// The fallback's largest candidate: the `<img>`'s `width` and `height` attributes.
    package var width: Int
    package var height: Int
    package var sizes: String
    package var loading: String
    package var decoding: String
    /// The `<img>`'s format; the others are `<source>`s, in `formats` order.
    package var fallback: String
    package var placeholder: Placeholder?
    /// Modern formats first, the fallback last.
    package var formats: [FormatSet]
    /// The `<picture>` element.
    package var html: String
  }

  package struct FormatSet: Codable, Sendable, Equatable {
    package var format: String
    /// The MIME type (`image/webp`).
    package var type: String
    package var srcset: String
    /// By width, smallest first.
    package var candidates: [Candidate]
  }

  package struct Candidate: Codable, Sendable, Equatable {
    /// Relative to the output root.
    package var path: String
    /// As the page uses it: relative to the index file, or under `base_url`; percent-encoded.
    package var url: String
    package var width: Int
    package var height: Int
    package var bytes: Int
    /// The file is the last good run's (its source failed this run), as in the manifest.
    package var fromLastGoodRun: Bool?
  }

  /// What shows while an image loads: an output's placeholders as its manifest entry records
  /// them (`placeholders:`); the page uses the dominant colour and the LQIP image.
  package struct Placeholder: Codable, Sendable, Equatable {
    package var blurhash: String?
    package var thumbhash: String?
    /// `#rrggbb`.
    package var dominant: String?
    /// A `data:` URI of a tiny image.
    package var lqip: String?

    package init(blurhash: String? = nil, thumbhash: String? = nil, dominant: String?, lqip: String?) {
      self.blurhash = blurhash
      self.thumbhash = thumbhash
      self.dominant = dominant
      self.lqip = lqip
    }

    /// An entry's recorded placeholders, nil when it has none.
    static func of(_ entry: Manifest.Entry) -> Placeholder? {
      guard let values = entry.placeholders,
        values.blurhash != nil || values.thumbhash != nil || values.dominant != nil || values.lqip != nil
      else { return nil }
      return Placeholder(
        blurhash: values.blurhash, thumbhash: values.thumbhash, dominant: values.dominant, lqip: values.lqip)
    }
  }

  /// Formats in `<source>` order: modern ones first; the last one present is the fallback.
  static let formatOrder = ["avif", "jxl", "webp", "heif", "tiff", "gif", "png", "jpeg"]

  static func mimeType(_ format: String) -> String {
    switch format {
    case "jxl": return "image/jxl"
    default: return "image/" + format
    }
  }

  /// The index of `job` at `indexPath` (relative to the output root) over `images`: each
  /// source with its listed manifest entries. Sources without an entry are left out.
  package init(
    job: String, indexPath: String, spec: IndexSpec, images: [(source: String, entries: [Manifest.Entry])]
  ) {
    self.job = job
    self.images = images.sorted { $0.source < $1.source }.compactMap { image in
      Self.image(image.source, image.entries, indexPath: indexPath, spec: spec)
    }
  }

  static func image(_ source: String, _ entries: [Manifest.Entry], indexPath: String, spec: IndexSpec) -> Image? {
    let byFormat = Dictionary(grouping: entries, by: \.format)
    let order = formatOrder.filter { byFormat[$0] != nil } + byFormat.keys.filter { !formatOrder.contains($0) }.sorted()
    guard let fallback = order.last else { return nil }
    let sets = (order.filter { $0 != fallback } + [fallback]).map { format in
      var seen = Set<Int>()
      let candidates = byFormat[format]!.sorted { ($0.width, $0.path) < ($1.width, $1.path) }
        .filter { seen.insert($0.width).inserted }
        .map { entry in
          Candidate(
            path: entry.path, url: url(entry.path, indexPath: indexPath, baseURL: spec.baseURL), width: entry.width,
            height: entry.height, bytes: entry.bytes, fromLastGoodRun: entry.fromLastGoodRun)
        }
      return FormatSet(
        format: format, type: mimeType(format),
        srcset: candidates.map { "\($0.url) \($0.width)w" }.joined(separator: ", "), candidates: candidates)
    }
    let largest = sets.last!.candidates.last!
    // The placeholder of the fallback's largest output, else of any output that has one.
    let shown = entries.sorted { $0.path < $1.path }
    let found =
      shown.first { $0.path == largest.path }.flatMap(Placeholder.of) ?? shown.lazy.compactMap(Placeholder.of).first
    var image = Image(
      source: source, width: largest.width, height: largest.height, sizes: spec.sizes,
      loading: spec.loading.rawValue, decoding: spec.decoding.rawValue, fallback: fallback, placeholder: found,
      formats: sets, html: "")
    image.html = DeliveryIndexHTML.picture(image)
    return image
  }

  /// An output's URL in an index at `indexPath`: under `baseURL`, or relative to the index.
  static func url(_ path: String, indexPath: String, baseURL: String?) -> String {
    guard let baseURL else { return URLText.relative(path, from: indexPath) }
    return URLText.encodedPrefix(baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + URLText.encodedPath(path)
  }

  /// The JSON document: sorted keys, pretty-printed, a final newline.
  package func json() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return Array((try? encoder.encode(self)) ?? Data()) + [UInt8(ascii: "\n")]
  }

  /// Whether `prefix` (a file's first bytes) is an index cropjob wrote (HTML or JSON).
  package static func isCropjobIndex(_ prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix, as: UTF8.self)
    return text.contains(DeliveryIndexHTML.generatorLine) || text.contains("\"generator\" : \"\(marker)\"")
  }

  /// The first bytes read to recognise an index cropjob wrote.
  package static let markerBytes = 1024
}
