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
