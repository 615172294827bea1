// `expect` lines of a `.layout` file: an expected frame, `unsatisfiable` or
// `ambiguous`, optionally for a variant.

import LayoutModel

extension FileParser {
    /// `expect [VARIANT] VIEW = X Y W H [observed SOURCE] [within TOL]`, `expect [VARIANT] unsatisfiable`,
    /// `expect [VARIANT] ambiguous VIEW ...`.
    mutating func parseExpect(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let location = c.location(of: keyword)
        var variant: String?

        // Why this order: a view may be called `ambiguous`; `NAME =` is always a
        // frame, and a keyword not followed by `=` is the keyword.
        for round in 0..<2 {
            let word = try c.expectName(round == 0 ? "a variant, a view, 'unsatisfiable' or 'ambiguous'"
                                                   : "a view, 'unsatisfiable' or 'ambiguous'")
            if c.peek().kind == .equal || c.peek().kind == .equalEqual {
                _ = c.take()
                // Why four calls, not a loop over the names: a message built per
                // component was a string per expect line.
                let x = try parseNumber(&c, what: "the expected x").value
                let y = try parseNumber(&c, what: "the expected y").value
                let width = try parseNumber(&c, what: "the expected width").value
                let height = try parseNumber(&c, what: "the expected height").value
                // `observed SOURCE`: another engine's answer (reported apart);
                // `within TOL`: this frame's own absolute tolerance.
                var observedBy: String?
                var tolerance: Double?
                if c.peek().kind == .name, names[c.peek()] == "observed" {
                    _ = c.take()
                    observedBy = names[try c.expectName("who observed the frame (e.g. 'xcode')")]
                }
                if c.peek().kind == .name, names[c.peek()] == "within" {
                    _ = c.take()
                    let parsed = try parseNumber(&c, what: "the tolerance after 'within'")
                    guard parsed.value >= 0, parsed.value.isFinite else {
                        throw LineError(.unexpectedToken(expected: "a tolerance >= 0", found: formatNumber(parsed.value)), at: parsed.location)
                    }
                    tolerance = parsed.value
                }
                try c.expectEndOfLine(comment: true)
                let frame = Frame(x: x, y: y, width: width, height: height)
                expectations.append(Expectation(variant: variant, .frame(view: names[word], frame), observedBy: observedBy,
                                                tolerance: tolerance, location: location))
                return
            }
            if names[word] == "unsatisfiable" {
                try c.expectEndOfLine(comment: true)
                expectations.append(Expectation(variant: variant, .unsatisfiable, location: location))
                return
            }
            if names[word] == "ambiguous" {
                var views: [String] = []
                while c.peek().kind == .name { views.append(names[c.take()]) }
                try c.expectEndOfLine(comment: true)
                expectations.append(Expectation(variant: variant, .ambiguous(views: views), location: location))
                return
            }
            if round == 1 { throw c.unexpected("'=' after the view name") }
            variant = names[word] == Layout.defaultVariantName ? nil : names[word]
        }
    }
}
