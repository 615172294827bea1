/// The outcome for one case x variant x solver: the one owner of the verdict
/// names that the harness writes and the results files, reports and gate read.
public enum Verdict: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    /// Agrees with the reference and the `expect` lines.
    case pass
    /// Disagrees: the reasons say where, with the numbers.
    case fail
    /// The solver lacks what the check needs (or the case is over its size limit).
    case unsupported
    /// The solver crashed, timed out or answered junk.
    case error
    /// A weighted solver whose answer differs from the lexicographic one only
    /// in how it trades priority levels (status, required constraints hold).
    case weightedDivergence = "weighted-divergence"
    /// The answer changed under a transformation that cannot change it
    /// (`run --metamorphic`): the reasons name the relation broken
    /// (order-dependent, not scale-invariant, ...) and the pair of variants
    /// that shows it.
    case metamorphic

    /// The name in files (interpolation spells it too).
    public var description: String { rawValue }

    /// Verdicts that make a run fail (and a gate call a change to them a
    /// regression).
    public var isFailure: Bool { self == .fail || self == .error || self == .metamorphic }

    /// Verdicts a report lists first, with their reasons: failures and
    /// weighted divergences.
    public var needsReading: Bool { isFailure || self == .weightedDivergence }

    /// The worst of a case's verdicts (over its variants): error, fail,
    /// metamorphic, weighted divergence, unsupported, pass; nil for none.
    public static func worst(_ verdicts: some Sequence<Verdict>) -> Verdict? {
        let order: [Verdict] = [.error, .fail, .metamorphic, .weightedDivergence, .unsupported, .pass]
        let present = Set(verdicts)
        return order.first { present.contains($0) }
    }
}

/// Why a solver's frame differs from an observed one (Xcode's stored frame), as `run` classifies it.
public enum ObservedCause: String, Codable, CaseIterable, Sendable {
    /// The reference matches the observed frame and this solver does not.
    case solver
    /// The imported constraints conflict (the layout is unsatisfiable as imported).
    case unsatisfiable = "import-unsatisfiable"
    /// The reference says the view is not determined: the file leaves out what fixed it in Xcode.
    case undetermined = "import-undetermined"
    /// Xcode's stored frames break a required constraint the file itself
    /// holds (stored stale though no view is flagged misplaced, or a conflict
    /// Xcode resolved by breaking it): a solver that keeps the constraint
    /// cannot match them. The difference's `evidence` names the constraint.
    case brokenConstraint = "broken-constraint"
    /// Only the size differs, on a view whose size is its measured content (text, images).
    case contentSize = "content-size"
    /// Anything else: an approximation of the importer (insets, margins, stack views, size classes).
    case importGap = "import-gap"

    public var explanation: String {
        switch self {
        case .solver: return "the solver (the reference matches Xcode)"
        case .unsatisfiable: return "an import gap: the imported constraints conflict"
        case .undetermined: return "an import gap: the view is not determined by the imported constraints"
        case .brokenConstraint: return "stored frames that break one of the file's own required constraints (stale, or a conflict Xcode resolved)"
        case .contentSize: return "a text-measured size (content sizes are not stored in the file)"
        case .importGap: return "an import gap (insets, margins, stack views or size classes approximated)"
        }
    }
}
