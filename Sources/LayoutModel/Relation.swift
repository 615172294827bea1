/// How the two sides of a constraint relate.
public enum Relation: String, Sendable, CaseIterable, Hashable {
    case equal = "="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="

    /// The spelling used by the `.layout` printer.
    public var symbol: String { rawValue }

    /// The relation after both sides are negated: `<=` and `>=` exchange.
    public var mirrored: Relation {
        switch self {
        case .equal: return .equal
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThanOrEqual: return .lessThanOrEqual
        }
    }
}
