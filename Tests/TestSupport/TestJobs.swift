/// Job files that more than one test target runs.
public enum TestJobs {
  /// Over the photos copied into `photos/`: three outputs per photo (two widths of one JPEG
  /// entry and a WebP entry; `extraEntry` adds a PNG entry), and a `from:` job of circles
  /// made from the thumbnails. Run in-process by ExecutorTests and through the built binary
  /// by RunCommandTests; the qualities change one entry's settings between runs.
  public static func thumbsAndTiny(thumbQuality: Int = 82, webpQuality: Int = 70, extraEntry: Bool = false) -> String {
    """
    version: 1
    output: out
    jobs:
      thumbs:
        sources: ["photos"]
        guide: {shape: square, size: 96}
        outputs:
          - path: "thumbs/{stem}-{width}.jpg"
            widths: [96, 192]
            encode: {quality: \(thumbQuality)}
          - path: "webp/{stem}.webp"
            encode: {format: webp, quality: \(webpQuality)}
    \(extraEntry ? "      - path: \"extra/{stem}.png\"\n        encode: {format: png}" : "")
      tiny:
        from: thumbs
        guide: {shape: circle, size: 24}
        outputs: [{path: "tiny/{stem}.png", encode: {format: png}}]
    """
  }

  /// Over the photos copied into `photos/`: two widths of a square JPEG per photo, and a
  /// `from:` job of circles made from them. Windowed runs run it in-process
  /// (`WindowedRunTests`) and through the built binary (`StreamedRunTests`).
  public static let squaresAndDots = """
    version: 1
    output: out
    jobs:
      square:
        sources: photos
        guide: {shape: square, size: 48}
        place: {fit: cover}
        outputs:
          - {path: "square/{stem}-{width}.jpg", widths: [24, 48]}
      dot:
        from: square
        guide: {shape: circle, size: 16}
        outputs:
          - {path: "dot/{stem}.png"}

    """

  /// Two jobs that write `same/kite.jpg` (job `one` from every JPEG in `photos/`, job `two`
  /// from `photos/kite.jpg` alone): a path collision, which makes the plan unrunnable.
  /// PlannerTests plans it in-process; RunCommandTests runs it through the built binary.
  public static let pathCollision = """
    version: 1
    output: out
    jobs:
      one:
        sources: ["photos/*.jpg"]
        guide: {shape: square, size: 64}
        outputs: [{path: "same/{stem}.jpg"}]
      two:
        sources: ["photos/kite.jpg"]
        guide: {shape: square, size: 32}
        outputs: [{path: "same/{stem}.jpg"}]
    """
}
