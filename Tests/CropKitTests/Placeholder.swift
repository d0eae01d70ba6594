import XCTest
final class CropKitTestsPlaceholder: XCTestCase { func testNothing() {} }
