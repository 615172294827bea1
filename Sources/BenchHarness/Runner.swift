import BenchSchema
import CassowaryLayout
import BenchStatistics
import ExternalSolvers
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

/// What a run does.
public struct RunSettings: Sendable {
    public var solvers: [SolverSpec]
    /// The least number of samples per phase (each a batch, see ``sampleTime``).
    public var repetitions = 10
    /// Untimed rounds per solver before sampling (at least one is always run:
    /// it also sizes the batches).
    public var warmup = 1
    /// Seconds of sampling per case, shared by its solvers: samples are taken
    /// until this is spent (and at least ``repetitions`` of them), at most
    /// ``maxSamples``.
    public var timeBudget = 0.05
    /// The least duration of one sample: a phase shorter than this is run
    /// this many times over in one sample, criterion style.
    public var sampleTime = 1e-3
    /// The most samples per phase (bounds the results' size).
    public var maxSamples = 200
    /// Seconds per external-solver operation.
    public var timeout = 30.0
    /// The widths of the resize sweep.
    public var sweep: [Double] = [320, 375, 414, 768, 1024]
    /// The solver every other one is judged against (`run --reference`): GLPK
    /// unless told otherwise. Another LP reference (HiGHS, whose solves grow
    /// about linearly) can judge the cases over GLPK's limits.
    public var reference = "glpk"
    /// The reference's spec, if it is among the solvers.
    public var referenceSpec: SolverSpec? { solvers.first { $0.name == reference } }
    /// Who judges a case the reference cannot (over its judging limit), in
    /// order, if they are among the solvers: HiGHS, whose solves grow about
    /// linearly and which the families' judging limits let judge every size.
    /// Why automatic: a large run that lists HiGHS should be judged where it
    /// can be, without the user knowing GLPK's limits (`--reference highs`
    /// still makes HiGHS judge everything).
    public var fallbackReferences = ["highs"]

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
    /// Against the layout's observed frames (`expect ... observed xcode`), default variant only.
    public var observed: ResultsDocument.Observed?
}

/// Timings of one phase of one solver on a case (seconds).
public struct PhaseTiming: Sendable {
    public var solver: String
    public var phase: Phase
    public var summary: TimingSummary
    /// Every sample, in the order taken: the mean seconds of one operation
    /// over a batch of ``iterations`` rounds.
    public var samples: [Double] = []
    /// Rounds per sample (1: each sample is one round's operations).
    public var iterations = 1
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
    public var counters: [String: [Counter: Double]]
    /// Per solver, the phases left untimed because an answer in them carried
    /// no `time_s` (an external solver that does not time itself is not
    /// timed at all rather than timed as 0).
    public var untimed: [String: [Phase]] = [:]
    /// The views with an intrinsic size or baselines, in declaration order,
    /// for the reports' pictures.
    public var content: [(view: String, content: ViewContent)] = []
    /// The solver that judged this case when it is not the run's reference
    /// (a fall-back reference, ``RunSettings/fallbackReferences``); nil otherwise.
    public var judge: String?
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
    /// The settings; after ``run(_:progress:)`` its solvers are those that
    /// started (see ``unavailable``).
    public private(set) var settings: RunSettings
    /// The run's solvers: external ones live for the whole run (one process each).
    let pool: SolverPool
    /// What each external solver said in `hello`, by name (its provenance).
    public private(set) var hellos: [String: SolverHello] = [:]
    /// External solvers that could not start or said hello out of protocol,
    /// with the reason: left out of the run, reported, not fatal.
    public private(set) var unavailable: [(spec: SolverSpec, reason: String)] = []

    public init(settings: RunSettings) {
        self.settings = settings
        pool = SolverPool(timeout: settings.timeout)
    }

