import BenchSchema
import Foundation
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving

/// Whether solvers agree with the reference on one layout, every variant.
public enum Agreement {
    public enum Outcome: String, Sendable {
        case agree
        /// They differ, but only within the reference's own accuracy: GLPK
        /// accepts a row within its primal feasibility tolerance, 1e-7 relative
        /// to the row's bound, so on a layout whose constants reach M its
        /// answers are only good to about 1e-7 × M. A conditioning limit, not a
        /// wrong answer.
        case illConditioned = "ill-conditioned"
        case disagree
    }

    public struct Finding: Sendable {
        public var solver: String
        public var variant: String
        public var outcome: Outcome
        public var reasons: [String]
    }

    /// The largest magnitude in a layout: its constants and container sizes.
    static func magnitude(_ layout: Layout) -> Double {
        var m = max(layout.container.width, layout.container.height ?? 0)
        for c in layout.constraints { m = max(m, abs(c.constant)) }
        for v in layout.variants { m = max(m, v.size.width, v.size.height ?? 0) }
        return m
    }

    /// Solves `layout` with every solver and judges each against the first
    /// (the reference) with the run's cross-check rules (no `expect` lines).
    public static func check(_ layout: Layout, solvers: [SolverSpec], timeout: Double = 30, pool: SolverPool? = nil) -> [Finding] {
        let pool = pool ?? SolverPool(timeout: timeout)
        guard let referenceSpec = solvers.first else { return [] }
        var findings: [Finding] = []
        let resolution = 1e-7 * magnitude(layout)
        for variant in layout.allVariants.map(\.name) {
            guard let system = try? layout.lowered(variant: variant) else { continue }
            let reference: Solution
            do {
                reference = try pool.instance(referenceSpec).load(layout, variant: variant)
            } catch {
                findings.append(Finding(solver: referenceSpec.name, variant: variant, outcome: .disagree, reasons: ["\(error)"]))
                continue
            }
            for spec in solvers.dropFirst() {
                let solver = pool.instance(spec)
                do {
                    let solution = try solver.load(layout, variant: variant)
                    let (verdict, reasons) = CrossCheck.judge(solution, reference: reference, system: system, expectations: [],
                                                              semantics: solver.capabilities.prioritySemantics)
                    switch verdict {
                    case .pass, .weightedDivergence, .unsupported:
                        findings.append(Finding(solver: spec.name, variant: variant, outcome: .agree, reasons: reasons))
                    case .fail, .error, .metamorphic:  // CrossCheck.judge gives no metamorphic verdict; listed for exhaustiveness
                        // Would a tolerance at the problem's own resolution accept it?
                        let loose = Tolerance(absolute: max(Tolerance.crossCheck.absolute, resolution), relative: 1e-7)
                        let close = reference.status == solution.status
                            && CrossCheck.frameDifferences(solution, reference, free: Set(reference.ambiguous ?? []),
                                                           tolerance: loose).isEmpty
                            && zip(reference.levels, solution.levels).allSatisfy { loose.isClose($0.error, $1.error) }
                        findings.append(Finding(solver: spec.name, variant: variant, outcome: close && reference.status == .solved
                                                ? .illConditioned : .disagree, reasons: reasons))
                    }
                } catch {
                    findings.append(Finding(solver: spec.name, variant: variant, outcome: .disagree, reasons: ["\(error)"]))
                }
            }
        }
        return findings
    }

    /// A `.layout` file that reproduces a disagreement: the layout, with the
    /// seed, its kind, the reasons and (when arbitrated) the explanations in
    /// comments.
    public static func reproduction(_ layout: Layout, seed: UInt64, kind: RandomLayoutGenerator.Kind,
                                    findings: [Finding], explanations: [Explained] = []) -> String {
        var header = "# layout-bench fuzz: seed \(seed) (\(kind.rawValue))\n"
        for f in findings where f.outcome != .agree {
            header += "# \(f.solver) [\(f.variant)] \(f.outcome.rawValue): " + f.reasons.joined(separator: "; ")
                .replacingOccurrences(of: "\n", with: " ") + "\n"
        }
        for e in explanations {
            header += "# explained: \(e.finding.solver) [\(e.finding.variant)]: \(e.explanation.description)\n"
        }
        return header + LayoutPrinter.print(layout)
    }

