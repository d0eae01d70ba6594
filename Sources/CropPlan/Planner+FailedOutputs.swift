import CropGeometry
import CropSpec
import CropSupport

extension Planner {
  /// The file output `spec` of `job` would write from `source` at `outputScale`, when its
  /// placement is not known (the photo unreadable, its placement invalid): the template
  /// filled for that photo at the size the job asks for. A failure names this file, never the
  /// template (`{stem}.png`; issue 40.6).
  static func requestedPath(
    _ spec: OutputSpec, job: Job, sourcePath: String, subdirectory: String, outputScale: Double
  ) -> String {
    let size = PixelSize(
      rounding: Size(
        width: Double(job.guide.size.width) * outputScale, height: Double(job.guide.size.height) * outputScale))
    return OutputPaths.render(
      spec.pathTemplate, job: job.name, sourcePath: sourcePath, subdirectory: subdirectory, size: size,
      scale: outputScale, format: spec.encode.options.format)
  }

  /// A photo `job` cannot use at all (unreadable, an override that does not apply, no row of
  /// a required crop table): one error per file it would have written, each naming the file
  /// and the photo, as a photo that fails to decode at run time fails each of its outputs.
  static func failOutputs(
    of job: Job, source: String, subdirectory: String, _ message: String, kind: PlanIssue.Kind,
    into draft: inout PlanDraft
  ) {
    var named = Set<String>()
    for spec in job.outputs {
      for outputScale in scales(spec.sizes, guide: job.guide) {
        let path = requestedPath(
          spec, job: job, sourcePath: source, subdirectory: subdirectory, outputScale: outputScale)
        // Sizes that would collapse onto one name fail once.
        guard named.insert(path).inserted else { continue }
        draft.issue(.error, job: job.name, source: source, output: path, message, kind: kind)
      }
    }
  }
}
