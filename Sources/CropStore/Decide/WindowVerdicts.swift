import CropPlan
import CropSupport

/// What the decide room says of one planned output before anything is written.
package enum Verdict: UInt8, Sendable {
  /// To write.
  case toBuild
  /// Its file is what the run would write (recorded with the key it would have now, at the
  /// recorded size): kept.
  case upToDate
  /// Its path holds a file the state neither records nor claims as cropjob's
  /// (`FileInTheWay`).
  case foreign
  /// Its file has the recorded size, but its source's content hash is not known before the
  /// run writes (`run`: a photo whose recorded facts differ, hashed by the run; an earlier
  /// job's output the run writes first): up to date when the key it gets from that hash is
  /// the recorded one (`WindowVerdicts.settle`).
  case keyed
}

/// One planned window as the decide room judged it (`VerdictPass`): a verdict per output of
/// its plan, which outputs the state records or claims, and what `settle` needs to finish a
/// `keyed` verdict. A value: the executor takes it with the window and reads the state no
/// more for it.
package struct WindowVerdicts: Sendable {
  /// Per output of the window's plan: `Verdict` in the low two bits, `recorded` and
  /// `claimed` above (`VerdictPass.Flags`).
  let flags: [UInt8]
  /// The recorded key of each `keyed` output (by index in the plan).
  let recordedKeys: [Int: SHA256Digest]
  /// The paths of the window's outputs, by index (for `upToDatePaths`).
  let paths: [String]
  /// Output path → the key the manifest will hold (`OutputKey.key`), for `plan --format
  /// json` (`VerdictPass.facts`); empty otherwise.
  package var manifestKeys: [String: String] = [:]

  init(flags: [UInt8], recordedKeys: [Int: SHA256Digest], paths: [String]) {
    self.flags = flags
    self.recordedKeys = recordedKeys
    self.paths = paths
  }

  /// The verdict on output `k` of the window's plan.
  package func verdict(_ k: Int) -> Verdict { Verdict(rawValue: flags[k] & Flags.verdict) ?? .toBuild }

  /// Whether the state records output `k` (an earlier run wrote it).
  package func isRecorded(_ k: Int) -> Bool { flags[k] & Flags.recorded != 0 }

  /// Whether the state claims output `k` as cropjob's (a run was about to write it).
  package func isClaimed(_ k: Int) -> Bool { flags[k] & Flags.claimed != 0 }

  /// The outputs among `selected` that the run must claim before it writes them: neither
  /// recorded nor claimed yet.
  package func toClaim(_ selected: [Int]) -> [Int] {
    selected.filter { flags[$0] & (Flags.recorded | Flags.claimed) == 0 }
  }

  /// The paths of the outputs found up to date.
  package var upToDatePaths: Set<String> {
    Set(flags.indices.filter { verdict($0) == .upToDate }.map { paths[$0] })
  }

  /// The flag bits of one output.
  enum Flags {
    static let verdict: UInt8 = 0b11
    static let recorded: UInt8 = 0b100
    static let claimed: UInt8 = 0b1000
  }
}

extension WindowVerdicts {
  /// The outputs of one source in a run, settled against the source as it is now.
  package struct Settled: Sendable {
    /// The source's record for the keys of the outputs to write (nil when every output was
    /// up to date and the source unchanged).
    package var source: UpToDateCheck.SourceState?
    /// Up to date: not written.
    package var upToDate: [Int]
    /// To write, each with the key its manifest entry gets.
    package var toBuild: [(output: Int, key: String)]
  }

  /// Settles `outputs` (of one source, indices in `plan`) as the run reaches them: the
  /// source is looked at once (`stat`) and hashed only when the plan's recorded hash does
  /// not hold for it any more (a photo that changed since it was planned: its outputs found
  /// up to date are written after all) or none is known (a `keyed` output then is up to date
  /// when its key is the recorded one). An earlier job's output is hashed every time.
  /// Whether settling `outputs` (of one source) may read the source: false when they are
  /// all up to date and the source is unchanged since planned (its identity now, for an
  /// object the listing's change token, is the recorded one), so nothing is read or fetched.
  package func mayReadSource(_ outputs: [Int], plan: Plan) -> Bool {
    let source = plan.sources[plan.outputs[outputs[0]].sourceIndex]
    return !(outputs.allSatisfy({ verdict($0) == .upToDate }) && Freshness.isUnchanged(source))
  }

  /// `read` gives the bytes of a source in object storage when it must be hashed (the
  /// caller keeps them for the decode).
  package func settle(_ outputs: [Int], plan: Plan, read: (() throws -> [UInt8])? = nil) throws -> Settled {
    let source = plan.sources[plan.outputs[outputs[0]].sourceIndex]
    if outputs.allSatisfy({ verdict($0) == .upToDate }), Freshness.isUnchanged(source) {
      return Settled(source: nil, upToDate: outputs, toBuild: [])
    }
    let state = try Freshness.currentState(of: source, read: read)
    // The photo's hash is not the one the verdicts were made with: it changed since.
    let changed = source.producedBy == nil && state.hashed
    var settled = Settled(source: state, upToDate: [], toBuild: [])
    for k in outputs {
      let key = OutputKey.key(
        recipe: plan.outputs[k].recipe, sourceHash: state.record.sha256, engine: plan.engineVersion)
      let fresh: Bool
      switch verdict(k) {
      case .upToDate: fresh = !changed
      case .keyed: fresh = recordedKeys[k] == SHA256Digest(hex: key)
      case .toBuild, .foreign: fresh = false
      }
      if fresh { settled.upToDate.append(k) } else { settled.toBuild.append((k, key)) }
    }
    return settled
  }
}