    // MARK: Arbitration

    /// Why a solver and the reference disagree, decided by an exact solver
    /// (the arbiter: z3 over the rationals, `scripts/solvers/z3solver.py`).
    public enum Explanation: Sendable, Hashable, CustomStringConvertible {
        /// The exact optimum needs a determined frame value or level error of
        /// this magnitude, beyond ``NumericRange/acceptedMagnitude``. Why that
        /// explains a disagreement: both solvers work in doubles with
        /// tolerances of 1e-7 to 1e-8, so a row whose coefficients differ by
        /// less (a multiplier 1 + 1e-9 against 1) is the same row to them,
        /// and the point the exact answer needs (1e7 / 1e-9 = 1e16) is one
        /// neither can reach within the cross-check's tolerance.
        /// Nil magnitude: no one value shows it, but solved exactly with every
        /// edge, centre and size bounded to the accepted range, the layout
        /// gets worse (``needsBeyondRange(_:variant:exact:arbiter:pool:)``).
        case exactBeyondRange(magnitude: Double?)
        /// The exact answer is "unsatisfiable", and the sides that say
        /// "solved" give a point that violates the required rows by no more
        /// than the cross-check's tolerance (which the judge accepts): the
        /// required rows conflict by less than the tolerance, so both
        /// statuses are right at the harness's resolution.
        case feasibleWithinTolerance
        /// Both agree with the exact answer to the tolerance, and so differ
        /// from each other by up to twice it (the tolerance is not transitive).
        case bothWithinTolerance
        /// The judged solver agrees with the exact answer; the reference does not.
        case referenceWrong
        /// The reference gave no answer (numerical trouble, a simplex limit)
        /// where the exact solver gave one: the reference declining, not a
        /// wrong answer and not the judged solver's fault (it was not
        /// compared). Why its own class: filed as "both wrong" it hid the
        /// reference's declines among real disagreements.
        case referenceDeclined(String)
        /// The reference agrees with the exact answer; the judged solver does
        /// not, for these reasons (the solver judged against the exact answer).
        case solverWrong([String])
        /// Neither agrees with the exact answer, which is within the range:
        /// the reasons of the solver and of the reference against it.
        case bothDiffer(solver: [String], reference: [String])
        /// The arbiter gave no answer (declined, failed, timed out).
        case unarbitrated(String)

        /// The class name used in tallies.
        public var label: String {
            switch self {
            case .exactBeyondRange: "exact optimum beyond the accepted range"
            case .feasibleWithinTolerance: "infeasible by less than the tolerance"
            case .bothWithinTolerance: "both within the tolerance of the exact answer"
            case .referenceWrong: "reference wrong (solver agrees with the exact answer)"
            case .referenceDeclined: "reference declined (no answer where the exact solver answered)"
            case .solverWrong: "solver wrong (reference agrees with the exact answer)"
            case .bothDiffer: "both differ from the exact answer (within range)"
            case .unarbitrated: "not arbitrated"
            }
        }

        public var description: String {
            switch self {
            case .exactBeyondRange(let m?): "\(label): |value| = \(formatNumber(m, maxFractionDigits: 3))"
            case .exactBeyondRange(nil): "\(label): every exact optimum needs an edge, centre or size beyond 1e9"
            case .unarbitrated(let why), .referenceDeclined(let why): "\(label): \(why)"
            case .solverWrong(let reasons): "\(label): \(reasons.joined(separator: "; "))"
            case .bothDiffer(let solver, let reference):
                "\(label): solver: \(solver.joined(separator: "; ")); reference: \(reference.joined(separator: "; "))"
            default: label
            }
        }
    }

