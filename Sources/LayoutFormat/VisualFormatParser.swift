// Visual-format lines (`H:`/`V:`) of a `.layout` file: parsing the line
// (views and connections, options, predicates) and expanding it into
// ordinary constraints.

import LayoutModel

/// A view of a visual-format line, with its size predicates and its
/// connection to what came before it.
private typealias VisualFormatView = (name: String, location: SourceLocation, predicates: [VisualFormat.Predicate],
                                      before: VisualFormat.Connection)

/// The items of a visual-format line between `H:`/`V:` and its options.
private struct VisualFormatSequence {
    /// The leading `|`, if written.
    var leadingSuper: SourceLocation?
    var views: [VisualFormatView]
    /// What follows the last view (what stands before a trailing `|`).
    var trailing: VisualFormat.Connection
    /// The trailing `|`, if written.
    var trailingSuper: SourceLocation?
}

/// The `options` of a visual-format line.
private struct VisualFormatOptions {
    var alignments: [(Attribute, SourceLocation)] = []
    /// `directionRightToLeft`: connections are written mirrored.
    var reversed = false
}

extension FileParser {
    /// `H:` or `V:` then `[|] [connection] [view] (connection [view])* [connection |] [options NAME...] [# identifier]`.
    mutating func parseVisualFormat(_ c: inout LineCursor, traits: [String]) throws(LineError) {
        let orientation = c.take()
        var axis = names[orientation] == "H" ? VisualFormat.Axis.horizontal : .vertical
        _ = c.take()  // ':'
        let start = c.location(of: orientation)

        let sequence = try parseViewSequence(&c)
        let options = try parseOptions(&c, orientation: orientation, axis: &axis)
        var identifier: String?
        if c.peek().kind == .hash {
            let text = c.comment(of: c.take())
            identifier = text.isEmpty ? nil : text
        }
        try c.expectEndOfLine(comment: false)

        // Expansion, in the order the line is written.
        var expansion = VisualFormatExpansion(axis: axis, reversed: options.reversed, identifier: identifier, traits: traits)
        try expansion.expand(sequence, alignments: options.alignments)
        _ = start
        constraints.append(contentsOf: expansion.made)
    }

    /// `[|] [connection] [view] (connection [view])* [connection |]`: the
    /// views, each with the connection before it, and the container's edges.
    private mutating func parseViewSequence(_ c: inout LineCursor) throws(LineError) -> VisualFormatSequence {
        var leadingSuper: SourceLocation?
        if c.peek().kind == .pipe { leadingSuper = c.location(of: c.take()) }

        // Items: views with their connection to what came before.
        var views: [VisualFormatView] = []
        var connection = try parseConnection(&c)
        guard c.peek().kind == .leftBracket else {
            throw c.unexpected("'[view]'")
        }
        while c.peek().kind == .leftBracket {
            _ = c.take()
            let name = try c.expectName("a view name")
            guard names[name] != Layout.containerName else {
                throw LineError(.unexpectedToken(expected: "a view (the container is '|')", found: "'super'"), at: c.location(of: name))
            }
            var predicates: [VisualFormat.Predicate] = []
            if c.peek().kind == .leftParen {
                predicates = try parsePredicateList(&c, allowViews: true)
            }
            try c.expect(.rightBracket, "']' after the view")
            views.append((names[name], c.location(of: name), predicates, connection))
            connection = try parseConnection(&c)
        }
        var trailingSuper: SourceLocation?
        if c.peek().kind == .pipe {
            trailingSuper = c.location(of: c.take())
        } else if case .none = connection {
        } else {
            throw c.unexpected("'[view]' or '|' after a connection")
        }
        return VisualFormatSequence(leadingSuper: leadingSuper, views: views, trailing: connection, trailingSuper: trailingSuper)
    }

    /// `[options NAME...]`: alignments of the line's axis and, on `H:` lines,
    /// one direction, which replaces `axis`.
    private func parseOptions(_ c: inout LineCursor, orientation: Token,
                              axis: inout VisualFormat.Axis) throws(LineError) -> VisualFormatOptions {
        var alignments: [(Attribute, SourceLocation)] = []
        var reversed = false
        if names.isName(c.peek(), "options") {
            _ = c.take()
            var direction: Token?
            while c.peek().kind == .name {
                let option = c.take()
                if let directed = VisualFormat.directions[names[option]] {
                    guard names[orientation] == "H" else {
                        throw LineError(.unexpectedToken(expected: "an alignment option of V: lines (direction options "
                                                         + "apply to H: lines)", found: c.quoted(option)), at: c.location(of: option))
                    }
                    if let direction {
                        throw LineError(.unexpectedToken(expected: "one direction option (\(c.quoted(direction)) is given)",
                                                         found: c.quoted(option)), at: c.location(of: option))
                    }
                    direction = option
                    axis = directed
                    reversed = names[option] == "directionRightToLeft"
                    continue
                }
                guard let attribute = axis.alignments[names[option]] else {
                    throw LineError(.unexpectedToken(expected: "an alignment option of \(names[orientation]): lines ("
                                                     + VisualFormat.optionNames(axis) + ")"
                                                     + (names[orientation] == "H" ? " or a direction ("
                                                        + VisualFormat.directions.keys.sorted().joined(separator: ", ") + ")" : ""),
                                                     found: c.quoted(option)),
                                    at: c.location(of: option))
                }
                alignments.append((attribute, c.location(of: option)))
            }
            if alignments.isEmpty && direction == nil { throw c.unexpected("an alignment option") }
        }
        return VisualFormatOptions(alignments: alignments, reversed: reversed)
    }

