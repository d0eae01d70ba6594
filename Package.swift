// swift-tools-version:6.0
import PackageDescription

// One target per stage; the graph (docs/architecture.md) is a DAG that scripts/check-layers.py
// checks in CI: a dependency not listed there for a target fails the build.
let package = Package(
  name: "cropjob",
  products: [
    .library(name: "CropKit", targets: ["CropKit"]),
    .executable(name: "cropjob", targets: ["cropjob"]),
  ],
  targets: [
    // System libraries, found through pkg-config (Debian: libvips-dev, libyaml-dev, libsqlite3-dev,
    // libturbojpeg0-dev). libvips through glib's pkg-config: vips.pc's cflags include those of its
    // private requirements (OpenEXR, gio's libmount), whose `-pthread` SwiftPM refuses with a
    // warning on every build; <vips/vips.h> needs only glib's include folders (its own are in
    // /usr/include). vips and gobject are linked by the module map (Swift) and by CVipsShim (C).
    .systemLibrary(
      name: "CVips", path: "Sources/CVips", pkgConfig: "glib-2.0",
      providers: [.apt(["libvips-dev"])]),
    .systemLibrary(
      name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]),
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    // Zstandard: the state object an object store's output prefix keeps is compressed
    // (docs/storage.md, "The state object").
    .systemLibrary(
      name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
    // libjpeg-turbo's TurboJPEG API: JPEGs decoded without libvips (docs/decoding.md).
    .systemLibrary(
      name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]),
    // The face detector (libfacedetection's YuNet CNN) behind a C interface: a small loader that
    // opens the prebuilt library scripts/install-deps.sh installs (from a PyPI wheel) with dlopen
    // on first use, so that nothing else loads it or its OpenMP runtime.
    .target(name: "CFaceDetect", path: "Sources/CFaceDetect", linkerSettings: [.linkedLibrary("dl")]),
    // Fixed-arity C wrappers over libvips' variadic API (Swift cannot call C variadics), with
    // libvips' start-up and log capture; they return 0 or -1 as libvips does, the exceptions
    // named in cvips_shim.h. gmodule: cj_init opens libvips' heif module itself (the others
    // are not loaded).
    .target(
      name: "CVipsShim", dependencies: ["CVips"], path: "Sources/CVipsShim",
      linkerSettings: [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("gmodule-2.0")]),
    // Pixel kernels and codecs in C: box shrink, separable resample, area average, the last
    // pass, SSIM, JPEG headers read and JPEG/PNG written with libjpeg and libpng directly.
    // They return 0, 1 ("nothing done: take libvips' path") or -1 (cpixels.h). jpeg: libjpeg
    // (Debian libjpeg-dev, which libvips-dev depends on); png16: libpng (Debian libpng-dev,
    // likewise) (docs/decoding.md).
    .target(
      name: "CPixels", dependencies: ["CVipsShim", "CVips"], path: "Sources/CPixels",
      linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
    // C calls that are not libvips': SHA-256 through libcrypto when present, syncfs.
    .target(name: "CSystem", path: "Sources/CSystem"),
    // libcurl (Debian libcurl4-openssl-dev) with fixed-arity wrappers over its variadic calls:
    // HTTP and AWS SigV4 signing for the S3 storage (docs/storage.md).
    .systemLibrary(
      name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),

    // Pure placement math: no libvips, no I/O.
    .target(name: "CropGeometry", path: "Sources/CropGeometry"),
    // Hashing, paths, concurrency helpers and the version: what every stage may use.
    .target(name: "CropSupport", dependencies: ["CSystem"], path: "Sources/CropSupport"),
    // Where files live: one protocol (list, stat with a change token, read, atomic write,
    // delete) with the local file system and S3 (through libcurl) behind it (docs/storage.md).
    .target(name: "CropStorage", dependencies: ["CropSupport", "CCurl"], path: "Sources/CropStorage"),
    // YAML reader, job model, schema table, decoder with located diagnostics. No libvips.
    // CropStorage for `s3://` locations: parsed (no network) where a path is read or written.
    .target(
      name: "CropSpec", dependencies: ["CropGeometry", "CropSupport", "CropStorage", "CYAML"],
      path: "Sources/CropSpec"),
    // Source expansion, headers through a reader it is given, geometry, names, keys, shards.
    .target(
      name: "CropPlan", dependencies: ["CropSpec", "CropGeometry", "CropSupport", "CropStorage"],
      path: "Sources/CropPlan"),
    // The only Swift target that sees libvips, libjpeg-turbo and the face detector: decode,
    // render, smart focus, faces, encode.
    .target(
      name: "CropImaging",
      dependencies: [
        "CropPlan", "CropSpec", "CropGeometry", "CropSupport", "CVipsShim", "CPixels", "CTurboJPEG",
        "CFaceDetect",
      ],
      path: "Sources/CropImaging"),
    // Atomic writer, manifest, and the state database (SQLite) with its header cache.
    .target(
      name: "CropStore",
      dependencies: [
        "CropPlan", "CropSpec", "CropGeometry", "CropSupport", "CropStorage", "CSystem", "CSQLite", "CZstd",
      ],
      path: "Sources/CropStore"),
    // The concurrent executor: decode once per source, render, encode, commit.
    .target(
      name: "CropExecute",
      dependencies: [
        "CropImaging", "CropStore", "CropStorage", "CropPlan", "CropSpec", "CropGeometry", "CropSupport",
      ],
      path: "Sources/CropExecute"),
    // Proof sheets: the plan's guides drawn over the photos, beside the outputs.
    .target(
      name: "CropPreview",
      dependencies: ["CropImaging", "CropStore", "CropPlan", "CropSpec", "CropGeometry", "CropSupport"],
      path: "Sources/CropPreview"),
    // What library users import: every stage, re-exported.
    .target(
      name: "CropKit",
      dependencies: [
        "CropGeometry", "CropSupport", "CropSpec", "CropPlan", "CropImaging", "CropStore", "CropStorage",
        "CropExecute", "CropPreview",
      ],
      path: "Sources/CropKit"),
    .executableTarget(name: "cropjob", dependencies: ["CropKit"], path: "Sources/cropjob"),

    // What the test targets share, none of the stages: paths and scratch folders (RunHarness's
    // folder), running other programs (the oracles), seeded randomness, the public corpora.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // A harness's job loaded, planned and run in-process through CropKit's composition
    // (`JobPlan`, `JobRun`), with the events collected: for ExecuteTests and CLITests.
    .target(name: "RunSupport", dependencies: ["CropKit", "TestSupport"], path: "Tests/RunSupport"),
    // One test target per stage, named after the stage whose code it checks and depending on
    // that stage (docs/testing.md); tests that run whole jobs in-process are ExecuteTests.
    // Fixtures (Tests/Fixtures) and the Python oracles (Tests/Oracle) are read by path.
    .testTarget(name: "GeometryTests", dependencies: ["CropGeometry", "TestSupport"], path: "Tests/GeometryTests"),
    .testTarget(name: "SpecTests", dependencies: ["CropSpec", "CropStorage", "TestSupport"], path: "Tests/SpecTests"),
    // The planner reads real photos' headers through libvips (CropImaging's VipsHeaderReader).
    .testTarget(
      name: "PlanTests", dependencies: ["CropPlan", "CropImaging", "CropStorage", "TestSupport"],
      path: "Tests/PlanTests"),
    .testTarget(
      name: "ImagingTests", dependencies: ["CropImaging", "CVipsShim", "CPixels", "TestSupport"],
      path: "Tests/ImagingTests"),
    .testTarget(name: "StoreTests", dependencies: ["CropStore", "TestSupport"], path: "Tests/StoreTests"),
    .testTarget(
      name: "ExecuteTests", dependencies: ["CropExecute", "CropKit", "RunSupport", "TestSupport"],
      path: "Tests/ExecuteTests"),
    .testTarget(name: "PreviewTests", dependencies: ["CropPreview", "TestSupport"], path: "Tests/PreviewTests"),
    // The storage seam against a real S3 server (moto on loopback, Tests/S3).
    .testTarget(
      name: "StorageTests", dependencies: ["CropStorage", "CropSupport", "TestSupport"], path: "Tests/StorageTests"),
    // The command line's contract: arguments, exit codes, output text, through the binary.
    .testTarget(
      name: "CLITests", dependencies: ["CropKit", "cropjob", "RunSupport", "TestSupport"], path: "Tests/CLITests"),
  ]
)
