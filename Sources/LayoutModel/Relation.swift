/// How the two sides of a constraint relate.
public enum Relation: String, Sendable, CaseIterable, Hashable {
    case equal = "="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="

    /// The spelling used by the `.layout` printer.
    public var symbol: String { rawValue }

    /// The relation after both sides are negated: `<=` and `>=` exchange.
    /// How far `residual {=, <=, >=} 0` is from holding: |r| for `=`,
    /// max(0, r) for `<=`, max(0, -r) for `>=`. The error of a soft row and
    /// the violation of a required one are this of `lhs - rhs`.
    public func violation(_ residual: Double) -> Double {
        switch self {
        case .equal: return abs(residual)
        case .lessThanOrEqual: return Swift.max(0, residual)
        case .greaterThanOrEqual: return Swift.max(0, -residual)
        }
    }

    public var mirrored: Relation {
        switch self {
        case .equal: return .equal
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThanOrEqual: return .lessThanOrEqual
        }
    }
}
