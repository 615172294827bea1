// Constraint lines of a `.layout` file: `view.attribute REL ...` and
// `when TRAITS: ...`, and the `NAME.ATTRIBUTE` items they relate.

import LayoutModel

extension FileParser {
    /// `when T1, T2: CONSTRAINT`.
    mutating func parseWhen(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        var traits: [String] = [names[try c.expectName("a trait name")]]
        while c.peek().kind == .comma {
            _ = c.take()
            traits.append(names[try c.expectName("a trait name")])
        }
        try c.expect(.colon, "',' or ':' after the traits")
        if c.peek().kind == .name, names[c.peek()] == "H" || names[c.peek()] == "V", c.peek(1).kind == .colon {
            try parseVisualFormat(&c, traits: traits)
            return
        }
        guard c.peek().kind == .name, c.peek(1).kind == .dot else { throw c.unexpected("a constraint 'view.attribute ...'") }
        try parseConstraint(&c, traits: traits, start: c.location(of: keyword))
    }

    /// `ITEM.ATTR REL ITEM.ATTR [(*|/) NUM] [(+|-) NUM] [@ PRIORITY] [# identifier]`
    /// or `ITEM.ATTR REL NUM [@ PRIORITY] [# identifier]`.
    mutating func parseConstraint(_ c: inout LineCursor, traits: [String], start: SourceLocation) throws(LineError) {
        let first = try parseItem(&c)
        let relationToken = c.peek()
        let relation: Relation
        switch relationToken.kind {
        case .equal, .equalEqual: relation = .equal
        case .lessEqual: relation = .lessThanOrEqual
        case .greaterEqual: relation = .greaterThanOrEqual
        default: throw c.unexpected("a relation '=', '==', '<=' or '>='")
        }
        _ = c.take()
        var locations = ConstraintLocations(start: start, relation: c.location(of: relationToken))

        var second: ItemAttribute?
        var multiplier = 1.0
        var constant = 0.0
        if c.peek().kind == .name, c.peek(1).kind == .dot {
            second = try parseItem(&c)
            switch c.peek().kind {
            case .star, .slash:
                let op = c.take()
                let value = try parseNumber(&c, what: "a multiplier")
                locations.multiplier = value.location
                if op.kind == .slash {
                    if value.value == 0 { throw LineError(.divisionByZero, at: value.location) }
                    multiplier = 1 / value.value
                } else {
                    multiplier = value.value
                }
            default: break
            }
            switch c.peek().kind {
            case .plus, .minus:
                let op = c.take()
                let value = try parseNumber(&c, what: "a constant")
                locations.constant = value.location
                constant = op.kind == .minus ? -value.value : value.value
            default: break
            }
        } else {
            let value = try parseNumber(&c, what: "'view.attribute' or a number")
            locations.constant = value.location
            constant = value.value
            if c.peek().kind == .star, c.peek(1).kind == .name {
                throw LineError(.misplacedMultiplier, at: value.location)
            }
        }

        var priority = Priority.required
        if c.peek().kind == .at {
            _ = c.take()
            let token = c.peek()
            if token.kind == .name, metricValues[names[token]] == nil,
               let named = Priority.named.first(where: { $0.name == names[token] }) {
                _ = c.take()
                priority = named.priority
                locations.priority = c.location(of: token)
            } else {
                let value = try parseNumber(&c, what: "a priority (1...1000, required, high, low or fitting)")
                priority = Priority(value.value)
                locations.priority = value.location
            }
        }

        var identifier: String?
        if c.peek().kind == .hash {
            let text = c.comment(of: c.take())
            identifier = text.isEmpty ? nil : text
        }
        try c.expectEndOfLine(comment: false)

        constraints.append(LayoutConstraint(first, relation, second, multiplier: multiplier, constant: constant,
                                            priority: priority, identifier: identifier, traits: traits,
                                            locations: locations))
    }

    /// `NAME.ATTRIBUTE`.
    mutating func parseItem(_ c: inout LineCursor) throws(LineError) -> ItemAttribute {
        let item = try c.expectName("a view name")
        try c.expect(.dot, "'.' after the view name")
        let attributeToken = c.peek()
        guard attributeToken.kind == .name else { throw c.unexpected("an attribute") }
        _ = c.take()
        guard let attribute = names.attribute(attributeToken.nameID) else {
            let known = Attribute.allCases.map(\.rawValue)
            throw LineError(.unknownAttribute(names[attributeToken], suggestion: suggest(names[attributeToken], among: known)),
                            at: c.location(of: attributeToken))
        }
        return ItemAttribute(names[item], attribute, location: c.location(of: item))
    }
}
