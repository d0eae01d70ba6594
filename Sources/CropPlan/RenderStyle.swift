/// What an output looks like, apart from its geometry.
public struct RenderStyle: Sendable, Hashable {
  /// Cut a circle (antialiased) out of the output.
  public var circle: Bool
  /// Keep an alpha band (the output format can store it).
  public var alpha: Bool
  /// Colour of uncovered pixels and, without alpha, of the outside of a circle: RGBA 0...255.
  public var background: [Double]

  public init(circle: Bool, alpha: Bool, background: [Double]) {
    self.circle = circle
    self.alpha = alpha
    self.background = background
  }
}
