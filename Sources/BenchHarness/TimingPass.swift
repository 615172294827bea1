// The timing pass: every (case, solver) pair sampled in batches, interleaved
// across cases and solvers, within a time budget.

import BenchMetrics
import BenchSchema
import BenchStatistics
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

extension Runner {
    /// The timings of one case, and for solvers that run in this process the
    /// allocations of each phase (`allocations/PHASE`).
    struct CaseTimings {
        var timings: [PhaseTiming] = []
        /// solver -> phases whose answers lacked `time_s`.
        var untimed: [String: [Phase]] = [:]
        var allocations: [String: [Counter: Double]] = [:]
    }

    /// The timing pass on the default variant of every case.
    ///
    /// How it samples, and why:
    /// - A *round* is one pass of a solver through every phase of a case:
    ///   load, solve, the resize sweep, each variant switch, add + remove.
    ///   Warm-up rounds come first and are discarded (first-call costs, caches).
    /// - A *sample* is `k` rounds, and each phase's value is the mean time of
    ///   one operation over them. `k` is chosen from the last warm-up round so
    ///   that a sample lasts at least ``RunSettings/sampleTime``: a phase timed
    ///   once is dominated by timer, scheduler and cache effects below about a
    ///   millisecond, and a batch averages them out, as criterion and Google
    ///   Benchmark do.
    /// - Samples are interleaved **across cases and solvers**: each sample round
    ///   takes one sample of every (case, solver) pair and of every case's
    ///   parse, the order rotating. Why across cases: interference on a shared
    ///   machine comes in bursts of about a second; when a case's samples were
    ///   taken back to back, one burst could move that one case's median for
    ///   every solver and the parse alike (evidence:
    ///   docs/measurements.md#m-gate-baseline). Spread over the whole run, a
    ///   burst touches a few samples of every case, and the median ignores them.
    /// - The number of rounds adapts to ``RunSettings/timeBudget`` per case:
    ///   at least ``RunSettings/repetitions``, at most ``RunSettings/maxSamples``.
    /// - Complexity: O(rounds × cases × solvers) solver rounds.
    func time(_ cases: [CheckedCase], progress: (Int, Int) -> Void = { _, _ in }) -> [CaseTimings] {
        var pass = TimingPass(runner: self, cases: cases)
        pass.warmUp()
        pass.sample(progress: progress)
        return pass.timings()
    }
}

/// One timing pass's state: what is timed (the entrants), the samples taken
/// so far and the entrants that broke. The steps run in order: ``warmUp()``,
/// ``sample(progress:)``, ``timings()``.
struct TimingPass {
    /// One thing timed: a solver on a case, or a case's parse (`solver` nil).
    struct Entrant {
        var caseIndex: Int
        var solver: SolverSpec?
        var name: String { solver?.name ?? "-" }
        var iterations = 1
    }

    let runner: Runner
    let cases: [Runner.CheckedCase]
    var entrants: [Entrant] = []
    // entrant -> phase -> seconds per operation, one per sample
    var samples: [[Phase: [Double]]]
    // entrant -> phase -> allocations of one operation, one per sample
    var allocationSamples: [[Phase: [Double]]]
    let usesGLPK: Bool
    var broken = Set<Int>()
    // entrant -> phases an answer of which carried no `time_s`
    var untimedPhases: [Set<Phase>]
    /// The yardstick's results, accumulated so that the work is not optimised away.
    var sink = 0.0
    var yardstickBatch = 1

    var settings: RunSettings { runner.settings }

    init(runner: Runner, cases: [Runner.CheckedCase]) {
        self.runner = runner
        self.cases = cases
        for (i, c) in cases.enumerated() {
            entrants.append(Entrant(caseIndex: i, solver: nil))
            for spec in c.usable { entrants.append(Entrant(caseIndex: i, solver: spec)) }
        }
        samples = [[Phase: [Double]]](repeating: [:], count: entrants.count)
        allocationSamples = [[Phase: [Double]]](repeating: [:], count: entrants.count)
        untimedPhases = [Set<Phase>](repeating: [], count: entrants.count)
        usesGLPK = runner.settings.solvers.contains { $0.isGLPK }
    }

