// The check pass: each case through each solver once per variant, judged
// against the reference and the expect lines, then the incremental checks
// (variant switch, resize, add + remove) against fresh solves.

import BenchMetrics
import BenchSchema
import GLPKReference
import LayoutModel
import LayoutSolving

extension Runner {
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

        let judgeSpec = judge(for: benchCase)
        var (reference, counters) = referenceSolutions(judgeSpec, layout, validated: validated, variants: variants)
        var results: [VariantResult] = []
        var usable: [SolverSpec] = []
        var timingProbe = Self.probe(layout, from: reference[Layout.defaultVariantName])
        for spec in settings.solvers {
            if let limit = overLimit(spec, benchCase), spec.name == judgeSpec?.name {
                results += judgedOnly(spec, benchCase, limit: limit, variants: variants, systems: systems, reference: reference)
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
            let checked = check(spec, benchCase, validated: validated, judge: judgeSpec, variants: variants,
                                systems: systems, reference: reference)
            results += checked.results
            if let extraCounters = checked.counters { counters[spec.name, default: [:]].merge(extraCounters) { $1 } }
            if checked.usable { usable.append(spec) }
            // Without the reference, the first solver's own default answer.
            if timingProbe == nil, let first = checked.results.first, first.variant == Layout.defaultVariantName,
               first.status == .solved {
                timingProbe = Self.probe(layout, from: Solution(variant: first.variant, status: .solved, viewNames: first.viewNames,
                                                                 frames: first.frames, levels: [], ambiguous: nil, conflict: []))
            }
        }
        if settings.metamorphic {
            for spec in settings.solvers {
                guard let original = results.first(where: { $0.solver == spec.name && $0.variant == Layout.defaultVariantName }),
                      let meta = metamorphicResult(spec, benchCase, original: original, reference: reference[Layout.defaultVariantName])
                else { continue }
                results.append(meta)
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

    /// The reference's answers, fresh per variant, with ambiguity analysis,
    /// and its counters on the default variant.
    func referenceSolutions(_ judgeSpec: SolverSpec?, _ layout: Layout, validated: ValidatedLayout?, variants: [String])
        -> (solutions: [String: Solution], counters: [String: [Counter: Double]])
    {
        var reference: [String: Solution] = [:]
        var counters: [String: [Counter: Double]] = [:]
        guard let spec = judgeSpec else { return (reference, counters) }
        for v in variants {
            let solver = instance(spec, ambiguity: true)
            if let solution = try? solver.load(layout, validated: validated, variant: v) {
                reference[v] = solution
                if v == Layout.defaultVariantName, !solver.counters.isEmpty { counters[spec.name] = solver.counters }
            }
        }
        return (reference, counters)
    }

    /// Judging only (the reference over its timing limit): the reference's
    /// own answers against the expect lines, from the solves above (nil: it failed).
    func judgedOnly(_ spec: SolverSpec, _ benchCase: BenchCase, limit: Int, variants: [String],
                    systems: [String: LoweredSystem], reference: [String: Solution]) -> [VariantResult] {
        var results: [VariantResult] = []
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
                                                      expectations: benchCase.layout.expectations(for: v), semantics: .lexicographic)
            results.append(VariantResult(variant: v, solver: spec.name, verdict: verdict, reasons: reasons + [note],
                                         status: solution.status, levels: solution.levels, ambiguous: solution.ambiguous,
                                         conflict: solution.conflict.map(\.name), frames: solution.frames,
                                         viewNames: solution.viewNames))
        }
        return results
    }

    /// A result against the observed frames, each difference with its likely
    /// cause (public for its tests: a pure function of its arguments).
    public static func observed(_ r: VariantResult, _ observations: [Expectation], layout: Layout, reference: Solution?)
        -> ResultsDocument.Observed
    {
        let index = NameIndex(r.viewNames)
        let referenceIndex = reference.map { NameIndex($0.viewNames) }
        let ambiguous = Set(reference?.ambiguous ?? [])
        // Why the cross-check tolerance on top of the observed one: two answers
        // within it are the same answer (CrossCheck), so they must get the same
        // verdict against Xcode. Without it, GLOP's 412.50000000000006 missed
        // a stored 412 that GLPK's 412.5 matched: 17 views in all, each a tie
        // at exactly half a point decided by 1e-14 of floating-point noise.
        let slack = Tolerance.crossCheck
        func near(_ a: Double, _ b: Double, _ t: Double) -> Bool {
            abs(a - b) <= t + max(slack.absolute, slack.relative * max(abs(a), abs(b)))
        }
        func close(_ a: Frame, _ b: Frame, _ t: Double) -> Bool { FrameComponent.allCases.allSatisfy { near(a[$0], b[$0], t) } }
        let broken = StaleFrames.evidence(layout, observations)
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
            // Why undetermined before solver: where the reference calls a view
            // ambiguous, any point of the face is right, and the reference's
            // matching Xcode is its choice, not the other solver's fault.
            if r.status == .unsatisfiable || reference?.status == .unsatisfiable {
                cause = .unsatisfiable
            } else if ambiguous.contains(view) {
                cause = .undetermined
            } else if let theirs, reference?.status == .solved, close(theirs, expected, t) {
                cause = .solver
            } else if broken != nil {
                // Why the whole screen: the views laid out after a broken
                // constraint are stored where it left them, so none is an oracle.
                cause = .brokenConstraint
            } else if let got, near(got.x, expected.x, t), near(got.y, expected.y, t),
                      layout.views.first(where: { $0.name == view })?.content.intrinsicSize != nil {
                cause = .contentSize
            } else {
                cause = .importGap
            }
            differences.append(.init(view: view, expected: [expected.x, expected.y, expected.width, expected.height],
                                     got: got.map { [$0.x, $0.y, $0.width, $0.height] }, cause: cause.rawValue,
                                     evidence: cause == .brokenConstraint ? broken?.description : nil))
        }
        let source = observations.compactMap(\.observedBy).first ?? "observed"
        return ResultsDocument.Observed(source: source, matched: matched, total: observations.count, differences: differences)
    }

