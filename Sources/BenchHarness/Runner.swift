import CassowaryLayout
import ExternalSolvers
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

/// What a run does.
public struct RunSettings: Sendable {
    public var solvers: [SolverSpec]
    public var repetitions = 5
    public var warmup = 1
    /// Seconds per external-solver operation.
    public var timeout = 30.0
    /// The widths of the resize sweep.
    public var sweep: [Double] = [320, 375, 414, 768, 1024]

    public init(solvers: [SolverSpec]) { self.solvers = solvers }
}

/// One case x variant x solver.
public struct VariantResult: Sendable {
    public var variant: String
    public var solver: String
    public var verdict: Verdict
    public var reasons: [String]
    public var status: Solution.Status?
    public var levels: [LevelError]
    public var ambiguous: [String]?
    public var conflict: [String]
    public var frames: [Frame]
    public var viewNames: [String]
}

/// Timings of one phase of one solver on a case (seconds).
public struct PhaseTiming: Sendable {
    public var solver: String
    /// parse, load, solve, resize, switch, add+remove.
    public var phase: String
    public var summary: TimingSummary
}

/// Everything a run found about one case.
public struct CaseResult: Sendable {
    public var name: String
    public var source: String
    public var views: Int
    public var constraints: Int
    public var variants: [String]
    public var results: [VariantResult]
    public var timings: [PhaseTiming]
    /// Machine-independent counts per solver (Cassowary pivots, GLPK simplex iterations).
    public var counters: [String: [String: Double]]
}

/// Progress of a run, for the CLI's progress bar.
public struct RunProgress: Sendable {
    public var done: Int
    public var total: Int
    public var current: String
}

/// Runs the cases through the solvers: a check pass (the verdicts) then a
/// timing pass (warm-ups, repetitions, solvers interleaved per repetition so
/// machine drift spreads evenly over them).
public final class Runner {
    public let settings: RunSettings
    /// External solvers live for the whole run (one process each).
    var externals: [String: ExternalSolver] = [:]

    public init(settings: RunSettings) { self.settings = settings }

    func instance(_ spec: SolverSpec, ambiguity: Bool = true) -> LayoutSolver {
        if case .external = spec.kind {
            if let existing = externals[spec.name] { return existing }
            let made = spec.make(timeout: settings.timeout)
            if let external = made as? ExternalSolver { externals[spec.name] = external }
            return made
        }
        return spec.make(timeout: settings.timeout, ambiguity: ambiguity)
    }

