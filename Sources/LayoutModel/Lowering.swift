import MemoryHints

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
    /// The one place that spells the layout of frame variables (with ``init(index:)``).
    public var index: Int { view * 4 + component.rawValue }

    /// The variable of a dense ``index``; nil for a negative one.
    public init?(index: Int) {
        guard index >= 0, let component = FrameComponent(rawValue: index % 4) else { return nil }
        self.init(view: index / 4, component: component)
    }

    /// How many variables `views` views have.
    public static func count(views: Int) -> Int { views * 4 }

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

    /// Terms already sorted by variable, combined and without zeros (the
    /// lowering's fast path builds them so).
    init(normalizedTerms: [Term], constant: Double) {
        self.terms = normalizedTerms
        self.constant = constant
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
        /// A content-size constraint of view number `view` (1...): on `axis`,
        /// `size <= intrinsic @ hugging` or `size >= intrinsic @ compression`.
        case content(view: Int, axis: Axis, kind: ContentConstraintKind)

        /// Whether this is one of the container's rows.
        public var isContainer: Bool { if case .container = self { true } else { false } }
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
    /// in declaration order, then the content-size rows (view by view:
    /// horizontal hugging, horizontal compression, vertical hugging, vertical
    /// compression, for each axis with an intrinsic size).
    public var constraints: [LoweredConstraint]

    public var variableCount: Int { FrameVariable.count(views: viewNames.count) }

    /// The container's rows for a size: `super.x = 0`, `super.y = 0`,
    /// `super.width = W` and, unless the height is `auto`, `super.height = H`,
    /// in that order. The one place they are made: lowering starts every
    /// system with them and ``resized(to:)`` replaces them.
    public static func containerRows(for size: ContainerSize) -> [LoweredConstraint] {
        func row(_ component: FrameComponent, _ value: Double) -> LoweredConstraint {
            var e = LinearExpression(constant: -value)
            e.add(1, FrameVariable(view: 0, component: component))
            return LoweredConstraint(expression: e, relation: .equal, priority: .required, origin: .container(component))
        }
        var rows = [row(.x, 0), row(.y, 0), row(.width, size.width)]
        if let height = size.height { rows.append(row(.height, height)) }
        return rows
    }

    /// The same system with another container size: what lowering the same
    /// variant at `size` gives (the container rows replaced, the `super.height`
    /// row coming or going with `auto`, every other row kept in place).
    /// - Complexity: O(rows).
    public func resized(to size: ContainerSize) -> LoweredSystem {
        var copy = self
        copy.resize(to: size)
        return copy
    }

    /// ``resized(to:)`` in place.
    ///
    /// Why in place: a resize is one edit for an incremental solver, and
    /// copying every row (a retain per row's terms) cost more than the edit
    /// itself on large layouts. The container rows lead the system (lowering
    /// puts them first), so when their number stays they are overwritten and
    /// nothing else is touched.
    /// - Complexity: O(rows) reads of each row's origin; the rows are copied
    ///   only when the container rows change in number or are not all at the
    ///   front (or the storage is shared).
    public mutating func resize(to size: ContainerSize) {
        let rows = Self.containerRows(for: size)
        let leading = constraints.prefix { $0.origin.isContainer }.count
        let elsewhere = constraints.dropFirst(leading).contains { $0.origin.isContainer }
        self.size = size
        if leading == rows.count && !elsewhere {
            constraints.replaceSubrange(0..<leading, with: rows)
            return
        }
        var rebuilt = rows
        rebuilt.reserveCapacity(constraints.count + 1)
        for row in constraints {
            if case .container = row.origin { continue }
            rebuilt.append(row)
        }
        constraints = rebuilt
    }

    /// All variables in canonical order.
    public var variables: [FrameVariable] {
        viewNames.indices.flatMap { view in FrameComponent.allCases.map { FrameVariable(view: view, component: $0) } }
    }

    /// Whether this system can have been lowered from `layout`: one view per
    /// declared view plus `super`, every term's variable in range, every row's
    /// origin a constraint of `layout`. Solvers check it before they index by
    /// variable, so a mismatched pair is refused, not trapped on.
    ///
    /// - Complexity: O(size of the system).
    public func isWellFormed(for layout: Layout) -> Bool {
        guard viewNames.count == layout.views.count + 1 else { return false }
        let count = variableCount
        for row in constraints {
            switch row.origin {
            case .constraint(let index): if !layout.constraints.indices.contains(index) { return false }
            case .content(let view, _, _): if view < 1 || view >= viewNames.count { return false }
            case .container: break
            }
            for term in row.expression.terms where term.variable.index < 0 || term.variable.index >= count { return false }
        }
        return true
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
    /// centerXWithinMargins = (leftMargin + rightMargin)/2; likewise vertically;
    /// firstBaseline = y + first (y + height without baselines), lastBaseline =
    /// y + height - last. Right to left, leading = super.width - right,
    /// trailing = super.width - left, leadingMargin = super.width - rightMargin,
    /// trailingMargin = super.width - leftMargin.
    public func expression(for attribute: Attribute, ofView view: Int, margins m: EdgeInsets, baselines: Baselines? = nil,
                           rightToLeft: Bool = false) -> LinearExpression {
        var terms = SmallTerms()
        let constant = Self.attributeTerms(attribute, view: view, margins: m, baselines: baselines, rightToLeft: rightToLeft,
                                           scale: 1, into: &terms)
        return LinearExpression(normalizedTerms: terms.normalized(), constant: constant)
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
        try validated().lowered(variant: name)
    }

    /// The lowering itself, for a layout that has passed ``validate()``
    /// (``ValidatedLayout/lowered(variant:)`` is the way in). Names that do
    /// not resolve are skipped, never trapped on.
    ///
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    func lowerChecked(variant name: String?) throws(LoweringError) -> LoweredSystem {
        var rows: [LoweredConstraint] = []
        var header = try lowerChecked(variant: name, start: { system, plan in
            rows.reserveCapacity(plan.rows)
        }, visit: { row in
            rows.append(row)
            return true
        })
        header.constraints = rows
        return header
    }

    /// The lowering, a row at a time: `start` gets the system without rows
    /// (its variant, size and view names) and the number of constraint and
    /// container rows to come (content rows not counted), then `visit` each
    /// row in the order ``LoweredSystem/constraints`` lists them, until it
    /// returns false. Nothing keeps the rows: a consumer that copies them
    /// elsewhere (an incremental solver) never holds the whole lowered
    /// system beside its own copy.
    /// - Returns: the system without rows.
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    /// - Complexity: O(*v* + *c*), plus the visits.
    ///
    /// `structural`: the constraint rows in ``insertionOrder(index:)``
    /// (InsertionOrder.swift: the file's order when its constraints come
    /// view by view, else the structural order), for an incremental solver;
    /// otherwise in the file's order. Container rows come first and content
    /// rows last either way.
    func lowerChecked(variant name: String?, structural: Bool = false, start: (LoweredSystem, LoweringStart) -> Void,
                      visit: (LoweredConstraint) -> Bool) throws(LoweringError) -> LoweredSystem {
        guard let variant = variant(named: name) else { throw .unknownVariant(name ?? Layout.defaultVariantName) }

        // Why the container first: its frame is view 0. A name declared twice
        // resolves to its first view (validation refuses the second).
        let (names, index) = loweringNameIndex()
        // The order resolves every constraint's views; the loop below reads them.
        // (Its arrays taken out here: the loop's closure must not capture the
        // order itself, which it copied for every constraint.)
        let order = structural ? insertionOrder(index: index) : InsertionOrder(count: 0)
        let positions = order.indices ?? [], firstViews = order.firstViews, secondViews = order.secondViews
        let resolved = structural, ordered = order.indices != nil
        var marginsByView: [EdgeInsets] = [containerMargins ?? .standard]
        marginsByView += views.map { $0.margins ?? .standard }
        // Why optional: most layouts have no baselines, and then no array.
        let baselinesByView: [Baselines?]? = views.contains { $0.content.baselines != nil }
            ? [nil] + views.map { $0.content.baselines } : nil
        let rightToLeft = Layout.isRightToLeft(variant)

        let header = LoweredSystem(variant: variant.name, size: variant.size, viewNames: names, constraints: [])
        let containerRows = LoweredSystem.containerRows(for: variant.size)
        // The rows to come (at most: another variant's are skipped), for a consumer to reserve once.
        start(header, LoweringStart(rows: containerRows.count + constraints.count + contentRowCount, reordered: ordered))
        for row in containerRows {
            guard visit(row) else { return header }
        }
        // (Read only when the order did not resolve the views.)
        var memoised = MemoisedNames(index, lookups: resolved ? 0 : 2 * constraints.count)
        // Why through a pointer: iterating the array copied each constraint.
        let stopped = constraints.withUnsafeBufferPointer { constraints -> Bool in
            for k in constraints.indices {
                let i = ordered ? Int(positions[k]) : k
                if ordered, k + Self.loweringPrefetchDistance < positions.count, let base = constraints.baseAddress {
                    Self.prefetch(base + Int(positions[k + Self.loweringPrefetchDistance]))
                }
                let traits = constraints[i].traits
                guard traits.isEmpty || constraints[i].isActive(under: variant.traits) else { continue }
                // Validation guarantees every name is declared.
                guard let firstView = resolved ? Int(firstViews[i]) : memoised.view(constraints[i].first.item), firstView >= 0 else { continue }
                // Why not `expression(for:)` and `add`: that made three arrays per
                // constraint; the terms of two attributes (at most four) are gathered
                // on the stack, then sorted and combined once, in the same order: the
                // first attribute's coefficient, plus `-multiplier ×` the second's.
                var terms = SmallTerms()
                var constant = Self.attributeTerms(constraints[i].first.attribute, view: firstView, margins: marginsByView[firstView],
                                                   baselines: baselinesByView?[firstView], rightToLeft: rightToLeft,
                                                   scale: 1, into: &terms)
                if let second = constraints[i].second, let secondView = resolved ? Int(secondViews[i]) : memoised.view(second.item),
                   secondView >= 0 {
                    let m = -constraints[i].multiplier
                    let secondConstant = Self.attributeTerms(second.attribute, view: secondView, margins: marginsByView[secondView],
                                                             baselines: baselinesByView?[secondView], rightToLeft: rightToLeft,
                                                             scale: m, into: &terms)
                    constant += m * secondConstant
                }
                constant -= constraints[i].constant
                let e = LinearExpression(normalizedTerms: terms.normalized(), constant: constant)
                guard visit(LoweredConstraint(expression: e, relation: constraints[i].relation, priority: constraints[i].priority,
                                              origin: .constraint(index: i))) else { return true }
            }
            return false
        }
        if stopped { return header }
        // Why after the constraints: content sizes are the layout's
        // defaults, and the rows written by hand keep their numbers.
        visitContentRows(visit)
        return header
    }

    /// Visits the content-size rows (``contentRowCount`` counts them), until
    /// `visit` returns false: for each axis with an intrinsic size S,
    /// `size - S <= 0 @ hugging` and `size - S >= 0 @ compression`, as
    /// UIKit's content-size constraints.
    /// - Complexity: O(*v*), plus the visits.
    private func visitContentRows(_ visit: (LoweredConstraint) -> Bool) {
        for (i, view) in views.enumerated() {
            guard let intrinsic = view.content.intrinsicSize else { continue }
            for axis in [Axis.horizontal, .vertical] {
                guard let size = intrinsic[axis] else { continue }
                let variable = FrameVariable(view: i + 1, component: axis == .horizontal ? .width : .height)
                for kind in ContentConstraintKind.allCases {
                    let e = LinearExpression(normalizedTerms: [LinearExpression.Term(variable: variable, coefficient: 1)], constant: -size)
                    guard visit(LoweredConstraint(expression: e, relation: kind.relation, priority: view.content.priority(kind, axis),
                                                  origin: .content(view: i + 1, axis: axis, kind: kind))) else { return }
                }
            }
        }
    }

    /// The content rows ``lowerChecked(variant:start:visit:)`` makes: one
    /// per kind (hugging, compression) for each axis with an intrinsic size.
    /// - Complexity: O(*v*).
    var contentRowCount: Int {
        // (Not a loop over an array of the two axes: that array was an
        // allocation per view.)
        let kinds = ContentConstraintKind.allCases.count
        var count = 0
        for view in views {
            guard let intrinsic = view.content.intrinsicSize else { continue }
            if intrinsic[.horizontal] != nil { count += kinds }
            if intrinsic[.vertical] != nil { count += kinds }
        }
        return count
    }
}

/// Up to six terms gathered on the stack while lowering one constraint (two
/// attributes of at most three terms: a mirrored leading edge is
/// `super.width - x - width`).
struct SmallTerms {
    private var items: (LinearExpression.Term, LinearExpression.Term, LinearExpression.Term, LinearExpression.Term,
                        LinearExpression.Term, LinearExpression.Term)
    private(set) var count = 0
    private static let zero = LinearExpression.Term(variable: FrameVariable(view: 0, component: .x), coefficient: 0)

    init() { items = (Self.zero, Self.zero, Self.zero, Self.zero, Self.zero, Self.zero) }

    mutating func append(_ term: LinearExpression.Term) {
        switch count {
        case 0: items.0 = term
        case 1: items.1 = term
        case 2: items.2 = term
        case 3: items.3 = term
        case 4: items.4 = term
        case 5: items.5 = term
        default: return  // two attributes have at most six terms
        }
        count += 1
    }

    func term(_ i: Int) -> LinearExpression.Term {
        switch i {
        case 0: return items.0
        case 1: return items.1
        case 2: return items.2
        case 3: return items.3
        case 4: return items.4
        default: return items.5
        }
    }

    /// Sorted by variable, like variables combined in order of appearance,
    /// zero coefficients dropped: what ``LinearExpression/add(_:_:)-(Double,FrameVariable)``
    /// produces when given the same terms in the same order.
    func normalized() -> [LinearExpression.Term] {
        var out: [LinearExpression.Term] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let t = term(i)
            // A zero coefficient is never inserted (`add` skips it).
            guard t.coefficient != 0 else { continue }
            if let j = out.firstIndex(where: { $0.variable >= t.variable }) {
                if out[j].variable == t.variable {
                    out[j].coefficient += t.coefficient
                    if out[j].coefficient == 0 { out.remove(at: j) }
                } else {
                    out.insert(t, at: j)
                }
            } else {
                out.append(t)
            }
        }
        return out
    }
}

