/// Colours and sizes of the proof sheet, in one place. Dark, like a crop screen: the photo
/// stands out, the cut-away part is dimmed, the guide is white dashes on a dark halo.
enum PreviewStyle {
  static let pageBackground: [UInt8] = [32, 33, 36]
  static let cellBackground: [UInt8] = [44, 45, 49]
  static let panelBackground: [UInt8] = [18, 18, 20]
  static let checkerLight: [UInt8] = [204, 204, 204]
  static let checkerDark: [UInt8] = [153, 153, 153]
  static let text: [UInt8] = [232, 234, 237]
  static let secondaryText: [UInt8] = [170, 176, 182]
  static let warning: [UInt8] = [251, 188, 4]
  static let error: [UInt8] = [242, 110, 100]
  static let badgeText: [UInt8] = [20, 20, 20]
  /// The guide outline: white dashes over a dark halo, visible on bright and dark photos.
  static let guide: [UInt8] = [255, 255, 255]
  static let halo: [UInt8] = [0, 0, 0]
  static let haloOpacity = 0.7
  static let focus: [UInt8] = [255, 214, 0]
  static let smart: [UInt8] = [0, 229, 255]
  /// Face and region boxes kept inside the guide; boxes left out are drawn in `warning`.
  static let box: [UInt8] = [118, 255, 3]
  static let outputBorder: [UInt8] = [95, 99, 104]
  /// What is left of the brightness outside the guide.
  static let dim = 0.35

  /// Guide line width (px), halo width on each side, dash and gap lengths, corner brackets.
  static let lineWidth = 2.0
  static let bracketWidth = 4.0
  static let haloWidth = 1.5
  static let dash = 8.0
  static let gap = 5.0
  static let bracketLength = 16.0

  static let font = "sans 12"
  static let smallFont = "sans 11"
  static let lineHeight = 16
  static let panelGap = 20
  static let cellPadding = 10
  static let pageMargin = 16
  static let headerHeight = 48
  /// Caption lines under a tile: name + job, outputs, then warnings.
  static let captionWarningLines = 3
  static var captionHeight: Int { 6 + lineHeight * (2 + captionWarningLines) }
}
