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

    /// The name in files (interpolation spells it too).
    public var description: String { rawValue }

    /// Verdicts that make a run fail (and a gate call a change to them a
    /// regression).
    public var isFailure: Bool { self == .fail || self == .error }

    /// Verdicts a report lists first, with their reasons: failures and
    /// weighted divergences.
    public var needsReading: Bool { isFailure || self == .weightedDivergence }

    /// The worst of a case's verdicts (over its variants): error, fail,
    /// weighted divergence, unsupported, pass; nil for none.
    public static func worst(_ verdicts: some Sequence<Verdict>) -> Verdict? {
        let order: [Verdict] = [.error, .fail, .weightedDivergence, .unsupported, .pass]
        let present = Set(verdicts)
        return order.first { present.contains($0) }
    }
}
