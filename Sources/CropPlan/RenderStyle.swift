/// What an output looks like, apart from its geometry.
package struct RenderStyle: Sendable, Hashable {
  /// Cut a circle (antialiased) out of the output.
  package var circle: Bool
  /// Keep an alpha band (the output format can store it).
  package var alpha: Bool
  /// Colour of uncovered pixels and, without alpha, of the outside of a circle: RGBA 0...255.
  package var background: [Double]

  package init(circle: Bool, alpha: Bool, background: [Double]) {
    self.circle = circle
    self.alpha = alpha
    self.background = background
  }
}