    public struct Explained: Sendable {
        public var finding: Finding
        public var explanation: Explanation
        /// Whether every number of the layout is in the precise
        /// ``NumericRange`` (no range warning).
        public var precise: Bool
    }

    /// `layout` with every view's edges, centres and size held within the
    /// accepted magnitude (required rows `v.left >= super.left - 1e9`,
    /// `v.width <= 1e9`, ...).
    static func boundedToAcceptedRange(_ layout: Layout) -> Layout {
        let limit = NumericRange.acceptedMagnitude
        var bounded = layout
        for view in layout.views {
            for attribute in [Attribute.left, .right, .top, .bottom, .centerX, .centerY] {
                let origin = ItemAttribute(Layout.containerName, attribute.axis == .horizontal ? .left : .top)
                bounded.constraints.append(LayoutConstraint(ItemAttribute(view.name, attribute), .greaterThanOrEqual, origin, constant: -limit))
                bounded.constraints.append(LayoutConstraint(ItemAttribute(view.name, attribute), .lessThanOrEqual, origin, constant: limit))
            }
            for attribute in [Attribute.width, .height] {
                bounded.constraints.append(LayoutConstraint(ItemAttribute(view.name, attribute), .greaterThanOrEqual, nil, constant: -limit))
                bounded.constraints.append(LayoutConstraint(ItemAttribute(view.name, attribute), .lessThanOrEqual, nil, constant: limit))
            }
        }
        return bounded
    }

    /// Whether every exact optimum needs some edge, centre or size beyond the
    /// accepted magnitude: solved again exactly with all of them bounded, the
    /// layout becomes unsatisfiable or a level gets worse. Why ask the arbiter
    /// and not read its point: a view can be free while a sum of its frame
    /// values is not (hostile seed 13681: every view ambiguous, yet the exact
    /// optimum needs `v4.bottom` at 1e14 through a multiplier of 1e5), and
    /// only a bounded solve tells a required magnitude from a chosen one.
    /// Nil when the arbiter gives no answer.
    static func needsBeyondRange(_ layout: Layout, variant: String, exact: Solution, arbiter: SolverSpec,
                                 pool: SolverPool) -> Bool? {
        guard exact.status == .solved,
              let bounded = try? pool.instance(arbiter).load(boundedToAcceptedRange(layout), variant: variant) else { return nil }
        if bounded.status != .solved { return true }
        for (a, b) in zip(exact.levels, bounded.levels) where !Tolerance.crossCheck.isClose(a.error, b.error) {
            return b.error > a.error
        }
        return false
    }

    /// The largest magnitude of an exact solution: its determined frame
    /// values (per variable where the solver says, else per view) and its
    /// level errors.
    static func exactMagnitude(_ solution: Solution) -> Double {
        let freeViews = Set(solution.ambiguous ?? [])
        let freeVariables = solution.freeVariables.map(Set.init)
        var m = solution.levels.map { abs($0.error) }.max() ?? 0
        for (i, name) in solution.viewNames.enumerated() where i < solution.frames.count {
            for c in FrameComponent.allCases {
                let determined = freeVariables.map { !$0.contains(FrameVariable(view: i, component: c).index) } ?? !freeViews.contains(name)
                if determined { m = max(m, abs(solution.frames[i][c])) }
            }
        }
        return m
    }