    /// One solver's check pass on one case.
    struct SolverCheck {
        /// A result per variant, in the case's variant order.
        var results: [VariantResult]
        /// Whether every variant was answered (the solver may be timed).
        var usable: Bool
        /// The solver's counters on the default variant (nil for the judge, whose come from its own solve).
        var counters: [Counter: Double]?
    }

    /// The check pass for one solver: every variant (switching incrementally),
    /// then the incremental checks (resize, add + remove vs fresh solves).
    func check(_ spec: SolverSpec, _ benchCase: BenchCase, validated: ValidatedLayout?, judge: SolverSpec?, variants: [String],
               systems: [String: LoweredSystem], reference: [String: Solution]) -> SolverCheck {
        let solver = instance(spec)
        var checked = variantResults(spec, solver, benchCase, validated: validated, judge: judge, variants: variants,
                                     systems: systems, reference: reference)
        guard checked.usable else { return checked }
        incrementalChecks(spec, solver, benchCase, validated: validated, judge: judge, reference: reference,
                          into: &checked.results[0])
        return checked
    }

    /// Every variant through one solver instance: a load, then switches, each
    /// switch also compared with a fresh solve. After an error, the rest are
    /// not run.
    func variantResults(_ spec: SolverSpec, _ solver: LayoutSolver, _ benchCase: BenchCase, validated: ValidatedLayout?,
                        judge: SolverSpec?, variants: [String], systems: [String: LoweredSystem],
                        reference: [String: Solution]) -> SolverCheck {
        let layout = benchCase.layout
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
        return SolverCheck(results: results, usable: !failed && !results.isEmpty, counters: counters)
    }

    /// The incremental checks on the default variant (resize to 320 and add +
    /// remove, each against a fresh solve); a difference fails `result`, a
    /// crash makes it an error.
    func incrementalChecks(_ spec: SolverSpec, _ solver: LayoutSolver, _ benchCase: BenchCase, validated: ValidatedLayout?,
                           judge: SolverSpec?, reference: [String: Solution], into result: inout VariantResult) {
        let layout = benchCase.layout

        // Incremental checks on the default variant; a difference fails it.
        var notes: [String] = []
        var incrementalFailure = false
        var crashed = false
        do throws(SolverError) {
            if solver.capabilities.editVariables, let size = layout.variant(named: nil)?.size {
                let target = ContainerSize(width: 320, height: size.height)
                // Why without the native ambiguity analysis: these solves are
                // compared frame by frame (``CrossCheck/sameAnswer``), which
                // reads only the reference's ambiguity, and the analysis can
                // cost many times the solve (evidence:
                // docs/measurements.md#m-cassowary-ambiguity).
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
            result.reasons = notes + result.reasons
            if crashed {
                result.verdict = .error
            } else if incrementalFailure && result.verdict != .error {
                result.verdict = .fail
            }
        }
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
