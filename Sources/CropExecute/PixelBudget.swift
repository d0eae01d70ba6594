import Foundation

/// Bounds the decoded pixels held at once, so that large photos cannot exhaust memory.
/// A request larger than the whole budget waits until nothing else is in flight.
final class PixelBudget: @unchecked Sendable {
  private let limit: Int
  private var inFlight = 0
  private let condition = NSCondition()

  init(limit: Int) { self.limit = limit }

  func acquire(_ pixels: Int) {
    condition.lock()
    while inFlight > 0 && inFlight + pixels > limit { condition.wait() }
    inFlight += pixels
    condition.unlock()
  }

  func release(_ pixels: Int) {
    condition.lock()
    inFlight -= pixels
    condition.broadcast()
    condition.unlock()
  }
}