extension Layout {
    /// The terms of an attribute of view `view`, each multiplied by `scale`,
    /// appended to `terms`; returns the attribute's constant (unscaled), as
    /// ``expression(for:ofView:margins:baselines:rightToLeft:)`` defines them.
    static func attributeTerms(_ attribute: Attribute, view: Int, margins m: EdgeInsets, baselines: Baselines?,
                               rightToLeft: Bool, scale: Double, into terms: inout SmallTerms) -> Double {
        func add(_ c: Double, _ component: FrameComponent) {
            terms.append(LinearExpression.Term(variable: FrameVariable(view: view, component: component), coefficient: scale * c))
        }
        if rightToLeft {
            // Why the container's width variable, not the number: a resize
            // changes it, and the mirrored rows must follow without re-lowering.
            let containerWidth = LinearExpression.Term(variable: FrameVariable(view: 0, component: .width), coefficient: scale)
            switch attribute {
            case .leading: terms.append(containerWidth); add(-1, .x); add(-1, .width); return 0
            case .trailing: terms.append(containerWidth); add(-1, .x); return 0
            case .leadingMargin: terms.append(containerWidth); add(-1, .x); add(-1, .width); return m.right
            case .trailingMargin: terms.append(containerWidth); add(-1, .x); return -m.left
            default: break
            }
        }
        switch attribute {
        case .left, .leading: add(1, .x); return 0
        case .right, .trailing: add(1, .x); add(1, .width); return 0
        case .top: add(1, .y); return 0
        case .bottom: add(1, .y); add(1, .height); return 0
        case .width: add(1, .width); return 0
        case .height: add(1, .height); return 0
        case .centerX: add(1, .x); add(0.5, .width); return 0
        case .centerY: add(1, .y); add(0.5, .height); return 0
        case .leftMargin, .leadingMargin: add(1, .x); return m.left
        case .rightMargin, .trailingMargin: add(1, .x); add(1, .width); return -m.right
        case .topMargin: add(1, .y); return m.top
        case .bottomMargin: add(1, .y); add(1, .height); return -m.bottom
        case .centerXWithinMargins: add(1, .x); add(0.5, .width); return (m.left - m.right) / 2
        case .centerYWithinMargins: add(1, .y); add(0.5, .height); return (m.top - m.bottom) / 2
        case .firstBaseline:
            // Without a `baselines` line both baselines are at the bottom.
            guard let baselines else { add(1, .y); add(1, .height); return 0 }
            add(1, .y); return baselines.first
        case .lastBaseline: add(1, .y); add(1, .height); return -(baselines?.last ?? 0)
        }
    }
}