    /// Explains each disagreement of `findings` by solving the layout
    /// exactly with `arbiter` and judging both sides against that answer
    /// with the run's cross-check rules.
    ///
    /// - Complexity: one arbiter solve per variant with a disagreement, and
    ///   one re-solve of each side (cheap beside the arbiter).
    public static func explain(_ layout: Layout, findings: [Finding], solvers: [SolverSpec], arbiter: SolverSpec,
                               pool: SolverPool) -> [Explained] {
        guard let referenceSpec = solvers.first else { return [] }
        var explained: [Explained] = []
        var exact: [String: Result<Solution, any Error>] = [:]
        var referenceJudged: [String: (reasons: [String], withinTolerance: Bool)] = [:]
        // Per variant: the bounded re-solve does not depend on which solver disagreed.
        var beyondRange: [String: Bool?] = [:]
        let precise = !layout.validate().contains { $0.kind.limitsPrecision }
        for finding in findings where finding.outcome == .disagree {
            guard let system = try? layout.lowered(variant: finding.variant) else { continue }
            let answer: Result<Solution, any Error>
            if let known = exact[finding.variant] {
                answer = known
            } else {
                answer = Result { try pool.instance(arbiter).load(layout, variant: finding.variant) }
                exact[finding.variant] = answer
            }
            let truth: Solution
            switch answer {
            case .failure(let error):
                explained.append(Explained(finding: finding, explanation: .unarbitrated("\(error)"), precise: precise))
                continue
            case .success(let solution): truth = solution
            }
            let magnitude = exactMagnitude(truth)
            if truth.status == .solved && magnitude > NumericRange.acceptedMagnitude {
                explained.append(Explained(finding: finding, explanation: .exactBeyondRange(magnitude: magnitude), precise: precise))
                continue
            }
            /// The reasons `spec`'s answer differs from the exact one (none: it
            /// agrees), and whether its only difference is "solved" where the
            /// exact answer is "unsatisfiable" with the required rows met to
            /// the tolerance (the judge adds a violation reason otherwise).
            func againstExact(_ spec: SolverSpec) -> (reasons: [String], withinTolerance: Bool) {
                let solver = pool.instance(spec)
                let solution: Solution
                do { solution = try solver.load(layout, variant: finding.variant) } catch { return (["\(error)"], false) }
                let (verdict, reasons) = CrossCheck.judge(solution, reference: truth, system: system, expectations: [],
                                                          semantics: solver.capabilities.prioritySemantics)
                if verdict == .pass || verdict == .weightedDivergence { return ([], false) }
                return (reasons, truth.status == .unsatisfiable && solution.status == .solved && reasons.count == 1)
            }
            // The reference's own failure (``check`` compares nothing else in
            // that variant): it declined where the exact solver answered.
            if finding.solver == referenceSpec.name {
                explained.append(Explained(finding: finding, explanation: .referenceDeclined(finding.reasons.joined(separator: "; ")),
                                           precise: precise))
                continue
            }
            let judged = solvers.first { $0.name == finding.solver } ?? referenceSpec
            let solverSide = judged.name == referenceSpec.name ? (reasons: finding.reasons, withinTolerance: false) : againstExact(judged)
            // The reference is judged once per variant, whatever the number of solvers.
            let referenceSide = referenceJudged[finding.variant] ?? againstExact(referenceSpec)
            referenceJudged[finding.variant] = referenceSide
            let solverRight = solverSide.reasons.isEmpty || solverSide.withinTolerance
            let referenceRight = referenceSide.reasons.isEmpty || referenceSide.withinTolerance
            let explanation: Explanation = switch (solverRight, referenceRight) {
            case (true, true) where solverSide.withinTolerance || referenceSide.withinTolerance: .feasibleWithinTolerance
            case (true, true): .bothWithinTolerance
            case (true, false): .referenceWrong
            case (false, true): .solverWrong(solverSide.reasons)
            case (false, false): .bothDiffer(solver: solverSide.reasons, reference: referenceSide.reasons)
            }
            switch explanation {
            case .solverWrong, .bothDiffer:
                let needs = beyondRange[finding.variant] ?? needsBeyondRange(layout, variant: finding.variant, exact: truth,
                                                                              arbiter: arbiter, pool: pool)
                beyondRange[finding.variant] = .some(needs)
                if needs == true {
                    explained.append(Explained(finding: finding, explanation: .exactBeyondRange(magnitude: nil), precise: precise))
                    continue
                }
            default: break
            }
            explained.append(Explained(finding: finding, explanation: explanation, precise: precise))
        }
        return explained
    }
}
