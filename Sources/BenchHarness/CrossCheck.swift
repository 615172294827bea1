import BenchSchema
import LayoutModel
import LayoutSolving

/// The cross-check rules, in one place (the README's "What pass means").
public enum CrossCheck {
    /// Frames and level errors of two solvers agree within this: the same bound
    /// under which the reference calls a frame component determined.
    public static let tolerance = Tolerance.crossCheck

    /// Values by variable index from a solution's frames.
    static func values(_ solution: Solution) -> [Double] {
        solution.frames.flatMap { [$0.x, $0.y, $0.width, $0.height] }
    }

    /// Judges a solution against the reference (if any) and the expectations.
    ///
    /// 1. Status agrees with the reference. 2. Required constraints hold.
    /// 3. Every level's error equals the reference's. 4. Frames equal the
    /// reference's where the reference says they are unique, and the
    /// ambiguous views are the reference's (when both answer). 5. The `expect`
    /// lines hold. A weighted solver failing only 3-5 gets `weighted-divergence`.
    public static func judge(_ solution: Solution, reference: Solution?, system: LoweredSystem,
                             expectations: [Expectation], semantics: SolverCapabilities.PrioritySemantics)
        -> (verdict: Verdict, reasons: [String])
    {
        var hard: [String] = []  // failures whatever the semantics
        var soft: [String] = []  // failures a weighted solver may have
        if let reference, reference.status != solution.status {
            hard.append("status \(solution.status.rawValue), reference \(reference.status.rawValue)")
        }
        if solution.status == .solved {
            let values = values(solution)
            let scale = values.map(abs).max() ?? 0
            let violation = system.maximumRequiredViolation(values)
            if violation > tolerance.absolute + tolerance.relative * scale {
                hard.append("a required constraint is violated by \(formatNumber(violation, maxFractionDigits: 9))")
            }
        }
        if let reference, reference.status == .solved, solution.status == .solved {
            for level in reference.levels {
                let mine = solution.levels.first { $0.priority == level.priority }?.error ?? 0
                if !tolerance.isClose(mine, level.error) {
                    soft.append("level \(level.priority) error \(formatNumber(mine, maxFractionDigits: 6)), "
                                + "reference \(formatNumber(level.error, maxFractionDigits: 6))")
                }
            }
            // Ambiguity lists, where both solvers answer: the same views.
            if let mine = solution.ambiguous, let theirs = reference.ambiguous, mine != theirs {
                let extra = mine.filter { !theirs.contains($0) }, missing = theirs.filter { !mine.contains($0) }
                soft.append("ambiguous views differ from the reference: "
                            + (extra.isEmpty ? "" : "also \(extra.prefix(5).joined(separator: " "))\(extra.count > 5 ? " ..." : "")")
                            + (extra.isEmpty || missing.isEmpty ? "" : "; ")
                            + (missing.isEmpty ? "" : "not \(missing.prefix(5).joined(separator: " "))\(missing.count > 5 ? " ..." : "")"))
            }
            let differences = frameDifferences(solution, reference, free: Set(reference.ambiguous ?? []), tolerance: tolerance)
            if let d = differences.first {
                soft.append("\(differences.count) determined frame value(s) differ, e.g. \(d.view).\(d.component) = "
                            + "\(formatNumber(d.mine, maxFractionDigits: 6)), reference \(formatNumber(d.theirs, maxFractionDigits: 6))")
            }
        }
        for result in solution.check(expectations) where result.verdict == .failed {
            let line = result.expectation.location.map { "line \($0.line): " } ?? ""
            soft.append("\(line)\(result.reason ?? "expectation failed")")
        }
        if !hard.isEmpty { return (.fail, hard + soft) }
        if soft.isEmpty { return (.pass, []) }
        return semantics == .weighted ? (.weightedDivergence, soft) : (.fail, soft)
    }

    /// The determined frame values (views not in `free`) of `a` that differ from
    /// `b`'s, as (view, component, a's value, b's value).
    static func frameDifferences(_ a: Solution, _ b: Solution, free: Set<String>, tolerance: Tolerance)
        -> [(view: String, component: FrameComponent, mine: Double, theirs: Double)]
    {
        var found: [(String, FrameComponent, Double, Double)] = []
        for (i, name) in b.viewNames.enumerated() where !free.contains(name) && i < a.frames.count && i < b.frames.count {
            for c in FrameComponent.allCases where !tolerance.isClose(a.frames[i][c], b.frames[i][c]) {
                found.append((name, c, a.frames[i][c], b.frames[i][c]))
            }
        }
        return found
    }

    /// Whether an incremental answer equals a fresh one: determined frames
    /// (per the reference when there is one) and level errors.
    public static func sameAnswer(_ a: Solution, _ b: Solution, reference: Solution?) -> String? {
        if a.status != b.status { return "status \(a.status.rawValue) vs fresh \(b.status.rawValue)" }
        // An unsatisfiable variant's answer is its status and a conflict, not
        // frames: the frames are a best effort with some conflicting
        // constraint left out, and which one a solver leaves out depends on
        // the path it took (a soft constraint beside the conflict then lands
        // differently incrementally and fresh). Nor are conflicts compared: a
        // minimal conflict need not be unique.
        if a.status == .unsatisfiable { return nil }
        if let d = frameDifferences(a, b, free: Set(reference?.ambiguous ?? []), tolerance: tolerance).first {
            return "\(d.view).\(d.component) = \(formatNumber(d.mine, maxFractionDigits: 6)) incrementally, "
                + "\(formatNumber(d.theirs, maxFractionDigits: 6)) fresh"
        }
        for (x, y) in zip(a.levels, b.levels) where !tolerance.isClose(x.error, y.error) {
            return "level \(x.priority) error \(x.error) incrementally, \(y.error) fresh"
        }
        return nil
    }
}