extension Layout {
    /// How explanations, printed systems and reports name the row an origin
    /// made, and its text: a constraint's ``LayoutConstraint/displayName``;
    /// `container width` (`super.width = 375`); `hugging label (width)`
    /// (`label.width <= 120 @ 250`). The one place that names origins.
    ///
    /// - Parameter size: the container size of the variant the row belongs to.
    public func describe(_ origin: LoweredConstraint.Origin, size: ContainerSize) -> (name: String, text: String) {
        switch origin {
        case .constraint(let index):
            guard constraints.indices.contains(index) else { return ("constraint #\(index)", "constraint #\(index)") }
            let constraint = constraints[index]
            return (constraint.displayName, constraint.description)
        case .container(let component):
            let text: String
            switch component {
            case .x: text = "super.x = 0"
            case .y: text = "super.y = 0"
            case .width: text = "super.width = \(formatNumber(size.width))"
            case .height: text = "super.height = \(size.height.map(formatNumber) ?? "auto")"
            }
            return ("container \(component)", text)
        case .content(let view, let axis, let kind):
            guard views.indices.contains(view - 1) else { return ("\(kind.rawValue) #\(view)", "\(kind.rawValue) #\(view)") }
            let declaration = views[view - 1]
            let dimension = axis == .horizontal ? "width" : "height"
            let size = declaration.content.intrinsicSize?[axis] ?? 0
            let priority = declaration.content.priority(kind, axis)
            let text = "\(declaration.name).\(dimension) \(kind.relation.symbol) \(formatNumber(size))"
                + (priority.isRequired ? "" : " @ \(priority)")
            return ("\(kind.rawValue) \(declaration.name) (\(dimension))", text)
        }
    }

