import CropGeometry

extension Planner {
  /// The sizes of one output entry for one photo, less those it cannot fill, and one warning
  /// per output file they concern.
  struct CollapsedSizes {
    /// The outputs written.
    var kept: [PlannedOutput] = []
    /// One warning per path: a size left out on a file of its own name, or, where capped
    /// sizes land on one file (`{width}`), that file's single warning naming every size.
    var warnings: [(path: String, text: String)] = []
    /// Kept outputs whose `upscaleCapped` note is said in `warnings` (not again).
    var folded: Set<String> = []
  }

  /// With the upscale capped, sizes that collapse onto one path are written once (the first);
  /// with `upscale: skip`, a capped size (the photo's own size) is written once, and not at all
  /// when another size of the entry has its pixel size. Each size left out is named once in a
  /// warning with the output that stands for it; when that output is the same file, its own
  /// cap and the sizes folded onto it make one warning (issue 40.6: one warning per output).
  /// (Different entries or photos on one path stay a collision.)
  static func collapsedSizes(_ sizes: [PlannedOutput], skip: Bool) -> CollapsedSizes {
    var result = CollapsedSizes()
    // Per kept path folded onto: the sizes asked for that it stands for (its own first).
    var onto: [String: [String]] = [:]
    var order: [String] = []
    func capped(_ output: PlannedOutput) -> Bool {
      output.geometry.notes.contains { if case .upscaleCapped = $0 { true } else { false } }
    }
    func requested(_ output: PlannedOutput) -> String {
      for note in output.geometry.notes { if case .upscaleCapped(let size, _) = note { return "\(size)" } }
      return "\(output.geometry.outputSize)"
    }
    func fold(_ output: PlannedOutput, onto kept: PlannedOutput) {
      if onto[kept.path] == nil {
        order.append(kept.path)
        onto[kept.path] = capped(kept) ? [requested(kept)] : []
      }
      onto[kept.path, default: []].append(requested(output))
    }
    for output in sizes {
      let size = output.geometry.outputSize
      if skip, capped(output),
        let other = result.kept.first(where: { $0.geometry.outputSize == size })
          ?? sizes.first(where: { !capped($0) && $0.geometry.outputSize == size })
      {
        if other.path == output.path, result.kept.contains(where: { $0.path == other.path }) {
          fold(output, onto: other)
        } else {
          result.warnings.append(
            (
              output.path,
              "upscale: skip: the photo cannot fill \(requested(output)); \(other.path) (\(size)) stands for it"
            ))
        }
      } else if let first = result.kept.first(where: { $0.path == output.path }) {
        fold(output, onto: first)
      } else {
        result.kept.append(output)
      }
    }
    for path in order {
      guard let kept = result.kept.first(where: { $0.path == path }), let asked = onto[path] else { continue }
      let size = kept.geometry.outputSize
      let list =
        asked.count == 1 ? asked[0] : asked.dropLast().joined(separator: ", ") + (skip ? " or " : " and ") + asked.last!
      let text =
        skip
        ? "upscale: skip: the photo cannot fill \(list); \(path) (\(size)) stands for \(asked.count == 1 ? "it" : "them")"
        : "upscale is off: the \(list) size\(asked.count == 1 ? " collapses" : "s collapse") onto \(path) (\(size)): "
          + "written once"
      result.warnings.append((path, text))
      if capped(kept) { result.folded.insert(path) }
    }
    return result
  }
}
