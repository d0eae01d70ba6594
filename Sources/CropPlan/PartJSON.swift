import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// The JSON of a recipe's parts (`OutputKey.recipe`), memoised: a batch's outputs share a few
/// guides, places and encoders, and sources of one size share transforms, while a
/// `JSONEncoder` costs microseconds per value. The text is `JSONEncoder`'s with sorted keys,
/// byte for byte (RecipeIdentityTests).
///
/// Values with doubles are keyed by the doubles' bits, not by `==`: 0 and -0 are equal but
/// written "0" and "-0". Guides and encoder options hold no doubles. Each table is emptied
/// when it reaches `limit` entries, so a batch of many distinct values costs a hash more per
/// part, never unbounded memory.
enum PartJSON {
  static let limit = 4096

  private struct Tables {
    var guides: [Guide: String] = [:]
    var encoders: [EncodeOptions: String] = [:]
    var places: [PlaceKey: String] = [:]
    var transforms: [AffineKey: String] = [:]
    var tails: [TailKey: String] = [:]
  }

  private static let tables = LockedBox(Tables())

  static func guide(_ value: Guide) -> String { memo(value, \.guides) { json(value) } }
  static func encode(_ value: EncodeOptions) -> String { memo(value, \.encoders) { json(value) } }
  static func place(_ value: PlaceSpec) -> String { memo(PlaceKey(value), \.places) { json(value) } }
  static func transform(_ value: Affine) -> String { memo(AffineKey(value), \.transforms) { json(value) } }
  /// `OutputKey.tail`: the recipe's encoder, metadata and style lines, made by `make`.
  static func tail(encode: EncodeSpec, metadata: MetadataPolicy, style: RenderStyle, _ make: () -> String) -> String {
    memo(TailKey(encode: encode, metadata: metadata, style: style), \.tails, make)
  }

  /// `guide(_:)`, `place(_:)` and `transform(_:)` of one recipe looked up under one lock, and
  /// the recipe's tail lines (`tail()`, memoised by the caller).
  static func parts(guide: Guide, place: PlaceSpec, transform: Affine, tail: () -> String) -> (
    guide: String, place: String, transform: String, tail: String
  ) {
    let placeKey = PlaceKey(place)
    let transformKey = AffineKey(transform)
    let known = tables.withLock { t in (t.guides[guide], t.places[placeKey], t.transforms[transformKey]) }
    return (
      known.0 ?? memo(guide, \.guides) { json(guide) }, known.1 ?? memo(placeKey, \.places) { json(place) },
      known.2 ?? memo(transformKey, \.transforms) { json(transform) }, tail()
    )
  }

  /// `JSONEncoder` with sorted keys; empty when the value cannot be encoded (a NaN).
  static func json<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
  }

  private static func memo<Key: Hashable>(
    _ key: Key, _ table: WritableKeyPath<Tables, [Key: String]>, _ make: () -> String
  ) -> String {
    if let known = tables.withLock({ $0[keyPath: table][key] }) { return known }
    let text = make()
    tables.withLock {
      if $0[keyPath: table].count >= limit { $0[keyPath: table].removeAll(keepingCapacity: true) }
      $0[keyPath: table][key] = text
    }
    return text
  }

  /// A place and the bits of every double in it.
  private struct PlaceKey: Hashable {
    var place: PlaceSpec
    var bits: [UInt64]

    init(_ place: PlaceSpec) {
      self.place = place
      var doubles = [place.zoom, place.offset.x, place.offset.y, place.rotate]
      if case .point(let p) = place.focus { doubles += [p.x, p.y] }
      if let c = place.crop { doubles += [c.x, c.y, c.width, c.height, c.angle] }
      doubles += place.background ?? []
      bits = doubles.map(\.bitPattern)
    }
  }

  /// What the recipe's last lines depend on, the background's doubles bit for bit.
  private struct TailKey: Hashable {
    var encode: EncodeSpec
    var metadata: MetadataPolicy
    var circle: Bool
    var alpha: Bool
    var background: [UInt64]

    init(encode: EncodeSpec, metadata: MetadataPolicy, style: RenderStyle) {
      self.encode = encode
      self.metadata = metadata
      circle = style.circle
      alpha = style.alpha
      background = style.background.map(\.bitPattern)
    }
  }

  /// An affine map's coefficients, bit for bit.
  private struct AffineKey: Hashable {
    var a, b, c, d, tx, ty: UInt64

    init(_ m: Affine) {
      (a, b, c, d, tx, ty) = (
        m.a.bitPattern, m.b.bitPattern, m.c.bitPattern, m.d.bitPattern, m.tx.bitPattern, m.ty.bitPattern
      )
    }
  }
}
