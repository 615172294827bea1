/// A frame variable of a lowered system: component `component` of view number
/// `view`, where view 0 is the container (`super`) and views 1... follow the
/// declaration order. Ordered by (view, component), which is the canonical
/// order of terms and variables.
public struct FrameVariable: Hashable, Comparable, Sendable {
    public var view: Int
    public var component: FrameComponent

    public init(view: Int, component: FrameComponent) {
        self.view = view
        self.component = component
    }

    /// Dense index `view * 4 + component`: variables of a system are `0..<4 * viewCount`.
    public var index: Int { view * 4 + component.rawValue }

    public static func < (lhs: FrameVariable, rhs: FrameVariable) -> Bool { lhs.index < rhs.index }
}

/// `Σ coefficient × variable + constant`, terms sorted by variable, no zero
/// coefficients.
public struct LinearExpression: Hashable, Sendable {
    public struct Term: Hashable, Sendable {
        public var variable: FrameVariable
        public var coefficient: Double
    }

    public private(set) var terms: [Term]
    public var constant: Double

    public init(terms: [Term] = [], constant: Double = 0) {
        self.terms = []
        self.constant = constant
        for term in terms { add(term.coefficient, term.variable) }
    }

    /// Adds `coefficient × variable`, combining like terms.
    ///
    /// Why combine: `a.width = a.height * 2` must lower to one row with two
    /// terms, and `a.left = a.left + 0` to a row with none; the value of the
    /// expression (and so the error of a soft constraint) is unchanged.
    ///
    /// - Complexity: O(*t*) for *t* terms (expressions here have at most 4).
    public mutating func add(_ coefficient: Double, _ variable: FrameVariable) {
        guard coefficient != 0 else { return }
        if let i = terms.firstIndex(where: { $0.variable >= variable }) {
            if terms[i].variable == variable {
                terms[i].coefficient += coefficient
                if terms[i].coefficient == 0 { terms.remove(at: i) }
            } else {
                terms.insert(Term(variable: variable, coefficient: coefficient), at: i)
            }
        } else {
            terms.append(Term(variable: variable, coefficient: coefficient))
        }
    }

    /// Adds `scale × other`.
    public mutating func add(_ scale: Double, _ other: LinearExpression) {
        for term in other.terms { add(scale * term.coefficient, term.variable) }
        constant += scale * other.constant
    }

    /// The value under an assignment of the variables.
    public func value(_ assignment: (FrameVariable) -> Double) -> Double {
        terms.reduce(constant) { $0 + $1.coefficient * assignment($1.variable) }
    }
}

/// One linear relation `expression {=, <=, >=} 0` of a lowered system.
public struct LoweredConstraint: Hashable, Sendable {
    /// Where a row came from.
    public enum Origin: Hashable, Sendable {
        /// `layout.constraints[index]`.
        case constraint(index: Int)
        /// The container's frame: `super.x = 0`, `super.y = 0`, `super.width = W`,
        /// `super.height = H` (absent for `auto`). Solvers change these rows'
        /// constants to resize (edit variables, LP bounds).
        case container(FrameComponent)
    }

    public var expression: LinearExpression
    public var relation: Relation
    public var priority: Priority
    public var origin: Origin

    public init(expression: LinearExpression, relation: Relation, priority: Priority, origin: Origin) {
        self.expression = expression
        self.relation = relation
        self.priority = priority
        self.origin = origin
    }
}

/// A layout lowered for one variant: frame variables and linear relations,
/// the common input of every solver.
public struct LoweredSystem: Hashable, Sendable {
    /// The variant's name (`default` for the container line).
    public var variant: String
    public var size: ContainerSize
    /// View names by view number; index 0 is `super`.
    public var viewNames: [String]
    /// Container rows first (x, y, width, height), then the active constraints
    /// in declaration order.
    public var constraints: [LoweredConstraint]

    public var variableCount: Int { viewNames.count * 4 }

    /// All variables in canonical order.
    public var variables: [FrameVariable] {
        viewNames.indices.flatMap { view in FrameComponent.allCases.map { FrameVariable(view: view, component: $0) } }
    }

    /// `view.component`, e.g. `button.width`.
    public func name(of variable: FrameVariable) -> String {
        let view = viewNames.indices.contains(variable.view) ? viewNames[variable.view] : "#\(variable.view)"
        return "\(view).\(variable.component)"
    }
}

/// Why a layout could not be lowered.
public enum LoweringError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownVariant(String)
    /// The layout has validation errors; lower only valid layouts.
    case invalidLayout([Diagnostic])

    public var description: String {
        switch self {
        case .unknownVariant(let name): return "unknown variant '\(name)'"
        case .invalidLayout(let diagnostics):
            return "invalid layout: " + diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
        }
    }
}

