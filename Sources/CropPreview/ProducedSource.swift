import CropGeometry
import CropImaging
import CropPlan
import Foundation

/// Sources of `from:` jobs are files an earlier job writes. When the file is not there yet,
/// the preview renders it in memory, as that job would (its own source decoded as the run
/// decodes it, its geometry with smart focus resolved, its style), without encoding it.
enum ProducedSource {
  static func render(
    _ source: PlannedSource, plan: Plan, strictness: DecodeStrictness, depth: Int = 0
  ) -> Result<DecodedSource, ImagingError> {
    guard depth < 16, let header = source.header,
      let upstream = plan.outputs.first(where: { $0.absolutePath == source.absolutePath })
    else {
      return .failure(ImagingError(operation: "load", path: source.path, message: "no earlier job makes this file"))
    }
    let origin = plan.sources[upstream.sourceIndex]
    let decoded: Result<DecodedSource, ImagingError>
    if origin.producedBy != nil && !FileManager.default.fileExists(atPath: origin.absolutePath) {
      decoded = render(origin, plan: plan, strictness: strictness, depth: depth + 1)
    } else if let originHeader = origin.header, origin.error == nil {
      decoded = Result { () throws(ImagingError) -> DecodedSource in
        try DecodedSource.decode(
          path: origin.absolutePath, header: originHeader, shrink: origin.loadShrink, strictness: strictness)
      }
    } else {
      decoded = .failure(ImagingError(operation: "load", path: origin.path, message: origin.error ?? "no header"))
    }
    return decoded.flatMap { upstreamSource in
      Result { () throws(ImagingError) -> DecodedSource in
        try DecodedSource.rendering(upstream, from: upstreamSource, header: header, path: source.absolutePath)
      }
    }
  }
}
