/// One side of a constraint: a view and one of its attributes, e.g. `button.left`.
public struct ItemAttribute: Hashable, Sendable, CustomStringConvertible {
    /// The view's name; `super` is the container.
    public var item: String
    public var attribute: Attribute
    /// Where the item was written, if it came from text. Provenance, not content:
    /// ignored by `==` and `hash(into:)`.
    public var location: SourceLocation?

    public init(_ item: String, _ attribute: Attribute, location: SourceLocation? = nil) {
        self.item = item
        self.attribute = attribute
        self.location = location
    }

    public var description: String { "\(item).\(attribute.rawValue)" }

    public static func == (lhs: ItemAttribute, rhs: ItemAttribute) -> Bool {
        lhs.item == rhs.item && lhs.attribute == rhs.attribute
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(item)
        hasher.combine(attribute)
    }
}

/// Where the parts of a constraint were written, for diagnostics that point
/// at the exact column.
public struct ConstraintLocations: Hashable, Sendable {
    /// The start of the constraint (the first item, or the `when` keyword).
    public var start: SourceLocation
    public var relation: SourceLocation?
    public var multiplier: SourceLocation?
    public var constant: SourceLocation?
    public var priority: SourceLocation?

    public init(
        start: SourceLocation, relation: SourceLocation? = nil, multiplier: SourceLocation? = nil,
        constant: SourceLocation? = nil, priority: SourceLocation? = nil
    ) {
        self.start = start
        self.relation = relation
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
    }
}

/// The anatomy of an `NSLayoutConstraint`:
///
///     first  relation  multiplier × second + constant   @ priority  # identifier
///
/// `second == nil` makes a constant constraint (`button.height = 36`), which is
/// legal for dimensions only; its multiplier is ignored and conventionally 1.
///
/// A multiplier of 0 drops the second item: `a.width = b.width * 0 + 10` means
/// `a.width = 10`. Like Auto Layout, the model rejects that for a location
/// attribute (a location equal to a constant), see ``Layout/validate()``.
///
/// Equality compares content only: two constraints written on different
/// lines are equal if they say the same thing.
public struct LayoutConstraint: Hashable, Sendable, CustomStringConvertible {
    public var first: ItemAttribute
    public var relation: Relation
    public var second: ItemAttribute?
    public var multiplier: Double
    public var constant: Double
    public var priority: Priority
    /// The text after `#`, trimmed; nil when absent or empty.
    public var identifier: String?
    /// The constraint is active only where the container has all these traits
    /// (`when landscape, ipad: ...`). Empty means always active.
    public var traits: [String]
    /// Where it was written, if it came from text (ignored by `==`).
    public var locations: ConstraintLocations?

    public init(
        _ first: ItemAttribute, _ relation: Relation, _ second: ItemAttribute?,
        multiplier: Double = 1, constant: Double = 0, priority: Priority = .required,
        identifier: String? = nil, traits: [String] = [], locations: ConstraintLocations? = nil
    ) {
        self.first = first
        self.relation = relation
        self.second = second
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
        self.identifier = identifier
        self.traits = traits
        self.locations = locations
    }

    /// Where the constraint starts, if known.
    public var location: SourceLocation? { locations?.start }

    /// How reports and errors name this constraint: its identifier if it has
    /// one, else `file:line`, else its text.
    public var displayName: String {
        if let identifier { return identifier }
        if let location { return location.fileAndLine }
        return description
    }

    /// Whether the constraint applies under a container with `activeTraits`.
    public func isActive(under activeTraits: [String]) -> Bool {
        traits.allSatisfy { activeTraits.contains($0) }
    }

    /// The constraint in `.layout` syntax, without `when` and identifier.
    public var description: String {
        var text = "\(first) \(relation.symbol) "
        if let second {
            text += second.description
            if multiplier != 1 { text += " * \(formatNumber(multiplier))" }
            if constant > 0 {
                text += " + \(formatNumber(constant))"
            } else if constant < 0 {
                text += " - \(formatNumber(-constant))"
            }
        } else {
            text += formatNumber(constant)
        }
        if !priority.isRequired { text += " @ \(priority)" }
        return text
    }

    public static func == (lhs: LayoutConstraint, rhs: LayoutConstraint) -> Bool {
        lhs.first == rhs.first && lhs.relation == rhs.relation && lhs.second == rhs.second
            && lhs.multiplier == rhs.multiplier && lhs.constant == rhs.constant
            && lhs.priority == rhs.priority && lhs.identifier == rhs.identifier && lhs.traits == rhs.traits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(first)
        hasher.combine(relation)
        hasher.combine(second)
        hasher.combine(multiplier)
        hasher.combine(constant)
        hasher.combine(priority)
        hasher.combine(identifier)
        hasher.combine(traits)
    }
}