    /// Nothing, `-`, `-NUMBER-`, `-METRIC-`, or `-(predicates)-`.
    mutating func parseConnection(_ c: inout LineCursor) throws(LineError) -> VisualFormat.Connection {
        guard c.peek().kind == .minus else { return .none }
        let dash = c.take()
        switch c.peek().kind {
        case .leftBracket, .pipe:
            return .standard(c.location(of: dash))
        case .leftParen:
            let list = try parsePredicateList(&c, allowViews: false)
            try c.expect(.minus, "'-' after the spacing")
            return .predicates(list)
        case .number, .name:
            let value = try parseNumber(&c, what: "a spacing")
            try c.expect(.minus, "'-' after the spacing")
            return .predicates([VisualFormat.Predicate(relation: .equal, object: .constant(value.value), priority: .required,
                                                       location: value.location)])
        default:
            throw c.unexpected("a spacing, '[view]' or '|' after '-'")
        }
    }

    /// `( predicate (, predicate)* )`.
    mutating func parsePredicateList(_ c: inout LineCursor, allowViews: Bool) throws(LineError) -> [VisualFormat.Predicate] {
        try c.expect(.leftParen, "'('")
        var list: [VisualFormat.Predicate] = []
        repeat {
            if c.peek().kind == .comma { _ = c.take() }
            let start = c.location(of: c.peek())
            var relation = Relation.equal
            switch c.peek().kind {
            case .equal, .equalEqual: _ = c.take()
            case .lessEqual: _ = c.take(); relation = .lessThanOrEqual
            case .greaterEqual: _ = c.take(); relation = .greaterThanOrEqual
            default: break
            }
            let object: VisualFormat.Predicate.Object
            let token = c.peek()
            if allowViews, token.kind == .name, !isMetric(names[token]) {
                _ = c.take()
                object = .view(names[token], c.location(of: token))
            } else {
                object = .constant(try parseNumber(&c, what: allowViews ? "a size, metric or view" : "a spacing or metric").value)
            }
            var priority = Priority.required
            var priorityLocation: SourceLocation?
            if c.peek().kind == .at {
                _ = c.take()
                let p = c.peek()
                if p.kind == .name, !isMetric(names[p]), let named = Priority.named.first(where: { $0.name == names[p] }) {
                    _ = c.take()
                    priority = named.priority
                    priorityLocation = c.location(of: p)
                } else {
                    let value = try parseNumber(&c, what: "a priority")
                    priority = Priority(value.value)
                    priorityLocation = value.location
                }
            }
            list.append(VisualFormat.Predicate(relation: relation, object: object, priority: priority, location: start,
                                               priorityLocation: priorityLocation))
        } while c.peek().kind == .comma
        try c.expect(.rightParen, "',' or ')'")
        return list
    }
}

// MARK: Expansion

/// The constraints one visual-format line expands to, in the order the line
/// is written (see the table in ``VisualFormat``).
private struct VisualFormatExpansion {
    let axis: VisualFormat.Axis
    let reversed: Bool
    let identifier: String?
    let traits: [String]
    var made: [LayoutConstraint] = []

    /// Every constraint of the line: per view, its connection to what came
    /// before and its size predicates; then the trailing edge; then the alignments.
    mutating func expand(_ sequence: VisualFormatSequence, alignments: [(Attribute, SourceLocation)]) throws(LineError) {
        let views = sequence.views
        for (i, view) in views.enumerated() {
            let me = ItemAttribute(view.name, axis.leading, location: view.location)
            if i == 0 {
                if let pipe = sequence.leadingSuper {
                    try addLeadingEdge(me, view.before, pipe: pipe)
                }
            } else {
                try addSpacing(me, view, after: views[i - 1])
            }
            addSizes(of: view)
        }
        if let pipe = sequence.trailingSuper, let last = views.last {
            try addTrailingEdge(last, sequence.trailing, pipe: pipe)
        }
        addAlignments(alignments, of: views)
    }

