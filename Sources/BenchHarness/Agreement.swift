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

    /// Solver instances for a session: external solvers keep one process.
    public final class Pool {
        var externals: [String: LayoutSolver] = [:]
        let timeout: Double
        public init(timeout: Double = 30) { self.timeout = timeout }

        func instance(_ spec: SolverSpec) -> LayoutSolver {
            guard spec.isExternal else { return spec.make(timeout: timeout) }
            if let existing = externals[spec.name] { return existing }
            let made = spec.make(timeout: timeout)
            externals[spec.name] = made
            return made
        }
    }

    /// Solves `layout` with every solver and judges each against the first
    /// (the reference) with the run's cross-check rules (no `expect` lines).
    public static func check(_ layout: Layout, solvers: [SolverSpec], timeout: Double = 30, pool: Pool? = nil) -> [Finding] {
        let pool = pool ?? Pool(timeout: timeout)
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
                    case .fail, .error:
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
    /// seed and the reasons in comments.
    public static func reproduction(_ layout: Layout, seed: UInt64, findings: [Finding]) -> String {
        var header = "# layout-bench fuzz: seed \(seed) (\(RandomLayoutGenerator.kind(forSeed: seed).rawValue))\n"
        for f in findings where f.outcome != .agree {
            header += "# \(f.solver) [\(f.variant)] \(f.outcome.rawValue): " + f.reasons.joined(separator: "; ")
                .replacingOccurrences(of: "\n", with: " ") + "\n"
        }
        return header + LayoutPrinter.print(layout)
    }
}
