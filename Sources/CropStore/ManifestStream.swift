import CropSpec
import CropSupport
import Foundation

/// Writes a manifest entry by entry, in the formats `cropjob manifest` exports: `json` (byte
/// for byte what `Manifest.encoded` gives: `cropjob-manifest.json`), `jsonl` (one compact entry
/// per line) and `csv` (one row per output, a header row first). Entries must come sorted by
/// path; memory does not grow with their number.
package struct ManifestStream {
  package enum Format: String, Sendable, CaseIterable {
    case json, jsonl, csv
  }

  package let format: Format
  private let engineVersion: String
  private let cropjob: String
  private let write: ([UInt8]) -> Void
  private var count = 0
  private let pretty: JSONEncoder
  private let compact: JSONEncoder

  /// `write` receives the bytes in order; `engineVersion` is the manifest's `libvips`,
  /// `cropjob` its `cropjob` (this version unless re-encoding a manifest read back).
  package init(
    format: Format, engineVersion: String, cropjob: String = CropKitVersion.string,
    write: @escaping ([UInt8]) -> Void
  ) {
    self.format = format
    self.engineVersion = engineVersion
    self.cropjob = cropjob
    self.write = write
    pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    compact = JSONEncoder()
    compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// The CSV header row's columns.
  package static let csvColumns = [
    "path", "job", "key", "bytes", "width", "height", "sha256", "format", "quality", "encodes", "source_path",
    "source_sha256", "source_bytes", "source_mtime_ns", "crop_x", "crop_y", "crop_width", "crop_height", "scale",
    "angle", "centre_x", "centre_y", "smart_focus", "flip", "notes", "blurhash", "thumbhash", "dominant", "lqip",
    "ssim", "frames",
  ]

  /// Writes one entry (the header first, before the first one).
  package mutating func append(_ entry: Manifest.Entry) {
    defer { count += 1 }
    switch format {
    case .json:
      if count == 0 {
        write(
          Array("{\n  \"cropjob\" : ".utf8) + json(cropjob) + Array(",\n  \"libvips\" : ".utf8)
            + json(engineVersion) + Array(",\n  \"outputs\" : [\n".utf8))
      } else {
        write(Array(",\n".utf8))
      }
      // The entry's lines, indented to sit in the array (JSON strings hold no raw newline;
      // the encoder leaves the inside of an empty array as an empty line).
      var bytes: [UInt8] = []
      for line in json(entry).split(separator: 0x0a, omittingEmptySubsequences: false) {
        if !line.isEmpty { bytes += [0x20, 0x20, 0x20, 0x20] + line }
        bytes.append(0x0a)
      }
      bytes.removeLast()
      write(bytes)
    case .jsonl:
      write(Array((try? compact.encode(entry)) ?? Data()) + [0x0a])
    case .csv:
      if count == 0 { write(Array((Self.csvColumns.joined(separator: ",") + "\r\n").utf8)) }
      write(Array((Self.csvRow(entry).map(Self.csvField).joined(separator: ",") + "\r\n").utf8))
    }
  }

  /// Ends the document (an empty one when no entry came).
  package mutating func finish() {
    switch format {
    case .json:
      if count == 0 {
        var empty = Manifest(engineVersion: engineVersion, outputs: [])
        empty.cropjob = cropjob
        write(Array((try? pretty.encode(empty)) ?? Data()) + [0x0a])
      } else {
        write(Array("\n  ]\n}\n".utf8))
      }
    case .jsonl: break
    case .csv: if count == 0 { write(Array((Self.csvColumns.joined(separator: ",") + "\r\n").utf8)) }
    }
  }

  private func json<T: Encodable>(_ value: T) -> [UInt8] { Array((try? pretty.encode(value)) ?? Data()) }

  static func csvRow(_ e: Manifest.Entry) -> [String] {
    let g = e.geometry
    return [
      e.path, e.job, e.key, "\(e.bytes)", "\(e.width)", "\(e.height)", e.sha256, e.format, "\(e.quality)",
      "\(e.encodes)", e.source.path, e.source.sha256, "\(e.source.bytes)", "\(e.source.mtime)", "\(g.crop.x)",
      "\(g.crop.y)", "\(g.crop.width)", "\(g.crop.height)", "\(g.scale)", "\(g.angle)", "\(g.centre.x)",
      "\(g.centre.y)", g.smartFocus ?? "", g.flip ?? "", g.notes.joined(separator: "; "),
    ] + PlaceholderKind.allCases.map { e.placeholders?[$0] ?? "" } + [
      e.ssim.map { "\($0)" } ?? "", e.frames.map { "\($0)" } ?? "",
    ]
  }

  /// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
  static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }
}