    /// One round of an entrant: every phase once (a parse alone for a parse
    /// entrant); `record` nil for warm-up.
    func round(_ entrant: Entrant, _ record: ((Phase, Double, UInt64?) -> Void)?,
               untimed: ((Phase) -> Void)? = nil) throws {
        let benchCase = cases[entrant.caseIndex].benchCase
        guard let spec = entrant.solver else {
            let t = Runner.seconds { _ = LayoutParser.parse(bytes: benchCase.text, fileName: benchCase.name) }
            record?(.parse, t, nil)
            return
        }
        let layout = benchCase.layout
        let solver = runner.instance(spec, ambiguity: false)
        let external = runner.externalInstance(spec)
        let usesGLPK = usesGLPK
        func measure(_ phase: Phase, _ body: () throws -> Void) throws {
            external?.resetReportedSeconds()
            // GLPK's queued frees finish first, so that they are not counted
            // against this operation (outside the timed region).
            if usesGLPK { GLPKLayoutSolver.waitForPendingWork() }
            // The count is read outside the timed region: two atomic loads.
            var wall = 0.0
            let allocated = try Allocations.made { wall = try Runner.seconds(body) }
            // Why the solver's own seconds for external solvers: the pipe and
            // JSON round trip is the harness's cost, not the solver's.
            let value = external.map { $0.reportedSeconds } ?? wall
            // Why not 0 without `time_s`: a solver that does not time
            // itself would look infinitely fast; its phase is untimed.
            if let external, external.missedTime {
                untimed?(phase)
                return
            }
            // Why only in-process solvers' allocations: an external solver
            // allocates in its own process; what this process allocates
            // meanwhile is the channel's reading, not the solver's work.
            record?(phase, value, external == nil ? allocated : nil)
        }
        try measure(.load) { try solver.prepare(layout, variant: nil) }
        try measure(.solve) { _ = try solver.solve() }
        let height = layout.container.height
        for width in settings.sweep {
            try measure(.resize) { _ = try solver.resize(to: ContainerSize(width: width, height: height)) }
        }
        _ = try solver.resize(to: layout.container)
        for v in layout.variants.map(\.name) {
            try measure(.switch) { _ = try solver.switchVariant(to: v) }
            _ = try solver.switchVariant(to: nil)
        }
        if solver.capabilities.incremental, let probe = cases[entrant.caseIndex].probe {
            try measure(.addRemove) {
                let handle = try solver.addConstraint(probe)
                try solver.removeConstraint(handle)
            }
        }
    }

    /// Warm-up, which also sizes each entrant's batch from its last round,
    /// then the yardstick's batch, sized like an entrant's.
    mutating func warmUp() {
        let minimumSample = max(0, settings.sampleTime)
        let warmups = max(1, settings.warmup)
        for index in entrants.indices {
            var untimed = untimedPhases[index]
            defer { untimedPhases[index] = untimed }
            for rep in 0..<warmups {
                do {
                    let t = try Runner.seconds { try round(entrants[index], nil) { untimed.insert($0) } }
                    if rep == warmups - 1, t > 0, t.isFinite {
                        entrants[index].iterations = max(1, min(100_000, Int((minimumSample / t).rounded(.up))))
                    }
                } catch {
                    broken.insert(index)
                    break
                }
            }
        }
        let yardstickOnce = Runner.seconds { sink += Runner.yardstick() }
        yardstickBatch = yardstickOnce > 0 ? max(1, min(100_000, Int((minimumSample / yardstickOnce).rounded(.up)))) : 1
        runner.yardstickSamples = []
    }

