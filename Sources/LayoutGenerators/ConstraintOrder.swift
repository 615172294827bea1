import LayoutModel
import SeededRandom

/// The order in which a layout's constraints reach a solver: the
/// generator's (``file``), the reverse, or a shuffle with a fixed seed.
///
/// Why it matters: an incremental solver's tableau depends on the order of
/// insertion (which rows become basic, which fill in, where in memory each
/// row lands), and a family that grows linearly in the generator's order
/// may not in another. Issue 41 asks for linear growth in any order;
/// `layout-bench generate --order` and `scaling --family --order` measure it.
/// The shuffle's seed is fixed, so two runs give the same layout.
public enum ConstraintOrder: String, CaseIterable, Sendable, Codable {
    case file, reversed, shuffled

    /// `layout` with its constraints in this order (views, container and
    /// expectations as they were).
    /// - Complexity: O(constraints).
    public func apply(to layout: Layout) -> Layout {
        var out = layout
        switch self {
        case .file: break
        case .reversed: out.constraints.reverse()
        case .shuffled:
            var rng = SplitMix(seed: 42)
            out.constraints.shuffle(using: &rng)
        }
        return out
    }
}
