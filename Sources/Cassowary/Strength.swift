/// How strongly a constraint or edit holds.
///
/// `required` must hold exactly. Soft strengths compare **lexicographically**:
/// any improvement at a stronger level beats any amount of error at weaker
/// levels, and constraints of equal strength form one level whose errors are
/// summed. `soft(1000)` is a soft level above every layout priority (1...999);
/// the layout adapter uses it for the container's size so that a size the
/// required constraints cannot meet shows up as error rather than failure.
public enum Strength: Hashable, Sendable, Comparable, CustomStringConvertible {
    case required
    /// A soft level; the value must be finite and > 0 (layouts use 1...999).
    case soft(Double)

    public var isRequired: Bool { self == .required }

    public static func < (a: Strength, b: Strength) -> Bool {
        switch (a, b) {
        case (.required, _): return false
        case (.soft, .required): return true
        case (.soft(let x), .soft(let y)): return x < y
        }
    }

    public var description: String {
        switch self {
        case .required: return "required"
        case .soft(let value): return "soft(\(value))"
        }
    }
}

/// A variable of the solver, made by ``CassowarySolver/makeVariable(_:)``.
public struct CassowaryVariable: Hashable, Sendable, Comparable {
    public let id: Int
    public static func < (a: Self, b: Self) -> Bool { a.id < b.id }
}

/// The handle of an added constraint.
public struct CassowaryConstraint: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let id: Int
    /// A handle from its id, for tables that store ids (the layout adapter's).
    package init(id: Int) { self.id = id }
    public static func < (a: Self, b: Self) -> Bool { a.id < b.id }
    public var description: String { "c\(id)" }
}

/// The relation of a constraint `expression {=, <=, >=} 0`.
public enum CassowaryRelation: String, Hashable, Sendable {
    case equal = "=="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="
}

/// A linear constraint `Σ coefficient × variable + constant {=, <=, >=} 0`.
public struct ConstraintDefinition: Hashable, Sendable {
    public var terms: [(variable: CassowaryVariable, coefficient: Double)]
    public var constant: Double
    public var relation: CassowaryRelation
    public var strength: Strength
    /// A name for errors and dumps.
    public var label: String

    public init(terms: [(variable: CassowaryVariable, coefficient: Double)], constant: Double,
                relation: CassowaryRelation, strength: Strength, label: String = "") {
        self.terms = terms
        self.constant = constant
        self.relation = relation
        self.strength = strength
        self.label = label
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.terms.map(\.variable) == b.terms.map(\.variable) && a.terms.map(\.coefficient) == b.terms.map(\.coefficient)
            && a.constant == b.constant && a.relation == b.relation && a.strength == b.strength && a.label == b.label
    }

    public func hash(into hasher: inout Hasher) {
        for term in terms {
            hasher.combine(term.variable)
            hasher.combine(term.coefficient)
        }
        hasher.combine(constant)
        hasher.combine(relation)
        hasher.combine(strength)
    }
}

/// Every way an operation of the solver can fail. After any of these the
/// solver is exactly as it was before the call.
public enum CassowaryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The required constraint cannot hold together with the required
    /// constraints already added; `conflict` is a minimal set of those that
    /// conflict with it (the original Cassowary's explanation), the new
    /// constraint's label first.
    case unsatisfiable(label: String, conflict: [CassowaryConstraint])
    case duplicateConstraint(CassowaryConstraint)
    case unknownConstraint(CassowaryConstraint)
    case duplicateEditVariable(CassowaryVariable)
    case unknownEditVariable(CassowaryVariable)
    /// Edit variables must be soft.
    case requiredEditStrength(CassowaryVariable)
    case unknownVariable(CassowaryVariable)
    /// A non-finite coefficient or constant, or an invalid strength.
    case invalidConstraint(label: String, reason: String)
    /// Numerical breakdown (e.g. an unbounded objective); a bug if it happens.
    case internalError(String)
    /// The simplex cycled past its pivot limit: rounding on badly scaled
    /// rows (near-parallel rows, constants near 1e9), not a bug; the solver
    /// declines to answer rather than answer wrongly.
    case numericalTrouble(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let label, let conflict):
            return "unsatisfiable required constraint \(label) (conflicts with \(conflict.map(\.description).joined(separator: ", ")))"
        case .duplicateConstraint(let c): return "constraint \(c) was already added"
        case .unknownConstraint(let c): return "unknown constraint \(c)"
        case .duplicateEditVariable(let v): return "variable \(v.id) already has an edit"
        case .unknownEditVariable(let v): return "variable \(v.id) has no edit"
        case .requiredEditStrength(let v): return "edit of variable \(v.id) cannot be required"
        case .unknownVariable(let v): return "unknown variable \(v.id)"
        case .invalidConstraint(let label, let reason): return "invalid constraint \(label): \(reason)"
        case .internalError(let message): return "internal solver error: \(message)"
        case .numericalTrouble(let message): return "numerical trouble: \(message)"
        }
    }
}