    /// Starts every external solver once and keeps those that answer hello
    /// in protocol. Why before the cases: a solver missing on this machine
    /// (its Python package not installed) is one line in the summary, not an
    /// error verdict on every case.
    func startExternals() {
        var available: [SolverSpec] = []
        for spec in settings.solvers {
            guard spec.isExternal else { available.append(spec); continue }
            guard let external = externalInstance(spec) else { continue }
            do throws(SolverError) {
                try external.start()
                if let hello = external.hello { hellos[spec.name] = hello }
                available.append(spec)
            } catch {
                pool.forget(spec)
                unavailable.append((spec, "\(error)"))
            }
        }
        settings.solvers = available
    }

    /// The solver of `spec`: external solvers once per run (one process
    /// each), built-in ones fresh.
    func instance(_ spec: SolverSpec, ambiguity: Bool = true) -> LayoutSolver { pool.instance(spec, ambiguity: ambiguity) }

    /// The run's instance of an external solver, made on first use; nil for a built-in one.
    func externalInstance(_ spec: SolverSpec) -> ExternalSolver? { pool.external(spec) }

    /// Wall-clock seconds of `body` (monotonic clock).
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
    }

    /// The yardstick: a fixed workload with the ingredients of solver work
    /// (hashing into a table larger than the L1 cache, dependent
    /// floating-point arithmetic, small allocations), sampled throughout the
    /// timing pass like a solver. Its median tells how fast the machine was
    /// during this run, for the gate's drift correction.
    ///
    /// Why its own code: a yardstick must not change when the product does
    /// (the parser, the solvers and GLPK's wrapper all do). Why no Swift
    /// `Dictionary`: its hash seed differs per process, and so would the
    /// yardstick. Why not the reference solver: its times are partly thread
    /// wake-ups, which moved 1.67x when CPU-bound work moved 1.9x.
    /// - Returns: a value that depends on all the work (keeps it from being optimised away).
    public static func yardstick() -> Double {
        // 4,096 slots: two 32 KiB arrays, beyond L1 but below glibc's mmap
        // threshold (128 KiB); larger arrays were mapped and zero-filled by the
        // kernel on every call, and the yardstick then measured page faults
        // (it moved 35% between processes while the solvers moved 4%).
        let size = 1 << 12
        var keys = [Int](repeating: -1, count: size)
        var values = [Double](repeating: 0, count: size)
        var sum = 0.0
        for i in 0..<3_000 {
            var slot = (i &* 0x9E37_79B9) & (size - 1)
            while keys[slot] != -1 && keys[slot] != i { slot = (slot + 1) & (size - 1) }
            keys[slot] = i
            values[slot] = Double(i) * 1.000_001
        }
        for i in stride(from: 0, to: 6_000, by: 2) {
            var slot = (i &* 0x9E37_79B9) & (size - 1)
            while keys[slot] != -1 && keys[slot] != i { slot = (slot + 1) & (size - 1) }
            if keys[slot] == i { sum += values[slot] }
        }
        var chain = [Double](repeating: 1.0001, count: 2048)
        for round in 0..<4 {
            for i in chain.indices { chain[i] = chain[i] * 1.000_000_1 + Double((i ^ round) & 7) * 1e-9 }
        }
        var boxes: [[Int]] = []
        boxes.reserveCapacity(256)
        for i in 0..<256 { boxes.append([i, i &+ 1]) }
        return sum + chain[17] + Double(boxes[255][1])
    }

    /// Seconds of one ``yardstick()`` call, one value per sample round of
    /// the last timing pass (each sample a batch, like a solver's).
    public private(set) var yardstickSamples: [Double] = []

    /// Runs every case: the check pass case by case (`progress` before
    /// each), then one timing pass over all of them (`progress` per sample
    /// round, named `timing`).
    public func run(_ cases: [BenchCase], progress: (RunProgress) -> Void = { _ in }) -> [CaseResult] {
        startExternals()
        var checked: [CheckedCase] = []
        for (i, benchCase) in cases.enumerated() {
            progress(RunProgress(done: i, total: cases.count, current: benchCase.name))
            checked.append(check(benchCase))
        }
        let timed = time(checked) { round, rounds in
            progress(RunProgress(done: round, total: rounds, current: "timing (all cases interleaved)"))
        }
        progress(RunProgress(done: cases.count, total: cases.count, current: ""))
        return zip(checked, timed).map { c, t in
            var result = c.result
            result.timings = t.timings
            result.untimed = t.untimed
            for (solver, figures) in t.allocations { result.counters[solver, default: [:]].merge(figures) { $1 } }
            return result
        }
    }

    /// Checks and times one case.
    public func run(_ benchCase: BenchCase) -> CaseResult {
        run([benchCase])[0]
    }

    func overLimit(_ spec: SolverSpec, _ benchCase: BenchCase) -> Int? {
        guard let limit = benchCase.limits[spec.name], benchCase.constraintCount > limit else { return nil }
        return limit
    }

    /// Whether the reference `spec` judges `benchCase`: within its limit, or
    /// over it but within the case's ``BenchCase/referenceJudgeLimits`` (then
    /// it solves each variant once, to judge, and is neither timed nor
    /// checked incrementally).
    func judges(_ spec: SolverSpec, _ benchCase: BenchCase) -> Bool {
        overLimit(spec, benchCase) == nil || benchCase.constraintCount <= (benchCase.referenceJudgeLimits[spec.name] ?? 0)
    }

    /// The solver that judges `benchCase`: the run's reference where it can,
    /// else the first fall-back reference of the run that can; nil: the
    /// expect lines alone judge.
    func judge(for benchCase: BenchCase) -> SolverSpec? {
        if let spec = settings.referenceSpec, judges(spec, benchCase) { return spec }
        for name in settings.fallbackReferences where name != settings.reference {
            if let spec = settings.solvers.first(where: { $0.name == name }), judges(spec, benchCase) { return spec }
        }
        return nil
    }

    /// The constraint added and removed by the add + remove phase: required, on
    /// the first view, `width <= w + max(1, |w|)` where `w` is that view's width
    /// in a solution of this layout. Why derived, not a constant: a fixed bound
    /// (it was `width <= 1e7`) conflicts with a layout whose first view is
    /// wider, and the harness then blamed the solver for its own probe. A
    /// solution that has width `w` satisfies the probe, so it is satisfiable
    /// with every required constraint; with the solver's own current solution
    /// it is also non-binding, so a correct solver's answer cannot change.
    /// - Returns: nil without a view or a finite width to derive it from.
    static func probe(_ layout: Layout, from solution: Solution?) -> LayoutConstraint? {
        guard let view = layout.views.first, let solution, solution.status == .solved,
              let index = solution.viewNames.firstIndex(of: view.name), index < solution.frames.count else { return nil }
        let width = solution.frames[index].width
        guard width.isFinite else { return nil }
        // Why capped: the probe is a layout constraint like any other, so its
        // constant must be in the accepted range (a view 9e8 wide gave a probe
        // of 1.8e9, refused as invalid input and reported as the solver's
        // failure). Below the limit, `<=` with room of at least 1; at the
        // limit itself, the other side, `>= width - |width|`, which is 0.
        let limit = NumericRange.acceptedMagnitude
        let room = max(1, abs(width))
        if width + 1 <= limit {
            return LayoutConstraint(ItemAttribute(view.name, .width), .lessThanOrEqual, nil, constant: min(width + room, limit),
                                    identifier: "probe")
        }
        return LayoutConstraint(ItemAttribute(view.name, .width), .greaterThanOrEqual, nil, constant: width - room,
                                identifier: "probe")
    }

    /// A case after its check pass: the result without timings, the solvers
    /// that may be timed, and the add + remove probe for the timing pass.
    struct CheckedCase {
        var benchCase: BenchCase
        var result: CaseResult
        var usable: [SolverSpec]
        var probe: LayoutConstraint?
    }

    func check(_ benchCase: BenchCase) -> CheckedCase {
        let layout = benchCase.layout
        let variants = layout.allVariants.map(\.name)
        // Validated once per case: the check pass's loads and lowerings reuse it.
        let validated = try? layout.validated()
        var systems: [String: LoweredSystem] = [:]
        for v in variants { systems[v] = try? validated?.lowered(variant: v) }

        // The reference, fresh per variant, with ambiguity analysis.
        var reference: [String: Solution] = [:]
        var counters: [String: [Counter: Double]] = [:]
        let judgeSpec = judge(for: benchCase)
        if let spec = judgeSpec {
            for v in variants {
                let solver = instance(spec, ambiguity: true)
                if let solution = try? solver.load(layout, validated: validated, variant: v) {
                    reference[v] = solution
                    if v == Layout.defaultVariantName, !solver.counters.isEmpty { counters[spec.name] = solver.counters }
                }
            }
        }

        var results: [VariantResult] = []
        var usable: [SolverSpec] = []
        var timingProbe = Self.probe(layout, from: reference[Layout.defaultVariantName])
        for spec in settings.solvers {
            if let limit = overLimit(spec, benchCase), spec.name == judgeSpec?.name {
                // Judging only: the reference's own answers against the
                // expect lines, from the solves above (nil: it failed).
                for v in variants {
                    guard let system = systems[v] else { continue }
                    let note = "judged only: \(benchCase.constraintCount) constraints, over this solver's timing limit of \(limit)"
                    guard let solution = reference[v] else {
                        results.append(VariantResult(variant: v, solver: spec.name, verdict: .error,
                                                     reasons: ["the reference could not solve this variant", note], status: nil,
                                                     levels: [], ambiguous: nil, conflict: [], frames: [], viewNames: []))
                        continue
                    }
                    let (verdict, reasons) = CrossCheck.judge(solution, reference: nil, system: system,
                                                              expectations: layout.expectations(for: v), semantics: .lexicographic)
                    results.append(VariantResult(variant: v, solver: spec.name, verdict: verdict, reasons: reasons + [note],
                                                 status: solution.status, levels: solution.levels, ambiguous: solution.ambiguous,
                                                 conflict: solution.conflict.map(\.name), frames: solution.frames,
                                                 viewNames: solution.viewNames))
                }
                continue
            }
            if let limit = overLimit(spec, benchCase) {
                for v in variants {
                    results.append(VariantResult(variant: v, solver: spec.name, verdict: .unsupported,
                                                 reasons: ["not run: \(benchCase.constraintCount) constraints, over this solver's limit of \(limit)"],
                                                 status: nil, levels: [], ambiguous: nil, conflict: [], frames: [], viewNames: []))
                }
                continue
            }
            let (solverResults, ok, extraCounters) = check(spec, benchCase, validated: validated, judge: judgeSpec, variants: variants,
                                                               systems: systems, reference: reference)
            results += solverResults
            if let extraCounters { counters[spec.name, default: [:]].merge(extraCounters) { $1 } }
            if ok { usable.append(spec) }
            // Without the reference, the first solver's own default answer.
            if timingProbe == nil, let first = solverResults.first, first.variant == Layout.defaultVariantName, first.status == .solved {
                timingProbe = Self.probe(layout, from: Solution(variant: first.variant, status: .solved, viewNames: first.viewNames,
                                                                 frames: first.frames, levels: [], ambiguous: nil, conflict: []))
            }
        }
        let observations = layout.observations(for: nil)
        if !observations.isEmpty {
            // Only answers: a solver that was not run or failed is no evidence either way.
            for i in results.indices where results[i].variant == Layout.defaultVariantName && results[i].status != nil {
                results[i].observed = Self.observed(results[i], observations, layout: layout,
                                                    reference: judgeSpec == nil ? nil : reference[Layout.defaultVariantName])
            }
        }
        var result = CaseResult(name: benchCase.name, source: benchCase.source, views: layout.views.count,
                                constraints: layout.constraints.count, variants: variants, results: results, timings: [],
                                counters: counters,
                                content: layout.views.compactMap { view in
                                    let c = view.content
                                    return c.intrinsicSize == nil && c.baselines == nil ? nil : (view.name, c)
                                })
        if let judgeSpec, judgeSpec.name != settings.reference { result.judge = judgeSpec.name }
        return CheckedCase(benchCase: benchCase, result: result, usable: usable, probe: timingProbe)
    }

    /// A result against the observed frames, each difference with its likely cause.
    static func observed(_ r: VariantResult, _ observations: [Expectation], layout: Layout, reference: Solution?)
        -> ResultsDocument.Observed
    {
        let index = NameIndex(r.viewNames)
        let referenceIndex = reference.map { NameIndex($0.viewNames) }
        let ambiguous = Set(reference?.ambiguous ?? [])
        func close(_ a: Frame, _ b: Frame, _ t: Double) -> Bool { FrameComponent.allCases.allSatisfy { abs(a[$0] - b[$0]) <= t } }
        var matched = 0
        var differences: [ResultsDocument.Observed.Difference] = []
        for e in observations {
            guard case .frame(let view, let expected) = e.kind else { continue }
            let t = e.frameTolerance
            let got = r.status == .solved ? index[view].flatMap { r.frames.indices.contains($0) ? r.frames[$0] : nil } : nil
            if let got, close(got, expected, t) {
                matched += 1
                continue
            }
            let cause: ObservedCause
            let theirs = reference.flatMap { ref in referenceIndex?[view].flatMap { ref.frames.indices.contains($0) ? ref.frames[$0] : nil } }
            if r.status == .unsatisfiable || reference?.status == .unsatisfiable {
                cause = .unsatisfiable
            } else if let theirs, reference?.status == .solved, close(theirs, expected, t) {
                cause = .solver
            } else if ambiguous.contains(view) {
                cause = .undetermined
            } else if let got, abs(got.x - expected.x) <= t, abs(got.y - expected.y) <= t,
                      layout.views.first(where: { $0.name == view })?.content.intrinsicSize != nil {
                cause = .contentSize
            } else {
                cause = .importGap
            }
            differences.append(.init(view: view, expected: [expected.x, expected.y, expected.width, expected.height],
                                     got: got.map { [$0.x, $0.y, $0.width, $0.height] }, cause: cause.rawValue))
        }
        let source = observations.compactMap(\.observedBy).first ?? "observed"
        return ResultsDocument.Observed(source: source, matched: matched, total: observations.count, differences: differences)
    }

    /// The check pass for one solver: every variant (switching incrementally),
    /// then the incremental checks (switch, resize, add + remove vs fresh solves).
    func check(_ spec: SolverSpec, _ benchCase: BenchCase, validated: ValidatedLayout?, judge: SolverSpec?, variants: [String],
               systems: [String: LoweredSystem], reference: [String: Solution]) -> ([VariantResult], Bool, [Counter: Double]?) {
        let layout = benchCase.layout
        let solver = instance(spec)
        var results: [VariantResult] = []
        var counters: [Counter: Double]?
        func errorResult(_ v: String, _ error: Error) -> VariantResult {
            // A solver that declines as unsupported (over its size limit, a
            // feature it lacks) has not failed.
            let verdict: Verdict = if case SolverError.unsupported = error { .unsupported } else { .error }
            return VariantResult(variant: v, solver: spec.name, verdict: verdict, reasons: ["\(error)"], status: nil, levels: [],
                                 ambiguous: nil, conflict: [], frames: [], viewNames: [])
        }
        var failed = false
        var declined = false
        for (i, v) in variants.enumerated() {
            if failed {
                results.append(errorResult(v, declined ? SolverError.unsupported("not run: the solver declined an earlier variant")
                                                        : SolverError.notRunAfterError))
                continue
            }
            do {
                let solution = i == 0 ? try solver.load(layout, validated: validated, variant: v) : try solver.switchVariant(to: v)
                // The reference's counters come from its own solve above (with ambiguity).
                if i == 0, spec.name != judge?.name, !solver.counters.isEmpty { counters = solver.counters }
                guard let system = systems[v] else { continue }
                var (verdict, reasons) = CrossCheck.judge(solution, reference: reference[v], system: system,
                                                          expectations: layout.expectations(for: v),
                                                          semantics: solver.capabilities.prioritySemantics)
                if i > 0 {
                    let fresh = try instance(spec, ambiguity: false).load(layout, validated: validated, variant: v)
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
                if case SolverError.unsupported = error { declined = true }
                results.append(errorResult(v, error))
            }
        }
        guard !failed, !results.isEmpty else { return (results, false, counters) }

        // Incremental checks on the default variant; a difference fails it.
        var notes: [String] = []
        var incrementalFailure = false
        var crashed = false
        do throws(SolverError) {
            if solver.capabilities.editVariables, let size = layout.variant(named: nil)?.size {
                let target = ContainerSize(width: 320, height: size.height)
                // Why without the native ambiguity analysis: these solves are
                // compared frame by frame (``CrossCheck/sameAnswer``), which
                // reads only the reference's ambiguity; the analysis cost up to
                // 100 times the solve (self-sizing rows, 1,303 rows: 2 s).
                let incremental = instance(spec, ambiguity: false)
                _ = try incremental.load(layout, validated: validated, variant: nil)
                let resized = try incremental.resize(to: target)
                var moved = layout
                moved.container = target
                let fresh = try instance(spec, ambiguity: false).load(moved, variant: nil)
                // Which views are determined at the new size: the reference's word, if it runs here.
                var movedReference: Solution?
                if let referenceSpec = judge {
                    movedReference = try? instance(referenceSpec, ambiguity: true).load(moved, variant: nil)
                }
                if let difference = CrossCheck.sameAnswer(resized, fresh, reference: movedReference) {
                    incrementalFailure = true
                    notes.append("resize to 320 differs from a fresh solve: \(difference)")
                }
            }
            if solver.capabilities.incremental {
                let incremental = instance(spec, ambiguity: false)
                let before = try incremental.load(layout, validated: validated, variant: nil)
                // The probe from this solver's own answer (non-binding for it),
                // else from the reference's (satisfiable); without either, the
                // layout has no solution to keep, and nothing is checked.
                guard let probe = Self.probe(layout, from: before) ?? Self.probe(layout, from: reference[Layout.defaultVariantName])
                else { throw SolverError.unsupported("add + remove: no solution to derive a probe from") }
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
            case .external, .backend, .protocolViolation:
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
    ///   taken back to back, one burst moved that one case's median by up to
    ///   2x (parse, cassowary and glpk alike). Spread over the whole run, a
    ///   burst touches a few samples of every case, and the median ignores them.
    /// - The number of rounds adapts to ``RunSettings/timeBudget`` per case:
    ///   at least ``RunSettings/repetitions``, at most ``RunSettings/maxSamples``.
    /// - Complexity: O(rounds × cases × solvers) solver rounds.
    func time(_ cases: [CheckedCase], progress: (Int, Int) -> Void = { _, _ in }) -> [CaseTimings] {
        /// One thing timed: a solver on a case, or a case's parse (`solver` nil).
        struct Entrant {
            var caseIndex: Int
            var solver: SolverSpec?
            var name: String { solver?.name ?? "-" }
            var iterations = 1
        }
        var entrants: [Entrant] = []
        for (i, c) in cases.enumerated() {
            entrants.append(Entrant(caseIndex: i, solver: nil))
            for spec in c.usable { entrants.append(Entrant(caseIndex: i, solver: spec)) }
        }
        // entrant -> phase -> seconds per operation, one per sample
        var samples = [[Phase: [Double]]](repeating: [:], count: entrants.count)
        // entrant -> phase -> allocations of one operation, one per sample
        var allocationSamples = [[Phase: [Double]]](repeating: [:], count: entrants.count)
        let usesGLPK = settings.solvers.contains { $0.isGLPK }
        var broken = Set<Int>()

        // entrant -> phases an answer of which carried no `time_s`
        var untimedPhases = [Set<Phase>](repeating: [], count: entrants.count)

        /// One round of an entrant; `record` nil for warm-up.
        func round(_ entrant: Entrant, _ record: ((Phase, Double, UInt64?) -> Void)?,
                   untimed: ((Phase) -> Void)? = nil) throws {
            let benchCase = cases[entrant.caseIndex].benchCase
            guard let spec = entrant.solver else {
                let t = Self.seconds { _ = LayoutParser.parse(bytes: benchCase.text, fileName: benchCase.name) }
                record?(.parse, t, nil)
                return
            }
            let layout = benchCase.layout
            let solver = instance(spec, ambiguity: false)
            let external = externalInstance(spec)
            func measure(_ phase: Phase, _ body: () throws -> Void) throws {
                external?.resetReportedSeconds()
                // GLPK's queued frees finish first, so that they are not counted
                // against this operation (outside the timed region).
                if usesGLPK { GLPKLayoutSolver.waitForPendingWork() }
                // The count is read outside the timed region: two atomic loads.
                var wall = 0.0
                let allocated = try Allocations.made { wall = try Self.seconds(body) }
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

        // Warm-up, which also sizes each entrant's batch from its last round.
        let minimumSample = max(0, settings.sampleTime)
        let warmups = max(1, settings.warmup)
        for index in entrants.indices {
            for rep in 0..<warmups {
                do {
                    let t = try Self.seconds { try round(entrants[index], nil) { untimedPhases[index].insert($0) } }
                    if rep == warmups - 1, t > 0, t.isFinite {
                        entrants[index].iterations = max(1, min(100_000, Int((minimumSample / t).rounded(.up))))
                    }
                } catch {
                    broken.insert(index)
                    break
                }
            }
        }

        // The yardstick's batch, sized like an entrant's.
        var sink = 0.0
        let yardstickOnce = Self.seconds { sink += Self.yardstick() }
        let yardstickBatch = yardstickOnce > 0 ? max(1, min(100_000, Int((minimumSample / yardstickOnce).rounded(.up)))) : 1
        yardstickSamples = []

        // Sampling, interleaved and rotated.
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
            let t = Self.seconds { for _ in 0..<yardstickBatch { sink += Self.yardstick() } }
            yardstickSamples.append(t / Double(yardstickBatch))
            for offset in entrants.indices {
                let index = (offset + taken) % entrants.count
                guard !broken.contains(index) else { continue }
                var accumulated: [Phase: (seconds: Double, operations: Int)] = [:]
                let record: (Phase, Double, UInt64?) -> Void = { phase, seconds, allocated in
                    accumulated[phase, default: (0, 0)].seconds += seconds
                    accumulated[phase, default: (0, 0)].operations += 1
                    // One operation's count per phase and sample: the count is a
                    // property of the code path, not of the batch.
                    if let allocated, accumulated[phase]?.operations == 1 {
                        allocationSamples[index][phase, default: []].append(Double(allocated))
                    }
                }
                do {
                    for _ in 0..<entrants[index].iterations {
                        try round(entrants[index], record) { untimedPhases[index].insert($0) }
                    }
                } catch {
                    broken.insert(index)
                    continue
                }
                for (phase, a) in accumulated where a.operations > 0 {
                    samples[index][phase, default: []].append(a.seconds / Double(a.operations))
                }
            }
            taken += 1
        }

        if sink.isNaN { yardstickSamples = [] }  // never: keeps the work from being optimised away
        var out = [CaseTimings](repeating: CaseTimings(), count: cases.count)
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

extension LayoutSolver {
    /// Loads a case's layout: the runner's validated copy when it passed
    /// (no validation again), else the layout itself, whose errors become
    /// this load's error as they always were.
    func load(_ layout: Layout, validated: ValidatedLayout?, variant: String?) throws(SolverError) -> Solution {
        guard let validated else { return try load(layout, variant: variant) }
        return try load(validated, variant: variant)
    }
}
