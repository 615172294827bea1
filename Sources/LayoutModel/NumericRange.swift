/// The numbers the solvers answer, decided from their tolerances.
///
/// Every verdict compares answers with one tolerance, 1e-5 absolute + 1e-8
/// relative to the largest frame value (`Tolerance` in LayoutSolving), and the
/// solvers work in doubles (about 16 significant digits): GLPK's primal and
/// dual feasibility tolerances are 1e-7 (scaled), Cassowary's zero test 1e-9 (`Row.nearZero`).
/// A row `a = m * b + c` with |c| up to 1e7 and m in 1e-4...1e4 keeps every
/// product within 1e11, whose rounding (about 1e-5) is still at the absolute
/// tolerance: the **precise range**. Beyond it a layout is still accepted, with
/// a located warning, up to the **accepted range**; beyond that (|c| > 1e9, m
/// outside 1e-6...1e6) rounding exceeds every tolerance, GLPK's simplex can
/// fail its own assertions (`a.height = a.width * 1e280` aborted the process),
/// and the layout is refused with a located error. One check, in
/// ``Layout/validate()``, so every front end (text, visual format, the DSL,
/// the model API) meets it.
public enum NumericRange {
    /// Magnitudes answered to full precision: constants, metrics, container
    /// sizes, margins, expected frames.
    public static let preciseMagnitude = 1e7
    /// Magnitudes accepted at all.
    public static let acceptedMagnitude = 1e9
    /// Non-zero multipliers answered to full precision (absolute value).
    public static let preciseMultiplier: ClosedRange<Double> = 1e-4...1e4
    /// Non-zero multipliers accepted at all (absolute value).
    public static let acceptedMultiplier: ClosedRange<Double> = 1e-6...1e6

    /// Two multipliers on the same pair of attributes closer than this
    /// (relative) make nearly parallel rows: `a.x = b.x * 1.0000001 + c`
    /// beside `a.x <= b.x`. Their intersection sits at (difference of the
    /// constants) / (difference of the multipliers), and a solver whose
    /// tolerances are 1e-7 cannot tell the two rows apart, so its answer is
    /// not the exact one. Why 1e-6, ten times GLPK's relative tolerance: in
    /// the hostile fuzz campaign (50,000 layouts with z3 as the arbiter)
    /// every wrong answer within the magnitude and multiplier ranges came
    /// from such a pair, all at 1e-7 or closer. A warning, like the other
    /// limits of the precise range.
    public static let parallelMultipliers = 1e-6

    /// Whether two non-zero multipliers on the same attribute pair make
    /// nearly parallel rows (different, but within ``parallelMultipliers``).
    public static func nearlyParallel(_ a: Double, _ b: Double) -> Bool {
        a != b && a.isFinite && b.isFinite && a != 0 && b != 0 && abs(a - b) <= parallelMultipliers * max(abs(a), abs(b))
    }

    public enum Verdict: Equatable, Sendable {
        case precise
        /// Accepted with a warning; the payload is the precise limit, as text.
        case imprecise(limit: String)
        /// Refused; the payload is the accepted limit, as text.
        case refused(limit: String)
    }

    /// Where a magnitude (a constant, size, margin, metric) falls. Non-finite
    /// numbers are reported elsewhere and are `precise` here.
    public static func magnitude(_ x: Double) -> Verdict {
        guard x.isFinite else { return .precise }
        if abs(x) > acceptedMagnitude { return .refused(limit: "|x| <= 1e9") }
        if abs(x) > preciseMagnitude { return .imprecise(limit: "|x| <= 1e7") }
        return .precise
    }

    /// Where a multiplier falls (0 is exact; its own rules are elsewhere).
    public static func multiplier(_ m: Double) -> Verdict {
        guard m.isFinite, m != 0 else { return .precise }
        if !acceptedMultiplier.contains(abs(m)) { return .refused(limit: "1e-6 <= |m| <= 1e6") }
        if !preciseMultiplier.contains(abs(m)) { return .imprecise(limit: "1e-4 <= |m| <= 1e4") }
        return .precise
    }
}