    /// Where the line that made a row was written, if known.
    public func location(of origin: LoweredConstraint.Origin) -> SourceLocation? {
        switch origin {
        case .constraint(let index): return constraints.indices.contains(index) ? constraints[index].location : nil
        case .container: return containerLocation
        case .content(let view, _, let kind):
            guard views.indices.contains(view - 1) else { return nil }
            return views[view - 1].content.location(of: kind) ?? views[view - 1].location
        }
    }
}

extension Layout {
    /// How many constraints ahead of the lowering, in structural order,
    /// their memory is asked for.
    static let loweringPrefetchDistance = 16

    /// Asks for the cache lines of `constraint` (a hint; no value depends on it).
    ///
    /// Why: in structural order the lowering reads the constraints all over
    /// their array (a shuffled file's order), a miss of the caches each at
    /// 10^4 views and more; the positions to come are known, so the misses of
    /// the next ones can overlap the work on this one.
    @inline(__always)
    static func prefetch(_ constraint: UnsafePointer<LayoutConstraint>) {
        let raw = UnsafeRawPointer(constraint)
        memory_hints_prefetch(raw)
        memory_hints_prefetch(raw + 64)
        memory_hints_prefetch(raw + MemoryLayout<LayoutConstraint>.size - 1)
    }
}