extension Layout {
    /// The expression of an attribute over frame variables:
    /// left/leading = x, right/trailing = x + width, centerX = x + width/2,
    /// leftMargin = x + m.left, rightMargin = x + width - m.right,
    /// centerXWithinMargins = (leftMargin + rightMargin)/2; likewise vertically.
    public func expression(for attribute: Attribute, ofView view: Int, margins m: EdgeInsets) -> LinearExpression {
        func v(_ c: FrameComponent) -> FrameVariable { FrameVariable(view: view, component: c) }
        var e = LinearExpression()
        switch attribute {
        case .left, .leading: e.add(1, v(.x))
        case .right, .trailing: e.add(1, v(.x)); e.add(1, v(.width))
        case .top: e.add(1, v(.y))
        case .bottom: e.add(1, v(.y)); e.add(1, v(.height))
        case .width: e.add(1, v(.width))
        case .height: e.add(1, v(.height))
        case .centerX: e.add(1, v(.x)); e.add(0.5, v(.width))
        case .centerY: e.add(1, v(.y)); e.add(0.5, v(.height))
        case .leftMargin, .leadingMargin: e.add(1, v(.x)); e.constant = m.left
        case .rightMargin, .trailingMargin: e.add(1, v(.x)); e.add(1, v(.width)); e.constant = -m.right
        case .topMargin: e.add(1, v(.y)); e.constant = m.top
        case .bottomMargin: e.add(1, v(.y)); e.add(1, v(.height)); e.constant = -m.bottom
        case .centerXWithinMargins: e.add(1, v(.x)); e.add(0.5, v(.width)); e.constant = (m.left - m.right) / 2
        case .centerYWithinMargins: e.add(1, v(.y)); e.add(0.5, v(.height)); e.constant = (m.top - m.bottom) / 2
        }
        return e
    }

    /// Lowers the layout for a variant: every active constraint becomes
    /// `first - (multiplier × second + constant) {=,<=,>=} 0`, exactly as
    /// written. Why no normalisation (no scaling, no sign flip): the error of a
    /// soft constraint is measured on this form, so every solver must see it.
    ///
    /// - Parameter variant: a declared variant's name; nil or `default` is the container line.
    /// - Throws: ``LoweringError/unknownVariant(_:)``, or
    ///   ``LoweringError/invalidLayout(_:)`` if ``validate()`` finds errors.
    /// - Complexity: O(*v* + *c*) for *v* views and *c* constraints, plus validation.
    public func lowered(variant name: String? = nil) throws(LoweringError) -> LoweredSystem {
        let problems = validate().filter { $0.severity == .error }
        guard problems.isEmpty else { throw .invalidLayout(problems) }
        return try lowered(variant: name, skippingValidation: ())
    }

    /// ``lowered(variant:)`` without validating first, for a layout that has
    /// already passed ``validate()`` (solvers re-lower on every variant switch).
    /// Names that do not resolve are skipped, never trapped on.
    ///
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    public func lowered(variant name: String?, skippingValidation: Void) throws(LoweringError) -> LoweredSystem {
        guard let variant = variant(named: name) else { throw .unknownVariant(name ?? Layout.defaultVariantName) }

        let names = [Layout.containerName] + views.map(\.name)
        var index: [String: Int] = [:]
        for (i, n) in names.enumerated() { index[n] = i }
        var marginsByView: [EdgeInsets] = [containerMargins ?? .standard]
        marginsByView += views.map { $0.margins ?? .standard }

        var rows: [LoweredConstraint] = []
        func containerRow(_ component: FrameComponent, _ value: Double) {
            var e = LinearExpression(constant: -value)
            e.add(1, FrameVariable(view: 0, component: component))
            rows.append(LoweredConstraint(expression: e, relation: .equal, priority: .required, origin: .container(component)))
        }
        containerRow(.x, 0)
        containerRow(.y, 0)
        containerRow(.width, variant.size.width)
        if let height = variant.size.height { containerRow(.height, height) }

        for (i, constraint) in constraints.enumerated() where constraint.isActive(under: variant.traits) {
            // Validation guarantees every name is declared.
            guard let firstView = index[constraint.first.item] else { continue }
            var e = expression(for: constraint.first.attribute, ofView: firstView, margins: marginsByView[firstView])
            if let second = constraint.second, let secondView = index[second.item] {
                e.add(-constraint.multiplier, expression(for: second.attribute, ofView: secondView, margins: marginsByView[secondView]))
            }
            e.constant -= constraint.constant
            rows.append(LoweredConstraint(expression: e, relation: constraint.relation, priority: constraint.priority,
                                          origin: .constraint(index: i)))
        }
        return LoweredSystem(variant: variant.name, size: variant.size, viewNames: names, constraints: rows)
    }
}
