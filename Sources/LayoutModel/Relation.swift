/// How the two sides of a constraint relate.
public enum Relation: String, Sendable, CaseIterable, Hashable {
    case equal = "="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="

    /// The spelling used by the `.layout` printer.
    public var symbol: String { rawValue }
}
