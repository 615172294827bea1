import Synchronization

extension CassowarySolver {
    /// A stable text dump of the tableau for debugging and snapshot tests:
    /// rows by basic symbol id, cells by symbol id, then the objective levels.
    /// Symbols print as `v` (external, with the variable's name), `s` (slack),
    /// `e` (error) and their id.
    public func dump() -> String {
        var names: [Int32: String] = [:]
        for (i, symbol) in variableSymbols.enumerated() {
            if let name = variableNames[i] { names[symbol.id] = name }
        }
        func name(_ s: Symbol) -> String { names[s.id].map { "\(s)[\($0)]" } ?? s.description }
        func text(_ row: Row) -> String {
            var out = number(row.constant)
            for cell in row.cells {
                out += cell.coefficient < 0 ? " - " : " + "
                out += "\(number(abs(cell.coefficient))) \(name(cell.symbol))"
            }
            return out
        }
        var lines = ["rows:"]
        for id in 0..<tableau.symbolCapacity where tableau.isBasic[id] {
            let s = tableau.symbol(id: Int32(id))
            lines.append("  \(name(s)) = \(text(tableau.rows[id]))")
        }
        lines.append("objective:")
        for (k, row) in tableau.levels.enumerated() {
            lines.append("  level \(number(tableau.levelStrengths[k])) (\(tableau.levelUsers[k]) constraints): \(text(Row(constant: row.constant, cells: row.cells)))")
        }
        lines.append("edits: " + edits.keys.sorted().map { "\(variableNames[$0] ?? "v\($0)")=\(number(edits[$0]?.value ?? 0))" }
            .joined(separator: " "))
        return lines.joined(separator: "\n") + "\n"
    }

    private func number(_ x: Double) -> String {
        if x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// Counters for benchmarks: rows, cells, symbols, pivots, rebuilds.
    public var statistics: (rows: Int, cells: Int, longestRow: Int, symbols: Int, pivots: Int, rebuilds: Int) {
        var rows = 0, cells = 0, longest = 0
        for id in 0..<tableau.symbolCapacity where tableau.isBasic[id] {
            rows += 1
            cells += tableau.rows[id].cells.count
            longest = max(longest, tableau.rows[id].cells.count)
        }
        return (rows, cells, longest, tableau.liveSymbolCount, tableau.pivotCount, rebuildCount)
    }

    /// Room for cells that the basic rows hold beyond their cells (tests
    /// bound it: rows are meant to be stored at their length).
    var spareCellCapacity: Int {
        var spare = 0
        for id in 0..<tableau.symbolCapacity where tableau.isBasic[id] {
            spare += tableau.rows[id].cells.capacity - tableau.rows[id].cells.count
        }
        return spare
    }

    /// Checks the tableau's invariants; compiled in with `LAYOUT_BENCH_INVARIANTS`
    /// (debug builds, so every test runs it after mutations: see
    /// ``checkInvariants()``). Returns the violations found (empty when sound).
    @discardableResult
    public func _checkInvariants() -> [String] {
        var problems: [String] = []
        for id in 0..<tableau.symbolCapacity {
            let basic = tableau.isBasic[id]
            let row = tableau.rows[id]
            if basic {
                var previous: Int32 = -1
                for cell in row.cells {
                    if cell.symbol.id <= previous { problems.append("row \(id): cells not sorted") }
                    previous = cell.symbol.id
                    if tableau.isBasic[Int(cell.symbol.id)] {
                        // Only an external row may name a basic external, of lower rank.
                        if tableau.kinds[id] != .external || cell.symbol.kind != .external
                            || tableau.rank[Int(cell.symbol.id)] >= tableau.rank[id] {
                            problems.append("row \(id) contains basic symbol \(cell.symbol)")
                        }
                    }
                    if tableau.kinds[id] != .external && cell.symbol.kind == .external {
                        problems.append("restricted row \(id) contains external \(cell.symbol)")
                    }
                    if !tableau.columns[Int(cell.symbol.id)].contains(Int32(id)) {
                        problems.append("column \(cell.symbol) misses row \(id)")
                    }
                    if Row.isZero(cell.coefficient) { problems.append("row \(id) keeps a zero coefficient") }
                }
                if tableau.kinds[id] != .external && row.constant < -1e-6 {
                    problems.append("restricted row \(id) is infeasible: \(row.constant)")
                }
            } else if !row.cells.isEmpty {
                problems.append("non-basic symbol \(id) has cells")
            }
            for b in tableau.columns[id] where !tableau.isBasic[Int(b)] || tableau.rows[Int(b)].coefficient(of: tableau.symbol(id: Int32(id))) == 0 {
                problems.append("column \(id) lists row \(b) that does not contain it")
            }
        }
        for (k, level) in tableau.levels.enumerated() {
            for cell in level.cells where tableau.isBasic[Int(cell.symbol.id)] {
                problems.append("objective level \(k) contains basic symbol \(cell.symbol)")
            }
            for cell in level.cells where cell.symbol.kind == .external {
                problems.append("objective level \(k) contains external \(cell.symbol)")
            }
        }
        if tableau.levelStrengths != tableau.levelStrengths.sorted(by: >) { problems.append("levels out of order") }
        return problems
    }

    /// Runs the invariant check in builds with `LAYOUT_BENCH_INVARIANTS`:
    /// after every mutation of a tableau of up to ``invariantCheckSpan``
    /// symbols, after every (symbols / span)-th of a larger one.
    ///
    /// Why not after every mutation of a large tableau: the check reads the
    /// whole tableau, so a load of n constraints checked after each paid
    /// O(n²) — 100 s of the debug build for a 600-view row's 2,402 lines,
    /// which release loads in 0.02 s, and a fifth of the test suite. Spaced
    /// in proportion to the tableau, the checks cost a constant factor of the
    /// work; small tableaux, where the unit tests' hard cases live, are
    /// checked as before, and a tableau left unsound is still found by the
    /// next check or by a test's own ``_checkInvariants()``.
    mutating func checkInvariants() {
        #if LAYOUT_BENCH_INVARIANTS
        mutationsSinceCheck += 1
        guard mutationsSinceCheck * Self.invariantCheckSpan >= tableau.symbolCapacity else { return }
        mutationsSinceCheck = 0
        let problems = _checkInvariants()
        if !problems.isEmpty {
            // Never a trap: tests read them through InvariantLog.take().
            InvariantLog.record(problems)
        }
        #endif
    }
}

/// Invariant violations seen in builds with `LAYOUT_BENCH_INVARIANTS`, for
/// tests to assert on (a check never traps).
public enum InvariantLog {
    private static let violations = Mutex<[String]>([])

    static func record(_ problems: [String]) {
        violations.withLock { $0 += problems.prefix(10) }
    }

    /// Takes and clears the recorded violations.
    public static func take() -> [String] {
        violations.withLock { v in
            let taken = v
            v = []
            return taken
        }
    }
}
