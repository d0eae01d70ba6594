// swift-tools-version:6.0
import PackageDescription

/// The library is compiled with optimisation even in debug builds: hashing, masks and the
/// planner run over whole batches, and `swift test` runs real jobs (about 10x faster).
let optimized: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
  name: "cropjob",
  products: [
    .library(name: "CropKit", targets: ["CropKit"]),
    .executable(name: "cropjob", targets: ["cropjob"]),
  ],
  targets: [
    // System libraries, found through pkg-config (Debian: libvips-dev, libyaml-dev).
    .systemLibrary(
      name: "CVips", path: "Sources/CVips", pkgConfig: "vips",
      providers: [.apt(["libvips-dev"])]),
    .systemLibrary(
      name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]),
    // Fixed-arity C wrappers over libvips' variadic API (Swift cannot call C variadics).
    // gmodule: cj_init opens libvips' heif module itself (the others are not loaded).
    .target(
      name: "CVipsShim", dependencies: ["CVips"], path: "Sources/CVipsShim",
      linkerSettings: [.linkedLibrary("gmodule-2.0")]),
    // Pure placement math: no libvips, no I/O.
    .target(name: "CropGeometry", path: "Sources/CropGeometry", swiftSettings: optimized),
    .target(
      name: "CropKit", dependencies: ["CropGeometry", "CVipsShim", "CYAML"],
      path: "Sources/CropKit", swiftSettings: optimized),
    .executableTarget(name: "cropjob", dependencies: ["CropKit"], path: "Sources/cropjob"),
    // What the test targets share: running other programs, seeded randomness.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "GeometryTests", dependencies: ["CropGeometry", "TestSupport"], path: "Tests/GeometryTests"),
    // Fixtures (job files, plans) and the Python oracle are read by path, not built.
    .testTarget(
      name: "CropKitTests", dependencies: ["CropKit", "TestSupport"], path: "Tests/CropKitTests",
      exclude: ["Fixtures", "Oracle/placement_oracle.py"]),
    .testTarget(name: "CLITests", dependencies: ["CropKit", "cropjob", "TestSupport"], path: "Tests/CLITests"),
  ]
)
