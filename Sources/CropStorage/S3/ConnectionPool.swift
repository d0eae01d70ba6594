import Foundation

/// The S3 store's connections: at most `limit` requests in flight, each on a libcurl handle
/// of its own taken from the pool and given back after, so that a worker's next request
/// reuses the connection its last one left open.
final class ConnectionPool: @unchecked Sendable {
  private let slots: DispatchSemaphore
  private let lock = NSLock()
  private var idle: [CurlConnection] = []
  private var all: [CurlConnection] = []
  private let settings: ConnectionSettings

  init(limit: Int, settings: ConnectionSettings) {
    slots = DispatchSemaphore(value: limit)
    self.settings = settings
  }

  /// Runs `body` on a free connection, waiting for one while `limit` requests are in flight.
  func withConnection<T>(_ body: (CurlConnection) -> T) -> T {
    slots.wait()
    defer { slots.signal() }
    let connection: CurlConnection = lock.withLock {
      if let free = idle.popLast() { return free }
      let made = CurlConnection(settings: settings)
      all.append(made)
      return made
    }
    defer { lock.withLock { idle.append(connection) } }
    return body(connection)
  }

  /// Handles made so far (at most `limit`) and the TCP connections they opened in all.
  var counts: (handles: Int, connections: Int) {
    lock.withLock { (all.count, all.reduce(0) { $0 + $1.connectionsOpened }) }
  }
}
