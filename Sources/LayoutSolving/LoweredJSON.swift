import LayoutModel

extension LoweredSystem {
    /// The lowered system as JSON, for external tools and solvers:
    /// `{"variant", "size": [W, H | null], "variables": ["super.x", ...],
    /// "rows": [{"terms": [[variable, coefficient], ...], "constant", "relation": "="|"<="|">=",
    /// "priority", "origin"}]}`. A row means `Σ coefficient × variables[i] + constant REL 0`.
    public func json(layout: Layout) -> JSONValue {
        let rows: [JSONValue] = constraints.map { row in
            let terms: [JSONValue] = row.expression.terms.map {
                JSONValue.array([.number(Double($0.variable.index)), .number($0.coefficient)])
            }
            let origin = layout.describe(row.origin, size: size).name
            return JSONValue.object([
                ("terms", .array(terms)), ("constant", .number(row.expression.constant)),
                ("relation", .string(row.relation.symbol)), ("priority", .number(row.priority.rawValue)),
                ("origin", .string(origin)),
            ])
        }
        let height: JSONValue = size.height.map { JSONValue.number($0) } ?? .null
        return .object([
            ("variant", .string(variant)),
            ("size", .array([.number(size.width), height])),
            ("variables", .array(variables.map { JSONValue.string(name(of: $0)) })),
            ("rows", .array(rows)),
        ])
    }
}
