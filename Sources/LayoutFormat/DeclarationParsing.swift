// The declaration lines of a `.layout` file: `metric`, `container`, `variant`,
// `views` and `margins`, with the sizes and trait lists that containers and
// variants share.

import LayoutModel

extension FileParser {
    mutating func parseMetric(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let name = try c.expectName("a metric name")
        try c.expect(.equal, "'='")
        let value = try parseNumber(&c, what: "the metric's value", allowMetrics: false)
        try c.expectEndOfLine(comment: true)
        _ = keyword
        metrics.append(Metric(name: names[name], value: value.value, location: c.location(of: name)))
        if metricValues[names[name]] == nil { metricValues[names[name]] = value.value }
    }

    mutating func parseContainer(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let size = try parseSize(&c)
        let traits = try parseTraits(&c)
        try c.expectEndOfLine(comment: true)
        let location = c.location(of: keyword)
        if container != nil {
            throw LineError(.duplicateContainer, at: location)
        }
        container = (size, traits, location)
    }

    mutating func parseVariant(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        let name = try c.expectName("a variant name")
        let size = try parseSize(&c)
        let traits = try parseTraits(&c)
        try c.expectEndOfLine(comment: true)
        variants.append(Variant(name: names[name], size: size, traits: traits, location: c.location(of: name)))
    }

    mutating func parseViews(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        var declared: [ViewDeclaration] = []
        while c.peek().kind == .name {
            let name = c.take()
            declared.append(ViewDeclaration(name: names[name], location: c.location(of: name)))
        }
        if declared.isEmpty { throw c.unexpected("a view name") }
        try c.expectEndOfLine(comment: true)
        views += declared
    }

    mutating func parseMargins(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        let view = try c.expectName("a view name")
        var values: [Double] = []
        for what in ["the top margin", "the left margin", "the bottom margin", "the right margin"] {
            values.append(try parseNumber(&c, what: what).value)
        }
        try c.expectEndOfLine(comment: true)
        margins.append((names[view], EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3]),
                        c.location(of: view)))
    }

    /// `W x H` or `W x auto`; `375x812` lexes as three tokens.
    mutating func parseSize(_ c: inout LineCursor) throws(LineError) -> ContainerSize {
        let width = try parseNumber(&c, what: "a width")
        guard names.isName(c.peek(), "x") else { throw c.unexpected("'x' between width and height") }
        _ = c.take()
        if names.isName(c.peek(), "auto") {
            _ = c.take()
            return ContainerSize(width: width.value, height: nil)
        }
        let height = try parseNumber(&c, what: "a height or 'auto'")
        return ContainerSize(width: width.value, height: height.value)
    }

    /// `[traits T1 T2 ...]`.
    mutating func parseTraits(_ c: inout LineCursor) throws(LineError) -> [String] {
        guard names.isName(c.peek(), "traits") else { return [] }
        _ = c.take()
        var traits: [String] = []
        while c.peek().kind == .name { traits.append(names[c.take()]) }
        if traits.isEmpty { throw c.unexpected("a trait name") }
        return traits
    }
}
