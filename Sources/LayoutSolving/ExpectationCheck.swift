import LayoutModel

/// The outcome of checking one `expect` line against a solution.
public struct ExpectationResult: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable {
        case passed, failed
        /// The solver cannot answer it (e.g. ambiguity from a solver without that analysis).
        case unsupported
    }

    /// The line checked.
    public var expectation: Expectation {
        get { checked.items[Int(index)] }
        set {
            checked = CheckedLines([newValue])
            index = 0
        }
    }
    /// Why it failed, with the numbers.
    public var reason: String?
    /// Why the lines checked are shared, not copied into each result: an
    /// `Expectation` is 120 bytes, and a grid of R = 10^5 rows checks
    /// 200,000 of them; the copies were the peak of a whole `solve`
    /// (docs/measurements.md#m-2026-11-27-small-items). A result is 32
    /// bytes (the index in 32 bits and the verdict last, in that word).
    private var checked: CheckedLines
    private var index: Int32
    public var verdict: Verdict

    init(_ checked: CheckedLines, _ index: Int, verdict: Verdict, reason: String?) {
        self.checked = checked
        self.index = Int32(truncatingIfNeeded: index)
        self.verdict = verdict
        self.reason = reason
    }

    public static func == (a: ExpectationResult, b: ExpectationResult) -> Bool {
        a.verdict == b.verdict && a.reason == b.reason && a.expectation == b.expectation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(expectation)
        hasher.combine(verdict)
        hasher.combine(reason)
    }
}

/// The lines a ``Solution/check(_:)`` checked, shared by its results (immutable).
final class CheckedLines: Sendable {
    let items: [Expectation]

    init(_ items: [Expectation]) { self.items = items }
}

extension Solution {
    /// Checks the expectations of this solution's variant.
    ///
    /// Frames within ``Tolerance/expectation`` (1e-3 absolute); `unsatisfiable`
    /// against the status; `ambiguous` against ``ambiguous`` (unsupported when nil).
    ///
    /// - Complexity: O(*v* + *e*) for *v* views and *e* expectations (plus the
    ///   views each `ambiguous` line names).
    public func check(_ expectations: [Expectation]) -> [ExpectationResult] {
        // Why an index built once: looking each view up by name in `viewNames`
        // made checking a grid's 2R frame expectations quadratic, O(v × e)
        // (evidence: docs/measurements.md#m-2026-11-23-profile).
        let frameIndex = NameIndex(viewNames)
        let ambiguousSet = ambiguous.map(Set.init)
        let checked = CheckedLines(expectations)
        return expectations.indices.map { index in
            let expectation = expectations[index]
            func result(_ verdict: ExpectationResult.Verdict, _ reason: String? = nil) -> ExpectationResult {
                ExpectationResult(checked, index, verdict: verdict, reason: reason)
            }
            switch expectation.kind {
            case .unsatisfiable:
                return status == .unsatisfiable ? result(.passed) : result(.failed, "expected unsatisfiable, solved")
            case .frame(let view, let expected):
                guard status == .solved else { return result(.failed, "expected a frame for \(view), layout is unsatisfiable") }
                guard let actual = frameIndex[view].flatMap({ frames.indices.contains($0) ? frames[$0] : nil }) else { return result(.failed, "no frame for \(view)") }
                // Why a plain absolute bound for a stated tolerance: `within 0.5`
                // (Xcode's pixel rounding) is a distance in points, whatever the frame's size.
                let close = expectation.tolerance.map { t in FrameComponent.allCases.allSatisfy { abs(actual[$0] - expected[$0]) <= t } }
                    ?? FrameComponent.allCases.allSatisfy { Tolerance.expectation.isClose(actual[$0], expected[$0]) }
                return close ? result(.passed) : result(.failed, "\(view): expected \(expected), got \(actual)")
            case .ambiguous(let views):
                guard status == .solved else { return result(.failed, "expected a solution, layout is unsatisfiable") }
                guard let ambiguous, let ambiguousSet else { return result(.unsupported) }
                return Set(views) == ambiguousSet
                    ? result(.passed)
                    : result(.failed, "expected ambiguous [\(views.joined(separator: " "))], got [\(ambiguous.joined(separator: " "))]")
            }
        }
    }
}
