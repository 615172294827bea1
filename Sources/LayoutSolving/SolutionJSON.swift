import LayoutModel

extension Solution {
    /// The stable JSON shape of one variant's result (later tools read it):
    /// `{"variant", "status", "frames": {"view": [x, y, w, h]}, "levels": [{"priority", "error"}],
    /// "ambiguous": [...] | null, "conflict": [...], "expectations": {"passed", "failed", "unsupported", "failures"}}`.
    public func json(checks: [ExpectationResult]) -> JSONValue { json(checks: checks, frames: true) }

    /// The document; without `frames`, only the members after them
    /// (levels, ambiguous, conflict, expectations), for ``writeJSON(checks:to:)``.
    func json(checks: [ExpectationResult], frames withFrames: Bool) -> JSONValue {
        let frameMembers: [(String, JSONValue)] = withFrames ? zip(viewNames, frames).map { name, f in
            (name, JSONValue.array([f.x, f.y, f.width, f.height].map { JSONValue.number($0) }))
        } : []
        let levelValues: [JSONValue] = levels.map { level in
            JSONValue.object([("priority", .number(level.priority.rawValue)), ("error", .number(level.error))])
        }
        let ambiguousValue: JSONValue = ambiguous.map { names in JSONValue.array(names.map { JSONValue.string($0) }) } ?? .null
        let conflictValue = JSONValue.array(conflict.map { JSONValue.string($0.name) })
        // Counted, not filtered: a filter copied every passed check (144
        // bytes each) to count them, the peak of a whole `solve` of the grid
        // at 10^5 (29 MB for 200,000 frame checks).
        func count(_ verdict: ExpectationResult.Verdict) -> JSONValue {
            var n = 0
            for check in checks where check.verdict == verdict { n += 1 }
            return .number(Double(n))
        }
        let failures: [JSONValue] = checks.filter { $0.verdict == .failed }.map { check in
            JSONValue.object([("line", .number(Double(check.expectation.location?.line ?? 0))),
                              ("reason", .string(check.reason ?? ""))])
        }
        let expectations = JSONValue.object([
            ("passed", count(.passed)), ("failed", count(.failed)), ("unsupported", count(.unsupported)),
            ("failures", .array(failures)),
        ])
        let head: [(String, JSONValue)] = withFrames
            ? [("variant", .string(variant)), ("status", .string(status.rawValue)), ("frames", .object(frameMembers))] : []
        return .object(head + [
            ("levels", .array(levelValues)),
            ("ambiguous", ambiguousValue),
            ("conflict", conflictValue),
            ("expectations", expectations),
        ])
    }

    /// Writes ``json(checks:)``'s document into `writer`, byte for byte the
    /// same, without building the frames as a tree: one object member and
    /// one four-number array per view, straight into the output bytes.
    /// - Complexity: O(views + levels + checks).
    public func writeJSON(checks: [ExpectationResult], to writer: inout JSONStreamWriter) {
        writer.beginObject()
        writer.key("variant")
        writer.value(.string(variant))
        writer.key("status")
        writer.value(.string(status.rawValue))
        writer.key("frames")
        writer.beginObject()
        for (name, f) in zip(viewNames, frames) {
            writer.key(name)
            writer.numbers(f.x, f.y, f.width, f.height)
        }
        writer.endObject()
        // The rest is small: the tree's own members, written as they are.
        guard case .object(let members) = json(checks: checks, frames: false) else { return }
        for (key, value) in members {
            writer.key(key)
            writer.value(value)
        }
        writer.endObject()
    }
}
