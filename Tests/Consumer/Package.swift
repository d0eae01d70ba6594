// swift-tools-version:6.0
// A package that depends on cropjob by path, as another project would: proof that CropKit
// can be used as a dependency (no unsafe flags) and that its public API plans a job
// (plan-job, `JobPlan`), runs one as `cropjob run` does (run-job, `JobRun`), and cancels one
// of two runs going at once while the other finishes (cancel-one, `RunOptions.cancellation`).
// Built and run by .ci/run:  swift run --package-path Tests/Consumer plan-job jobs/avatars.yaml
// and .ci/consumer-check (run-job's outputs byte for byte against `cropjob run`'s).
import PackageDescription

let package = Package(
  name: "Consumer",
  dependencies: [.package(name: "cropjob", path: "../..")],
  targets: [
    .executableTarget(
      name: "plan-job", dependencies: [.product(name: "CropKit", package: "cropjob")], path: "Sources/PlanJob"),
    .executableTarget(
      name: "run-job", dependencies: [.product(name: "CropKit", package: "cropjob")], path: "Sources/RunJob"),
    .executableTarget(
      name: "cancel-one", dependencies: [.product(name: "CropKit", package: "cropjob")], path: "Sources/CancelOne"),
  ]
)