    /// Sampling, interleaved and rotated, until the budget is spent (at
    /// least ``RunSettings/repetitions`` rounds, at most ``RunSettings/maxSamples``).
    mutating func sample(progress: (Int, Int) -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        let budget = settings.timeBudget * Double(cases.count)
        let maximum = max(settings.repetitions, settings.maxSamples)
        var taken = 0
        while taken < maximum && !entrants.isEmpty {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            if taken >= settings.repetitions && elapsed >= budget { break }
            progress(taken, taken >= settings.repetitions ? taken + 1 : settings.repetitions)
            // Why rotate: each entrant takes each position in turn, so a
            // periodic disturbance does not always land on the same one.
            let batch = yardstickBatch
            let t = Runner.seconds { for _ in 0..<batch { sink += Runner.yardstick() } }
            runner.yardstickSamples.append(t / Double(batch))
            for offset in entrants.indices {
                sampleOnce((offset + taken) % entrants.count)
            }
            taken += 1
        }
        if sink.isNaN { runner.yardstickSamples = [] }  // never: keeps the work from being optimised away
    }

    /// One sample of entrant `index`: its batch of rounds, each phase's mean.
    mutating func sampleOnce(_ index: Int) {
        guard !broken.contains(index) else { return }
        var accumulated: [Phase: (seconds: Double, operations: Int)] = [:]
        var allocations: [Phase: [Double]] = [:]
        let record: (Phase, Double, UInt64?) -> Void = { phase, seconds, allocated in
            accumulated[phase, default: (0, 0)].seconds += seconds
            accumulated[phase, default: (0, 0)].operations += 1
            // One operation's count per phase and sample: the count is a
            // property of the code path, not of the batch.
            if let allocated, accumulated[phase]?.operations == 1 {
                allocations[phase, default: []].append(Double(allocated))
            }
        }
        var untimed = untimedPhases[index]
        defer { untimedPhases[index] = untimed }
        do {
            for _ in 0..<entrants[index].iterations {
                try round(entrants[index], record) { untimed.insert($0) }
            }
        } catch {
            for (phase, values) in allocations { allocationSamples[index][phase, default: []] += values }
            broken.insert(index)
            return
        }
        for (phase, values) in allocations { allocationSamples[index][phase, default: []] += values }
        for (phase, a) in accumulated where a.operations > 0 {
            samples[index][phase, default: []].append(a.seconds / Double(a.operations))
        }
    }

    /// The summaries per case: each entrant's phases (untimed ones named
    /// instead) and its allocation counts.
    func timings() -> [Runner.CaseTimings] {
        var out = [Runner.CaseTimings](repeating: Runner.CaseTimings(), count: cases.count)
        for (index, entrant) in entrants.enumerated() where !broken.contains(index) {
            let phases: [Phase] = entrant.solver == nil ? [.parse] : Phase.solverPhases
            if !untimedPhases[index].isEmpty {
                out[entrant.caseIndex].untimed[entrant.name] = phases.filter { untimedPhases[index].contains($0) }
            }
            for phase in phases where !untimedPhases[index].contains(phase) {
                if let values = samples[index][phase], let summary = TimingSummary(values) {
                    out[entrant.caseIndex].timings.append(PhaseTiming(solver: entrant.name, phase: phase, summary: summary,
                                                                      samples: values, iterations: entrant.iterations))
                }
            }
            // Why the lower median: an allocation count is an exact figure of
            // the code path, and a sample of the samples (not an average) stays
            // one; a first-call cache fill in one sample does not move it.
            // (The minimum, tried because other threads can only add to the
            // process-wide count, made cassowary's switch differ by one between
            // processes where the lower median repeats exactly.)
            for (phase, values) in allocationSamples[index] where !values.isEmpty {
                if let counter = phase.allocationCounter {
                    out[entrant.caseIndex].allocations[entrant.name, default: [:]][counter] = values.sorted()[(values.count - 1) / 2]
                }
            }
        }
        return out
    }
}