    /// Adds one constraint; on a right-to-left line a position is mirrored.
    mutating func add(_ first: ItemAttribute, _ relation: Relation, _ second: ItemAttribute?, _ constant: Double,
                      _ priority: Priority, _ location: SourceLocation, priorityLocation: SourceLocation? = nil) {
        var relation = relation, constant = constant
        if reversed && first.attribute != axis.size && second != nil {
            // Right to left, a position measured along the line is the
            // negated x: `-b.right REL -a.left + c` is `b.right REL' a.left - c`.
            relation = relation.mirrored
            constant = -constant
        }
        made.append(LayoutConstraint(first, relation, second, multiplier: 1, constant: constant, priority: priority,
                                     identifier: identifier, traits: traits,
                                     locations: ConstraintLocations(start: location, constant: location, priority: priorityLocation)))
    }

    /// `|[a]`, `|-[a]`, `|-P-[a]`: the first view's leading edge to the container's.
    /// - Throws: a view in the connection's predicates.
    mutating func addLeadingEdge(_ me: ItemAttribute, _ before: VisualFormat.Connection, pipe: SourceLocation) throws(LineError) {
        let superName = Layout.containerName
        switch before {
        case .none: add(me, .equal, ItemAttribute(superName, axis.leading, location: pipe), 0, .required, pipe)
        case .standard(let at): add(me, .equal, ItemAttribute(superName, axis.leadingMargin, location: pipe), 0, .required, at)
        case .predicates(let list):
            for p in list {
                guard case .constant(let value) = p.object else { throw viewInConnection(p) }
                add(me, p.relation, ItemAttribute(superName, axis.leading, location: pipe), value, p.priority, p.location,
                    priorityLocation: p.priorityLocation)
            }
        }
    }

    /// `[a][b]`, `[a]-[b]`, `[a]-P-[b]`: a view's leading edge to the previous view's trailing edge.
    /// - Throws: a view in the connection's predicates.
    mutating func addSpacing(_ me: ItemAttribute, _ view: VisualFormatView, after before: VisualFormatView) throws(LineError) {
        let previous = ItemAttribute(before.name, axis.trailing, location: before.location)
        switch view.before {
        case .none: add(me, .equal, previous, 0, .required, view.location)
        case .standard(let at): add(me, .equal, previous, VisualFormat.standardSpacing, .required, at)
        case .predicates(let list):
            for p in list {
                guard case .constant(let value) = p.object else { throw viewInConnection(p) }
                add(me, p.relation, previous, value, p.priority, p.location, priorityLocation: p.priorityLocation)
            }
        }
    }

    /// `[a(P)]`: the view's size against a constant or another view's size.
    mutating func addSizes(of view: VisualFormatView) {
        for p in view.predicates {
            let size = ItemAttribute(view.name, axis.size, location: view.location)
            switch p.object {
            case .constant(let value): add(size, p.relation, nil, value, p.priority, p.location, priorityLocation: p.priorityLocation)
            case .view(let other, let at):
                add(size, p.relation, ItemAttribute(other, axis.size, location: at), 0, p.priority, p.location,
                    priorityLocation: p.priorityLocation)
            }
        }
    }

    /// `[b]|`, `[b]-|`, `[b]-P-|`: the container's trailing edge to the last view's.
    /// - Throws: a view in the connection's predicates.
    mutating func addTrailingEdge(_ last: VisualFormatView, _ connection: VisualFormat.Connection,
                                  pipe: SourceLocation) throws(LineError) {
        let superName = Layout.containerName
        let theirs = ItemAttribute(last.name, axis.trailing, location: last.location)
        switch connection {
        case .none: add(ItemAttribute(superName, axis.trailing, location: pipe), .equal, theirs, 0, .required, pipe)
        case .standard(let at): add(ItemAttribute(superName, axis.trailingMargin, location: pipe), .equal, theirs, 0, .required, at)
        case .predicates(let list):
            for p in list {
                guard case .constant(let value) = p.object else { throw viewInConnection(p) }
                add(ItemAttribute(superName, axis.trailing, location: pipe), p.relation, theirs, value, p.priority, p.location,
                    priorityLocation: p.priorityLocation)
            }
        }
    }

    /// `options alignAll...`: each view after the first aligned with the first.
    mutating func addAlignments(_ alignments: [(Attribute, SourceLocation)], of views: [VisualFormatView]) {
        if let first = views.first {
            for view in views.dropFirst() {
                for (attribute, at) in alignments {
                    add(ItemAttribute(view.name, attribute, location: view.location), .equal,
                        ItemAttribute(first.name, attribute, location: first.location), 0, .required, at)
                }
            }
        }
    }

    /// The error for a view in a connection's predicates (a spacing is a number or metric).
    func viewInConnection(_ p: VisualFormat.Predicate) -> LineError {
        LineError(.unexpectedToken(expected: "a number or metric in a connection", found: "a view"), at: p.location)
    }
}
