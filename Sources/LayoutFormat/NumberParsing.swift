// Numbers in `.layout` lines: a literal or a metric, with an optional sign.

import LayoutModel

extension FileParser {
    /// Whether a name is a metric (known from the first pass).
    func isMetric(_ name: String) -> Bool { metricValues[name] != nil }

    /// `[+|-] (NUMBER | METRIC)`.
    /// - Parameter what: what the place takes, for an error message; an
    ///   autoclosure because most call sites interpolate it, and a message is
    ///   needed only on the error path (not once per number of a 10^5-row file).
    mutating func parseNumber(_ c: inout LineCursor, what: @autoclosure () -> String, allowMetrics: Bool = true) throws(LineError)
        -> (value: Double, location: SourceLocation)
    {
        var sign = 1.0
        let start = c.peek()
        if start.kind == .minus || start.kind == .plus {
            _ = c.take()
            if start.kind == .minus { sign = -1 }
        }
        let token = c.peek()
        switch token.kind {
        case .number:
            _ = c.take()
            let value = token.number
            guard value.isFinite else { throw LineError(.numberOutOfRange(c.text(of: token)), at: c.location(of: token)) }
            return (sign * value, c.location(of: start))
        case .name where allowMetrics && c.peek(1).kind != .dot:
            _ = c.take()
            guard let value = metricValues[names[token]] else {
                throw LineError(.unknownMetric(names[token], expected: what()), at: c.location(of: token))
            }
            return (sign * value, c.location(of: start))
        default:
            throw c.unexpected(what())
        }
    }
}
