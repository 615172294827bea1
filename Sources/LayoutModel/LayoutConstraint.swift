import Synchronization

/// One side of a constraint: a view and one of its attributes, e.g. `button.left`.
public struct ItemAttribute: Hashable, Sendable, CustomStringConvertible {
    /// The view's name; `super` is the container.
    public var item: String
    public var attribute: Attribute
    // Why packed: an item is then 32 bytes, not 40 (see ``LayoutConstraint``).
    private var storedLocation: PackedLocation

    public init(_ item: String, _ attribute: Attribute, location: SourceLocation? = nil) {
        self.item = item
        self.attribute = attribute
        self.storedLocation = PackedLocation(location)
    }

    /// Where the item was written, if it came from text. Provenance, not content:
    /// ignored by `==` and `hash(into:)`.
    public var location: SourceLocation? {
        get { storedLocation.location }
        set { storedLocation = PackedLocation(newValue) }
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
///
/// Why columns, not four more ``SourceLocation``s: the parts of a written
/// constraint are on its first line, and a location each (13 bytes with its
/// optional's tag, 16 in the layout) made this struct about 80 bytes of a
/// parsed constraint's 208, kept for the whole run (a 10^5-row grid holds
/// 800,000). A part on another line or in another file (no front end writes
/// one) is kept whole in a table shared by the process, so that the struct
/// stays plain data: no reference to retain on each copy of a constraint.
public struct ConstraintLocations: Hashable, Sendable {
    /// The start of the constraint (the first item, or the `when` keyword).
    /// Moving it keeps every part where it was.
    public var start: SourceLocation {
        get { storedStart }
        set {
            let parts = (0..<4).map { part($0) }
            self = ConstraintLocations(start: newValue, parts: parts)
        }
    }
    private var storedStart: SourceLocation
    /// The 1-based column of each part on `start`'s line, 0 when the part is
    /// absent or kept elsewhere: relation, multiplier, constant, priority.
    /// Why 16 bits: 24 bytes for the struct instead of 32; a part further
    /// right than column 65,535 is kept in the table like one on another line.
    private var columns: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
    /// 1 + the index in ``elsewhereTable`` of the parts not on `start`'s
    /// line, 0 when there are none. Entries are never changed (a change
    /// makes a new one), so copies of this struct never see each other's.
    private var elsewhere: UInt32 = 0

    private static let elsewhereTable = Mutex<[[SourceLocation?]]>([])

    public var relation: SourceLocation? {
        get { part(0) }
        set { setPart(0, newValue) }
    }
    public var multiplier: SourceLocation? {
        get { part(1) }
        set { setPart(1, newValue) }
    }
    public var constant: SourceLocation? {
        get { part(2) }
        set { setPart(2, newValue) }
    }
    public var priority: SourceLocation? {
        get { part(3) }
        set { setPart(3, newValue) }
    }

    public init(
        start: SourceLocation, relation: SourceLocation? = nil, multiplier: SourceLocation? = nil,
        constant: SourceLocation? = nil, priority: SourceLocation? = nil
    ) {
        storedStart = start
        // Why one setter a part, not the array initializer: a parse makes one
        // of these per constraint, and the common case needs no array.
        if let relation { setPart(0, relation) }
        if let multiplier { setPart(1, multiplier) }
        if let constant { setPart(2, constant) }
        if let priority { setPart(3, priority) }
    }

    /// The parts by their 1-based columns on `start`'s line (0: absent), for
    /// a parser that has them at hand. Why: the initialiser above checks each
    /// part's file and line against the start's, a call and a
    /// ``SourceLocation`` a part. A column beyond 65,535 goes that way.
    package init(start: SourceLocation, relationColumn: Int, multiplierColumn: Int, constantColumn: Int, priorityColumn: Int) {
        let limit = Int(UInt16.max)
        guard relationColumn >= 0, relationColumn <= limit, multiplierColumn >= 0, multiplierColumn <= limit,
              constantColumn >= 0, constantColumn <= limit, priorityColumn >= 0, priorityColumn <= limit else {
            func part(_ column: Int) -> SourceLocation? {
                column > 0 ? SourceLocation(fileID: start.fileID, line: start.line, column: column) : nil
            }
            self = ConstraintLocations(start: start, relation: part(relationColumn), multiplier: part(multiplierColumn),
                                       constant: part(constantColumn), priority: part(priorityColumn))
            return
        }
        storedStart = start
        columns = (UInt16(relationColumn), UInt16(multiplierColumn), UInt16(constantColumn), UInt16(priorityColumn))
    }

    /// What a ``LayoutConstraint`` without locations stores: a start in the
    /// file id that ``SourceFileNames`` never hands out (see ``PackedLocation``).
    @usableFromInline package static let absent = ConstraintLocations(start: SourceLocation(fileID: .max, line: 0, column: 0))

    package var isAbsent: Bool { storedStart.fileID == .max }

    private init(start: SourceLocation, parts: [SourceLocation?]) {
        storedStart = start
        var others: [SourceLocation?] = [nil, nil, nil, nil]
        var anyOther = false
        for (i, location) in parts.enumerated() {
            guard let location else { continue }
            if let c = Self.column(of: location, on: start) {
                setColumn(i, c)
            } else {
                others[i] = location
                anyOther = true
            }
        }
        if anyOther { elsewhere = Self.keep(others) }
    }

    /// The part's column if it is on `start`'s line.
    @inline(__always)
    private static func column(of location: SourceLocation, on start: SourceLocation) -> UInt16? {
        guard location.fileID == start.fileID, location.line == start.line, location.column >= 1 else { return nil }
        return UInt16(exactly: location.column)
    }

    private static func keep(_ parts: [SourceLocation?]) -> UInt32 {
        elsewhereTable.withLock { table in
            table.append(parts)
            return UInt32(truncatingIfNeeded: table.count)
        }
    }

    private func column(_ i: Int) -> UInt16 {
        switch i {
        case 0: return columns.0
        case 1: return columns.1
        case 2: return columns.2
        default: return columns.3
        }
    }

    private mutating func setColumn(_ i: Int, _ value: UInt16) {
        switch i {
        case 0: columns.0 = value
        case 1: columns.1 = value
        case 2: columns.2 = value
        default: columns.3 = value
        }
    }

    private func part(_ i: Int) -> SourceLocation? {
        let c = column(i)
        if c > 0 { return SourceLocation(fileID: storedStart.fileID, line: storedStart.line, column: Int(c)) }
        guard elsewhere > 0 else { return nil }
        return Self.elsewhereTable.withLock { $0[Int(elsewhere) - 1][i] }
    }

    private mutating func setPart(_ i: Int, _ location: SourceLocation?) {
        if elsewhere == 0 {
            // The common case: no table involved.
            guard let location else { setColumn(i, 0); return }
            if let c = Self.column(of: location, on: storedStart) {
                setColumn(i, c)
                return
            }
        }
        var parts = (0..<4).map { part($0) }
        parts[i] = location
        self = ConstraintLocations(start: storedStart, parts: parts)
    }

    public static func == (lhs: ConstraintLocations, rhs: ConstraintLocations) -> Bool {
        lhs.storedStart == rhs.storedStart && (0..<4).allSatisfy { lhs.part($0) == rhs.part($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedStart)
        for i in 0..<4 { hasher.combine(part(i)) }
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
///
/// Why the layout of the stored properties: a run keeps every parsed
/// constraint (800,000 for the grid at R = 10^5), so each byte is 0.8 MB.
/// The identifier and traits, absent from most constraints, share one
/// optional box; locations and the second item keep their optionality in
/// spare values, not in tag bytes: 128 bytes a constraint, down from 168
/// (docs/measurements.md#m-2026-11-27-constraint-size).
public struct LayoutConstraint: Hashable, Sendable, CustomStringConvertible {
    public var first: ItemAttribute
    public var second: ItemAttribute?
    public var multiplier: Double
    public var constant: Double
    public var priority: Priority
    @usableFromInline var extras: Extras?
    @usableFromInline var storedLocations: ConstraintLocations
    public var relation: Relation

    /// The identifier and traits of a constraint that has either (immutable: a change makes a new box).
    @usableFromInline final class Extras: Sendable {
        let identifier: String?
        let traits: [String]

        @usableFromInline init(identifier: String?, traits: [String]) {
            self.identifier = identifier
            self.traits = traits
        }

        @inlinable static func make(identifier: String?, traits: [String]) -> Extras? {
            identifier == nil && traits.isEmpty ? nil : Extras(identifier: identifier, traits: traits)
        }
    }

    /// The text after `#`, trimmed; nil when absent or empty.
    public var identifier: String? {
        get { extras?.identifier }
        set { extras = Extras.make(identifier: newValue, traits: traits) }
    }

    /// The constraint is active only where the container has all these traits
    /// (`when landscape, ipad: ...`). Empty means always active.
    public var traits: [String] {
        get { extras?.traits ?? [] }
        set { extras = Extras.make(identifier: identifier, traits: newValue) }
    }

    /// Where it was written, if it came from text (ignored by `==`).
    public var locations: ConstraintLocations? {
        get { storedLocations.isAbsent ? nil : storedLocations }
        set { storedLocations = newValue ?? .absent }
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

extension LayoutConstraint {
    // Why inlinable: a parser makes 800,000 of these, and as a call into
    // this module each one built the value, copied it out (a retain of each
    // of its strings) and destroyed the original: 308 instructions.
    // Why in an extension: an initialiser in the struct's body would take
    // away the memberwise one that ``plain(_:_:_:multiplier:constant:priority:identifier:locations:)``
    // builds with.
    @inlinable
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
        self.extras = Extras.make(identifier: identifier, traits: traits)
        self.storedLocations = locations ?? .absent
    }

    /// A constraint as a line reader has it: no traits, the locations known.
    ///
    /// Why a call that builds with the memberwise initialiser: an
    /// initialiser that assigns the fields one by one (as the one above,
    /// inlined into the parser or not) builds the value in a temporary that
    /// the compiler then copies into the array and destroys, retaining and
    /// releasing its names and box again (about 170 instructions a
    /// constraint line); the memberwise initialiser builds the value in
    /// place, and the result of a call is moved, not copied.
    package static func plain(
        _ first: consuming ItemAttribute, _ relation: Relation, _ second: consuming ItemAttribute?, multiplier: Double,
        constant: Double, priority: Priority, identifier: consuming String?, locations: ConstraintLocations
    ) -> LayoutConstraint {
        LayoutConstraint(first: first, second: second, multiplier: multiplier, constant: constant, priority: priority,
                         extras: identifier.map { Extras(identifier: $0, traits: []) }, storedLocations: locations,
                         relation: relation)
    }
}
