/// A constraint's priority: a real number in `1...1000`, where 1000 means
/// *required*.
///
/// Lower priorities compare lexicographically: satisfying a constraint at a
/// higher priority is always preferred over any amount of error at lower ones,
/// and constraints of equal priority form one level whose errors are summed.
/// `high` and `750` are the same level.
public struct Priority: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral
{
    public var rawValue: Double

    public init(rawValue: Double) { self.rawValue = rawValue }
    public init(_ value: Double) { self.rawValue = value }
    public init(integerLiteral value: Int) { self.rawValue = Double(value) }
    public init(floatLiteral value: Double) { self.rawValue = value }

    /// 1000: must hold exactly.
    public static let required = Priority(1000)
    /// 750, `UILayoutPriority.defaultHigh`.
    public static let high = Priority(750)
    /// 250, `UILayoutPriority.defaultLow`.
    public static let low = Priority(250)
    /// 50, `UILayoutPriority.fittingSizeLevel`.
    public static let fitting = Priority(50)

    /// The names the `.layout` format accepts after `@`.
    public static let named: [(name: String, priority: Priority)] = [
        ("required", .required), ("high", .high), ("low", .low), ("fitting", .fitting),
    ]

    /// The valid range of priorities.
    public static let validRange: ClosedRange<Double> = 1...1000

    public var isRequired: Bool { rawValue == 1000 }
    public var isValid: Bool { Priority.validRange.contains(rawValue) }

    public var description: String { formatNumber(rawValue) }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}
