import LayoutModel

/// The error of one priority level: the sum over its constraints of `|e|`
/// (equalities) or `max(0, violation)` (inequalities), `e` the lowered row's value.
public struct LevelError: Hashable, Sendable {
    public var priority: Priority
    public var error: Double

    public init(priority: Priority, error: Double) {
        self.priority = priority
        self.error = error
    }
}

/// One required constraint of a conflict, named for a person.
public struct ConflictMember: Hashable, Sendable, CustomStringConvertible {
    /// Where it came from: a layout constraint or a container row.
    public var origin: LoweredConstraint.Origin
    /// Its identifier, else `file:line`, else its text; `container width` for container rows.
    public var name: String
    /// The constraint as text.
    public var text: String

    public init(origin: LoweredConstraint.Origin, name: String, text: String) {
        self.origin = origin
        self.name = name
        self.text = text
    }

    /// Names a lowered row of `layout`.
    public init(origin: LoweredConstraint.Origin, in layout: Layout, size: ContainerSize) {
        self.origin = origin
        (name, text) = layout.describe(origin, size: size)
    }

    public var description: String { name == text ? name : "\(name): \(text)" }
}

/// What a solver found for one variant.
public struct Solution: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable {
        case solved
        /// The required constraints (with the container size) cannot all hold.
        case unsatisfiable
    }

    public var variant: String
    public var status: Status
    /// View names, `super` first, then declaration order.
    public var viewNames: [String]
    /// Frames aligned with `viewNames`. For an unsatisfiable variant, the
    /// solver's best effort with the conflicting constraint left out.
    public var frames: [Frame]
    /// Every priority level below required, highest first, with its error.
    public var levels: [LevelError]
    /// The views whose frames are not unique; nil when the solver cannot tell.
    public var ambiguous: [String]?
    /// The frame variables (index `4 × view + component`) that are not
    /// unique, when the solver says per variable (nil otherwise). Finer than
    /// ``ambiguous``: a view with a free `y` still has a determined width.
    public var freeVariables: [Int]? = nil
    /// A minimal set of required constraints that cannot hold together.
    public var conflict: [ConflictMember]

    public init(variant: String, status: Status, viewNames: [String], frames: [Frame], levels: [LevelError],
                ambiguous: [String]?, conflict: [ConflictMember]) {
        self.variant = variant
        self.status = status
        self.viewNames = viewNames
        self.frames = frames
        self.levels = levels
        self.ambiguous = ambiguous
        self.conflict = conflict
    }

    /// The frame of a view, or nil.
    public func frame(of view: String) -> Frame? {
        viewNames.firstIndex(of: view).map { frames[$0] }
    }
}

extension LoweredSystem {
    /// Per-level errors of an assignment, computed from the rows themselves so
    /// that every solver is measured the same way.
    ///
    /// - Parameter value: the value of each variable, by ``FrameVariable/index``.
    /// - Complexity: O(rows).
    public func levelErrors(_ value: [Double]) -> [LevelError] {
        var sums = LevelErrorSums()
        for row in constraints where !row.priority.isRequired {
            var e = row.expression.constant
            for term in row.expression.terms { e += term.coefficient * value[term.variable.index] }
            sums.add(row.relation.violation(e), priority: row.priority.rawValue)
        }
        return sums.levels
    }

    /// The largest violation of a required row under an assignment.
    public func maximumRequiredViolation(_ value: [Double]) -> Double {
        var worst = 0.0
        for row in constraints where row.priority.isRequired {
            worst = Swift.max(worst, row.relation.violation(row.expression.value { value[$0.index] }))
        }
        return worst
    }

    /// Frames from variable values (by ``FrameVariable/index``); a value
    /// missing from a short array is NaN, never a trap.
    public func frames(_ value: [Double]) -> [Frame] {
        viewNames.indices.map { view in
            func component(_ c: FrameComponent) -> Double {
                let i = FrameVariable(view: view, component: c).index
                return value.indices.contains(i) ? value[i] : .nan
            }
            return Frame(x: component(.x), y: component(.y), width: component(.width), height: component(.height))
        }
    }
}
