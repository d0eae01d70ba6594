import Dispatch
import Foundation

/// Runs a stage of work on one background thread while the caller makes the next item: the
/// items are handed over in order and handled one at a time, in that order, with at most
/// `depth` waiting (so memory stays that of a few items). `finish` waits for the last.
///
/// The handler is not required to be `Sendable`: what it captures must be touched by it
/// alone until `finish` returns (which orders everything it did before the caller goes on).
package final class SerialPipeline<Item>: @unchecked Sendable {
  private let queue = DispatchQueue(label: "cropjob.pipeline")
  private let group = DispatchGroup()
  private let slots: DispatchSemaphore
  private let handle: (Item) -> Void

  package init(depth: Int = 1, _ handle: @escaping (Item) -> Void) {
    slots = DispatchSemaphore(value: max(1, depth))
    self.handle = handle
  }

  /// Hands `item` over; waits while `depth` items are already waiting.
  package func submit(_ item: Item) {
    slots.wait()
    let box = Box(item)
    queue.async(group: group) { [self] in
      handle(box.item)
      slots.signal()
    }
  }

  /// Waits until every item handed over has been handled.
  package func finish() { group.wait() }

  private final class Box: @unchecked Sendable {
    let item: Item
    init(_ item: Item) { self.item = item }
  }
}
