import LayoutModel

/// Absolute and relative tolerance for comparing solver results: `a` and `b`
/// are close when `|a - b| <= max(absolute, relative × max(|a|, |b|))`.
///
/// Why both: layout values range from fractions of a point to 1e7; an
/// absolute bound alone is too strict for large values, a relative one too
/// strict near zero. Like swift-numerics' `isApproximatelyEqual`, this is not
/// transitive, so it is never used for `Equatable`.
public struct Tolerance: Hashable, Sendable, CustomStringConvertible {
    public var absolute: Double
    public var relative: Double

    public init(absolute: Double, relative: Double) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The format's `expect VIEW = X Y W H` tolerance: 1e-3 absolute
    /// (``Expectation/frameTolerance``, the format's own fact).
    public static let expectation = Tolerance(absolute: Expectation.frameTolerance, relative: 0)

    /// Cross-checks between solvers: 1e-5 absolute, 1e-8 relative — the bound
    /// under which the reference calls a frame component determined (100 times
    /// GLPK's feasibility tolerance), so "equal" and "unique" mean the same.
    public static let crossCheck = Tolerance(absolute: 1e-5, relative: 1e-8)

    /// A frame component is *determined* when its range on the optimal face is
    /// within this: 100 times GLPK's feasibility tolerance and 100 times below
    /// the 1e-3 of `expect` lines. Every solver's ambiguity analysis uses it.
    public static let ambiguity = Tolerance(absolute: 1e-5, relative: 1e-7)

    /// Whether `a` and `b` are within tolerance. NaN is close to nothing.
    public func isClose(_ a: Double, _ b: Double) -> Bool {
        guard a.isFinite, b.isFinite else { return a == b }
        return abs(a - b) <= Swift.max(absolute, relative * Swift.max(abs(a), abs(b)))
    }

    public var description: String { "abs \(absolute), rel \(relative)" }
}
