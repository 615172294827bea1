// The one mapping from a lowered row (LayoutModel) to the core solver's
// constraint: the adapter, the scaling benchmark and the tests all use it.

import Cassowary
import LayoutModel

extension ConstraintDefinition {
    /// Lowered row `row` as a Cassowary constraint: its terms over
    /// `variables` (indexed like the lowered system's frame variables), its
    /// relation, and its priority as a strength (1000 → required, every other
    /// priority its own lexicographic level).
    /// - Complexity: O(terms).
    // Why inlined: one call per constraint of every load; as a call (with its
    // label argument) it cost about 1% of a load in instructions.
    @inline(__always)
    public init(_ row: LoweredConstraint, variables: [CassowaryVariable], label: String = "") {
        self.init(terms: row.expression.terms.map { (variables[$0.variable.index], $0.coefficient) },
                  constant: row.expression.constant,
                  relation: CassowaryRelation(row.relation),
                  strength: row.priority.isRequired ? .required : .soft(row.priority.rawValue),
                  label: label)
    }
}

extension CassowaryRelation {
    /// The core solver's relation for a layout relation.
    public init(_ relation: Relation) {
        switch relation {
        case .equal: self = .equal
        case .lessThanOrEqual: self = .lessThanOrEqual
        case .greaterThanOrEqual: self = .greaterThanOrEqual
        }
    }
}

/// The solver's handle of each layout constraint, by constraint index; nil
/// (not in the solver) stored as -1. Why not `[CassowaryConstraint?]`: the
/// optional's tag rounds each entry up to 16 bytes, 13 MB for the 820,000
/// constraints of a grid at R = 10^5; an id is 8
/// (docs/measurements.md#m-2026-11-27-small-items).
struct HandleTable {
    private var ids: [Int] = []

    init() {}

    init(count: Int) { ids = Array(repeating: -1, count: count) }

    var indices: Range<Int> { ids.indices }

    subscript(index: Int) -> CassowaryConstraint? {
        get { ids[index] < 0 ? nil : CassowaryConstraint(id: ids[index]) }
        set { ids[index] = newValue?.id ?? -1 }
    }
}
