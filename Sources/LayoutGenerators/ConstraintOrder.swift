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

    /// The positions `0..<count` in this order: the one definition of each
    /// order, for a layout's constraints (``apply(to:)``) and for the rows
    /// the grid's depth mode adds to the core solver directly.
    /// - Complexity: O(count).
    public func permutation(count: Int) -> [Int] {
        var indices = Array(0..<max(0, count))
        switch self {
        case .file: break
        case .reversed: indices.reverse()
        case .shuffled:
            var rng = SplitMix(seed: 42)
            indices.shuffle(using: &rng)
        }
        return indices
    }

    /// `layout` with its constraints in this order (views, container and
    /// expectations as they were).
    /// - Complexity: O(constraints).
    public func apply(to layout: Layout) -> Layout {
        guard self != .file else { return layout }
        var out = layout
        out.constraints = permutation(count: layout.constraints.count).map { layout.constraints[$0] }
        return out
    }
}
