import LayoutModel

/// The outcome of checking one `expect` line against a solution.
public struct ExpectationResult: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable {
        case passed, failed
        /// The solver cannot answer it (e.g. ambiguity from a solver without that analysis).
        case unsupported
    }

    public var expectation: Expectation
    public var verdict: Verdict
    /// Why it failed, with the numbers.
    public var reason: String?
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
        return expectations.map { expectation in
            func result(_ verdict: ExpectationResult.Verdict, _ reason: String? = nil) -> ExpectationResult {
                ExpectationResult(expectation: expectation, verdict: verdict, reason: reason)
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