    /// Wall-clock seconds of `body` (monotonic clock).
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
    }

    /// The median time of a fixed CPU workload (a dependent chain of
    /// floating-point operations over a small array), measured in the run so
    /// gates can compare times as ratios to it rather than across machines.
    public static func calibrate() -> Double {
        var samples: [Double] = []
        var sink = 0.0
        for _ in 0..<7 {
            samples.append(seconds {
                var values = [Double](repeating: 1.0001, count: 4096)
                for round in 0..<60 {
                    for i in values.indices { values[i] = values[i] * 1.0000001 + Double((i ^ round) & 7) * 1e-9 }
                }
                sink += values[17]
            })
        }
        if sink.isNaN { return 1 }  // keeps the work from being optimised away
        return samples.sorted()[samples.count / 2]
    }

    /// Runs every case; `progress` is called before each.
    public func run(_ cases: [BenchCase], progress: (RunProgress) -> Void = { _ in }) -> [CaseResult] {
        var results: [CaseResult] = []
        for (i, benchCase) in cases.enumerated() {
            progress(RunProgress(done: i, total: cases.count, current: benchCase.name))
            results.append(run(benchCase))
        }
        progress(RunProgress(done: cases.count, total: cases.count, current: ""))
        return results
    }

    func overLimit(_ spec: SolverSpec, _ benchCase: BenchCase) -> Int? {
        guard let limit = benchCase.limits[spec.name], benchCase.constraintCount > limit else { return nil }
        return limit
    }

    /// The constraint added and removed by the add + remove phase: required,
    /// never binding, on the first view.
    static func probe(_ layout: Layout) -> LayoutConstraint? {
        guard let view = layout.views.first else { return nil }
        return LayoutConstraint(ItemAttribute(view.name, .width), .lessThanOrEqual, nil, constant: 1e7, identifier: "probe")
    }

    public func run(_ benchCase: BenchCase) -> CaseResult {
        let layout = benchCase.layout
        let variants = layout.allVariants.map(\.name)
        var systems: [String: LoweredSystem] = [:]
        for v in variants { systems[v] = try? layout.lowered(variant: v) }

        // The reference, fresh per variant, with ambiguity analysis.
        var reference: [String: Solution] = [:]
        var counters: [String: [String: Double]] = [:]
        if let spec = settings.solvers.first(where: \.isReference), overLimit(spec, benchCase) == nil {
            for v in variants {
                let glpk = GLPKLayoutSolver()
                if let solution = try? glpk.load(layout, variant: v) {
                    reference[v] = solution
                    if v == Layout.defaultVariantName {
                        counters[spec.name] = ["simplex-iterations": Double(glpk.statistics.totalIterations),
                                               "simplex-calls": Double(glpk.statistics.simplexCalls)]
                    }
                }
            }
        }

        var results: [VariantResult] = []
        var usable: [SolverSpec] = []
        for spec in settings.solvers {
            if let limit = overLimit(spec, benchCase) {
                for v in variants {
                    results.append(VariantResult(variant: v, solver: spec.name, verdict: .unsupported,
                                                 reasons: ["not run: \(benchCase.constraintCount) constraints, over this solver's limit of \(limit)"],
                                                 status: nil, levels: [], ambiguous: nil, conflict: [], frames: [], viewNames: []))
                }
                continue
            }
            let (solverResults, ok, extraCounters) = check(spec, benchCase, variants: variants, systems: systems, reference: reference)
            results += solverResults
            if let extraCounters { counters[spec.name, default: [:]].merge(extraCounters) { $1 } }
            if ok { usable.append(spec) }
        }

        let (timings, allocations) = time(benchCase, solvers: usable)
        for (solver, figures) in allocations { counters[solver, default: [:]].merge(figures) { $1 } }
        return CaseResult(name: benchCase.name, source: benchCase.source, views: layout.views.count,
                          constraints: layout.constraints.count, variants: variants, results: results, timings: timings,
                          counters: counters)
    }

    /// The check pass for one solver: every variant (switching incrementally),
    /// then the incremental checks (switch, resize, add + remove vs fresh solves).
    func check(_ spec: SolverSpec, _ benchCase: BenchCase, variants: [String], systems: [String: LoweredSystem],
               reference: [String: Solution]) -> ([VariantResult], Bool, [String: Double]?) {
        let layout = benchCase.layout
        let solver = instance(spec)
        var results: [VariantResult] = []
        var counters: [String: Double]?
        func errorResult(_ v: String, _ error: Error) -> VariantResult {
            VariantResult(variant: v, solver: spec.name, verdict: .error, reasons: ["\(error)"], status: nil, levels: [],
                          ambiguous: nil, conflict: [], frames: [], viewNames: [])
        }
        var failed = false
        for (i, v) in variants.enumerated() {
            if failed {
                results.append(errorResult(v, SolverError.external("not run after an earlier error")))
                continue
            }
            do {
                let solution = i == 0 ? try solver.load(layout, variant: v) : try solver.switchVariant(to: v)
                if i == 0, let cassowary = solver as? CassowaryLayoutSolver {
                    counters = ["pivots": Double(cassowary.cassowary.statistics.pivots)]
                }
                guard let system = systems[v] else { continue }
                var (verdict, reasons) = CrossCheck.judge(solution, reference: reference[v], system: system,
                                                          expectations: layout.expectations(for: v),
                                                          semantics: solver.capabilities.prioritySemantics)
                if i > 0 {
                    let fresh = try instance(spec).load(layout, variant: v)
                    if let difference = CrossCheck.sameAnswer(solution, fresh, reference: reference[v]) {
                        verdict = .fail
                        reasons.append("variant switch differs from a fresh solve: \(difference)")
                    }
                }
                results.append(VariantResult(variant: v, solver: spec.name, verdict: verdict, reasons: reasons,
                                             status: solution.status, levels: solution.levels, ambiguous: solution.ambiguous,
                                             conflict: solution.conflict.map(\.name), frames: solution.frames,
                                             viewNames: solution.viewNames))
            } catch {
                failed = true
                results.append(errorResult(v, error))
            }
        }
        guard !failed, !results.isEmpty else { return (results, false, counters) }

        // Incremental checks on the default variant; a difference fails it.
        var notes: [String] = []
        var incrementalFailure = false
        var crashed = false
        do {
            if solver.capabilities.editVariables, let size = layout.variant(named: nil)?.size {
                let target = ContainerSize(width: 320, height: size.height)
                let incremental = instance(spec)
                _ = try incremental.load(layout, variant: nil)
                let resized = try incremental.resize(to: target)
                var moved = layout
                moved.container = target
                let fresh = try instance(spec).load(moved, variant: nil)
                // Which views are determined at the new size: the reference's word, if it runs here.
                var movedReference: Solution?
                if let referenceSpec = settings.solvers.first(where: \.isReference), overLimit(referenceSpec, benchCase) == nil {
                    movedReference = try? GLPKLayoutSolver().load(moved, variant: nil)
                }
                if let difference = CrossCheck.sameAnswer(resized, fresh, reference: movedReference) {
                    incrementalFailure = true
                    notes.append("resize to 320 differs from a fresh solve: \(difference)")
                }
            }
            if solver.capabilities.incremental, let probe = Self.probe(layout) {
                let incremental = instance(spec)
                let before = try incremental.load(layout, variant: nil)
                let handle = try incremental.addConstraint(probe)
                try incremental.removeConstraint(handle)
                let after = try incremental.solve()
                if let difference = CrossCheck.sameAnswer(after, before, reference: reference[Layout.defaultVariantName]) {
                    incrementalFailure = true
                    notes.append("add + remove changed the answer: \(difference)")
                }
            }
        } catch {
            switch error {
            case .unsupported: break
            case .external, .internalError:
                crashed = true
                notes.append("incremental check: \(error)")
            default:
                incrementalFailure = true
                notes.append("incremental check: \(error)")
            }
        }
        if !notes.isEmpty {
            // Crashes, hangs and junk are errors; wrong answers are failures.
            results[0].reasons = notes + results[0].reasons
            if crashed {
                results[0].verdict = .error
            } else if incrementalFailure && results[0].verdict != .error {
                results[0].verdict = .fail
            }
        }
        return (results, true, counters)
    }

    /// The timing pass on the default variant: the timings, and for solvers
    /// that run in this process the allocations of each phase
    /// (`allocations/PHASE`, the lower median over the measured samples).
    func time(_ benchCase: BenchCase, solvers: [SolverSpec]) -> ([PhaseTiming], [String: [String: Double]]) {
        let layout = benchCase.layout
        var samples: [String: [String: [Double]]] = [:]  // solver -> phase -> seconds
        var allocationSamples: [String: [String: [Double]]] = [:]  // solver -> phase -> allocations
        var parse: [Double] = []
        var broken = Set<String>()
        let others = layout.variants.map(\.name)
        let height = layout.container.height
        for rep in 0..<(settings.warmup + settings.repetitions) {
            let measured = rep >= settings.warmup
            let t = Self.seconds { _ = LayoutParser.parse(bytes: benchCase.text, fileName: benchCase.name) }
            if measured { parse.append(t) }
            // Why rotate: each solver takes each position in turn, so drift and
            // cache effects spread evenly instead of favouring the first.
            let order = solvers.isEmpty ? [] : (0..<solvers.count).map { solvers[($0 + rep) % solvers.count] }
            for spec in order where !broken.contains(spec.name) {
                let solver = instance(spec, ambiguity: false)
                let external = solver as? ExternalSolver
                // Why only in-process solvers: an external solver allocates in
                // its own process; what this process allocates meanwhile is the
                // channel's reading, not the solver's work.
                func measure(_ phase: String, _ body: () throws -> Void) throws {
                    external?.resetReportedSeconds()
                    // The count is read outside the timed region: two atomic loads.
                    var wall = 0.0
                    let allocated = try Allocations.made { wall = try Self.seconds(body) }
                    let value = external.map { $0.reportedSeconds } ?? wall
                    if measured {
                        samples[spec.name, default: [:]][phase, default: []].append(value)
                        if external == nil, let allocated {
                            allocationSamples[spec.name, default: [:]][phase, default: []].append(Double(allocated))
                        }
                    }
                }
                do {
                    try measure("load") { try solver.prepare(layout, variant: nil) }
                    try measure("solve") { _ = try solver.solve() }
                    for width in settings.sweep {
                        try measure("resize") { _ = try solver.resize(to: ContainerSize(width: width, height: height)) }
                    }
                    _ = try solver.resize(to: layout.container)
                    for v in others {
                        try measure("switch") { _ = try solver.switchVariant(to: v) }
                        _ = try solver.switchVariant(to: nil)
                    }
                    if solver.capabilities.incremental, let probe = Self.probe(layout) {
                        try measure("add+remove") {
                            let handle = try solver.addConstraint(probe)
                            try solver.removeConstraint(handle)
                        }
                    }
                } catch {
                    broken.insert(spec.name)
                }
            }
        }
        var timings: [PhaseTiming] = []
        if let summary = TimingSummary(parse) { timings.append(PhaseTiming(solver: "-", phase: "parse", summary: summary)) }
        for spec in solvers {
            for phase in ["load", "solve", "resize", "switch", "add+remove"] {
                if let summary = TimingSummary(samples[spec.name]?[phase] ?? []) {
                    timings.append(PhaseTiming(solver: spec.name, phase: phase, summary: summary))
                }
            }
        }
        // Why the lower median: an allocation count is an exact figure of the
        // code path, and a sample of the samples (not an average) stays one;
        // a first-call cache fill in one repetition does not move it.
        var allocations: [String: [String: Double]] = [:]
        for (solver, phases) in allocationSamples {
            for (phase, values) in phases where !values.isEmpty {
                allocations[solver, default: [:]]["allocations/" + phase] = values.sorted()[(values.count - 1) / 2]
            }
        }
        return (timings, allocations)
    }
}
