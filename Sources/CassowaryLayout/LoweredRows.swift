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
        self.init(terms: [], constant: 0, relation: .equal, strength: .required)
        terms.reserveCapacity(row.expression.terms.count)
        assign(row, variables: variables)
        self.label = label
    }

    /// Makes this definition lowered row `row`'s (the one mapping, which
    /// ``init(_:variables:label:)`` uses too), without a label, reusing the
    /// terms array's storage. Why: a load
    /// adds one row after another, and a fresh terms array per row was an
    /// allocation and a generic teardown each (about 2% of a grid's load).
    /// - Complexity: O(terms).
    mutating func assign(_ row: LoweredConstraint, variables: [CassowaryVariable]) {
        terms.removeAll(keepingCapacity: true)
        for term in row.expression.terms { terms.append((variables[term.variable.index], term.coefficient)) }
        constant = row.expression.constant
        relation = CassowaryRelation(row.relation)
        strength = row.priority.isRequired ? .required : .soft(row.priority.rawValue)
        label = ""
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

/// Where each solver constraint came from, by the handle's id, packed in 8
/// bytes. Why not `[LoweredConstraint.Origin?]`: a content origin's view
/// index beside two one-byte cases and the tags round each entry up to 16
/// bytes, 13 MB for a grid at R = 10^5; every origin fits one integer.
///
/// Layout of an entry: 0 is nil; otherwise the low two bits are the case
/// (1 a constraint, 2 a container row, 3 a content row) and the rest its
/// payload: the constraint index; the frame component's raw value; or the
/// view index, then the axis and the kind in two bits.
struct OriginTable {
    private var codes: [UInt64] = []

    mutating func reserveCapacity(_ count: Int) { codes.reserveCapacity(count) }

    mutating func removeAll() { codes = [] }

    subscript(id id: Int) -> LoweredConstraint.Origin? {
        get { codes.indices.contains(id) ? Self.decode(codes[id]) : nil }
        set {
            guard id >= 0 else { return }
            if id >= codes.count {
                guard newValue != nil else { return }
                codes.append(contentsOf: repeatElement(0, count: id - codes.count + 1))
            }
            codes[id] = newValue.map(Self.encode) ?? 0
        }
    }

    static func encode(_ origin: LoweredConstraint.Origin) -> UInt64 {
        switch origin {
        case .constraint(let index):
            return UInt64(truncatingIfNeeded: index) << 2 | 1
        case .container(let component):
            return UInt64(component.rawValue) << 2 | 2
        case .content(let view, let axis, let kind):
            let axisBit: UInt64 = axis == .horizontal ? 0 : 1
            let kindBit: UInt64 = kind == .hugging ? 0 : 1
            return (UInt64(truncatingIfNeeded: view) << 4 | axisBit << 3 | kindBit << 2) | 3
        }
    }

    static func decode(_ code: UInt64) -> LoweredConstraint.Origin? {
        switch code & 3 {
        case 1: return .constraint(index: Int(truncatingIfNeeded: code >> 2))
        case 2: return FrameComponent(rawValue: Int(code >> 2)).map { .container($0) }
        case 3:
            return .content(view: Int(truncatingIfNeeded: code >> 4), axis: code >> 3 & 1 == 0 ? .horizontal : .vertical,
                            kind: code >> 2 & 1 == 0 ? .hugging : .compression)
        default: return nil
        }
    }
}
