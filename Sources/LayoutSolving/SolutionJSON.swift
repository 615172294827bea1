import LayoutModel

extension Solution {
    /// The stable JSON shape of one variant's result (later tools read it):
    /// `{"variant", "status", "frames": {"view": [x, y, w, h]}, "levels": [{"priority", "error"}],
    /// "ambiguous": [...] | null, "conflict": [...], "expectations": {"passed", "failed", "unsupported", "failures"}}`.
    public func json(checks: [ExpectationResult]) -> JSONValue {
        let frameMembers: [(String, JSONValue)] = zip(viewNames, frames).map { name, f in
            (name, JSONValue.array([f.x, f.y, f.width, f.height].map { JSONValue.number($0) }))
        }
        let levelValues: [JSONValue] = levels.map { level in
            JSONValue.object([("priority", .number(level.priority.rawValue)), ("error", .number(level.error))])
        }
        let ambiguousValue: JSONValue = ambiguous.map { names in JSONValue.array(names.map { JSONValue.string($0) }) } ?? .null
        let conflictValue = JSONValue.array(conflict.map { JSONValue.string($0.name) })
        func count(_ verdict: ExpectationResult.Verdict) -> JSONValue {
            .number(Double(checks.filter { $0.verdict == verdict }.count))
        }
        let failures: [JSONValue] = checks.filter { $0.verdict == .failed }.map { check in
            JSONValue.object([("line", .number(Double(check.expectation.location?.line ?? 0))),
                              ("reason", .string(check.reason ?? ""))])
        }
        let expectations = JSONValue.object([
            ("passed", count(.passed)), ("failed", count(.failed)), ("unsupported", count(.unsupported)),
            ("failures", .array(failures)),
        ])
        return .object([
            ("variant", .string(variant)),
            ("status", .string(status.rawValue)),
            ("frames", .object(frameMembers)),
            ("levels", .array(levelValues)),
            ("ambiguous", ambiguousValue),
            ("conflict", conflictValue),
            ("expectations", expectations),
        ])
    }
}
