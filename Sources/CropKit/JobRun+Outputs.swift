import CropStorage
import Foundation

extension JobRun {
  /// Where the outputs go: `outputRoot` (`--output`), else the job file's `output`.
  public func outputLocation() throws(StorageError) -> StorageLocation {
    guard let outputRoot else { return file.outputLocation }
    return try StorageLocation.parse(outputRoot)
  }

  /// Opens the store the outputs live in. A local folder: its files, at the output root
  /// (`root`). An `s3://bucket/prefix`: the bucket (credentials, region and endpoint from
  /// the AWS CLI's places, docs/storage.md) listed under the prefix once — the listing
  /// answers every existence check of the run — with a fresh local folder for the state,
  /// into which the state objects this run reads are brought (`StateSync.pull`; not with
  /// `rebuildingState`). Nothing is written. A location, credentials, bucket or permission
  /// that does not work refuses the run (`RunRefusal.storage`).
  package func openOutputs(
    rebuildingState: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment,
    storageOptions: S3Storage.Options = S3Storage.Options()
  ) -> Result<OutputStore, RunRefusal> {
    do throws(StorageError) {
      let location = try outputLocation()
      guard case .s3 = location else { return .success(OutputStore(localRoot: root)) }
      let (storage, prefix) = try location.open(environment: environment, options: storageOptions)
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "cropjob-state-\(UUID().uuidString.prefix(12))"
      ).path
      let outputs = try OutputStore(storage: storage, prefix: prefix, root: folder, ownsRoot: true)
      if !rebuildingState { try StateSync(outputs: outputs, shard: options.shard).pull() }
      return .success(outputs)
    } catch {
      return .failure(.storage(error))
    }
  }
}
