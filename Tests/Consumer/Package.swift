// swift-tools-version:6.0
// A package that depends on cropjob by path, as another project would: proof that CropKit
// can be used as a dependency (no unsafe flags) and that its public API plans a job.
// Built and run by .ci/run:  swift run --package-path Tests/Consumer plan-job jobs/avatars.yaml
import PackageDescription

let package = Package(
  name: "Consumer",
  dependencies: [.package(name: "cropjob", path: "../..")],
  targets: [
    .executableTarget(
      name: "plan-job", dependencies: [.product(name: "CropKit", package: "cropjob")], path: "Sources/PlanJob")
  ]
)
