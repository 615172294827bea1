@testable import Cassowary
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

/// The rows of external variables kept as a ranked DAG (``Tableau``): no
/// fill-in on content-sized rows in any insertion order, cycles refused,
/// values evaluated through the DAG.
@Suite("External rows as a DAG")
struct ExternalRowsTests {
    func eq(_ terms: [(CassowaryVariable, Double)], _ constant: Double, _ strength: Strength = .required,
            _ relation: CassowaryRelation = .equal) -> ConstraintDefinition {
        ConstraintDefinition(terms: terms, constant: constant, relation: relation, strength: strength)
    }

    /// A solver loaded with a lowered layout's rows in the given order, the
    /// container's size as edits (as the layout adapter does).
    static func load(_ layout: Layout, order: (inout [ConstraintDefinition]) -> Void) throws -> (CassowarySolver, [CassowaryVariable]) {
        try StressTests.loadWithWidthEdit(layout.lowered(), order: order)
    }

    @Test("self-sizing rows: no fill-in, the same frames, whatever the insertion order", arguments: ["as generated", "reversed", "shuffled"])
    func noFillIn(order: String) throws {
        // (Debug builds check every invariant after every add: O(n²) for the
        // test, so 100 rows; the old fill-in was 15 cells a row there.)
        let rows = 100
        let layout = try SelfSizingRows.layout(rows: rows)
        let (reference, variables) = try Self.load(layout) { _ in }
        let (solver, _) = try Self.load(layout) { definitions in
            switch order {
            case "reversed": definitions.reverse()
            case "shuffled":
                var rng = SplitMix64(seed: 7)
                for i in stride(from: definitions.count - 1, to: 0, by: -1) {
                    definitions.swapAt(i, Int(rng.next() % UInt64(i + 1)))
                }
            default: break
            }
        }
        // In solved form the last row's position named every slack above it:
        // rows grew with the table (cells ~ R²: 15 a row on average at 100
        // rows, 47 at 300; now under 3).
        // A chain built from its far end is re-rooted once by the constraint
        // that ties it to the container: one row as long as the chain, still
        // linear in all.
        let statistics = solver.statistics
        if order == "as generated" { #expect(statistics.longestRow <= 12, "longest row \(statistics.longestRow)") }
        #expect(statistics.cells <= 6 * statistics.rows, "\(statistics.cells) cells in \(statistics.rows) rows")
        // Rows are stored at their length: a new row leaves the buffer it
        // was built and expanded in behind (room for both rows' cells; a
        // third of a table's rows kept two to four spare cells). Only in
        // the order generated: other orders pivot more, and a pivot or a
        // cancellation in place can leave a spare cell in a row (a fifth
        // to a quarter of the rows here).
        if order == "as generated" {
            #expect(solver.spareCellCapacity * 20 <= statistics.rows, "room for \(solver.spareCellCapacity) more cells in \(statistics.rows) rows")
        }
        for v in variables {
            #expect(abs(solver.value(of: v) - reference.value(of: v)) <= 1e-9 * max(1, abs(reference.value(of: v))))
        }
        // The generator's closed form: the last label's top.
        let lastTop = variables[4 * (2 * rows - 1) + 1]
        #expect(abs(reference.value(of: lastTop) - Double(8 + 29 * (rows - 1))) < 1e-9)
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("a definition that would close a cycle is refused; the row is expanded instead")
    func cycleRefused() throws {
        var solver = CassowarySolver()
        let u = solver.makeVariable("u"), x = solver.makeVariable("x"), y = solver.makeVariable("y")
        // u = x + y: solved for u (fewest rows, lowest id); its row names x and y.
        try solver.addConstraint(eq([(u, 1), (x, -1), (y, -1)], 0))
        // x = u + 5 would define x through u, whose row names x: a cycle. The
        // expansion gives x - (x + y) - 5 = 0, that is y = -5.
        try solver.addConstraint(eq([(x, 1), (u, -1)], -5))
        solver.updateVariables()
        #expect(solver.value(of: y) == -5)
        #expect(solver.value(of: u) == solver.value(of: x) - 5)
        #expect(solver._checkInvariants().isEmpty)
        // x is still free: pinning it moves u through the DAG.
        try solver.addConstraint(eq([(x, 1)], -40))
        solver.updateVariables()
        #expect(solver.value(of: u) == 35)
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("projecting rows onto chosen symbols: constants and cells, the memo's empty projections included")
    func projections() throws {
        var solver = CassowarySolver()
        let a = solver.makeVariable("a"), b = solver.makeVariable("b"), c = solver.makeVariable("c")
        let free = solver.makeVariable("free")
        // a = 10, b = a + 5, c = b + 7 + 2·free, in an order that keeps each
        // definition local: the rows of b and c name basic externals.
        try solver.addConstraint(eq([(a, 1)], -10))
        try solver.addConstraint(eq([(b, 1), (a, -1)], -5))
        try solver.addConstraint(eq([(c, 1), (b, -1), (free, -2)], -7))
        let symbol = { (v: CassowaryVariable) in solver.variableSymbols[v.id] }
        let keep = { (s: Symbol) in s == symbol(free) }
        var memo = ProjectionMemo()
        let projectedC = solver.tableau.projectedRow(of: symbol(c), keeping: keep, memo: &memo)
        let onFree = projectedC.cells.first { $0.symbol == symbol(free) }?.coefficient ?? 0
        #expect(projectedC.constant == 22 && projectedC.cells.count == 1)
        #expect(abs(onFree - 2) < 1e-12)
        // b and a were projected on the way (empty: they name no kept symbol); the memo gives them back.
        let projectedB = solver.tableau.projectedRow(of: symbol(b), keeping: keep, memo: &memo)
        #expect(projectedB.constant == 15 && projectedB.cells.isEmpty)
        #expect(solver.tableau.projectedRow(of: symbol(a), keeping: keep, memo: &memo).constant == 10)
    }

    @Test("a chain of definitions evaluates through the DAG")
    func deepChain() throws {
        // (Debug builds check every invariant after every add: O(n²) here, so
        // the chain is short; `solve` on 10^5 self-sizing rows runs the
        // iterative evaluation on a chain of 10^5 in release.)
        var solver = CassowarySolver()
        let n = 500
        let v = (0..<n).map { solver.makeVariable("v\($0)") }
        try solver.addConstraint(eq([(v[0], 1)], -1))
        for i in 1..<n { try solver.addConstraint(eq([(v[i], 1), (v[i - 1], -1)], -1)) }
        solver.updateVariables()
        #expect(solver.value(of: v[n - 1]) == Double(n))
        // Changing the root moves the whole chain (edits through the DAG).
        try solver.addEditVariable(v[0], strength: .soft(1000))
        try solver.suggestValue(v[0], 10)
        solver.updateVariables()
        #expect(solver.value(of: v[0]) == 1)  // the required v0 = 1 wins over the edit
        #expect(solver.value(of: v[n - 1]) == Double(n))
    }

    @Test("a copy of a solver walks in a memo of its own, and both give their own values")
    func copiesWalkApart() throws {
        let layout = try SelfSizingRows.layout(rows: 20)
        var (a, variables) = try StressTests.loadWithWidthEdit(layout.lowered(), width: 375)
        var b = a
        try a.suggestValue(variables[2], 400)
        try b.suggestValue(variables[2], 500)
        a.updateVariables()
        b.updateVariables()
        // The memo is written by each walk: shared by copies sent to two
        // threads, their walks would race (WalkMemo, Evaluation.swift).
        #expect(a.evaluation.memo !== b.evaluation.memo)
        #expect(a.values == a.tableau.values(of: a.variableSymbols))
        #expect(b.values == b.tableau.values(of: b.variableSymbols))
        #expect(a.values[2] == 400 && b.values[2] == 500)
    }
}
