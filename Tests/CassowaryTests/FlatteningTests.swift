@testable import Cassowary
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

/// ``Tableau/flattened(_:)`` expands a row's basic externals highest rank
/// first with a dense accumulator and a heap: the same row as expanding
/// them one merge at a time (the definition it replaced), and linear on
/// a row that gathers many low-ranked externals.
@Suite("Flattening external rows")
struct FlatteningTests {
    /// The definition: the highest-ranked basic external expanded into the
    /// sorted row, one merge at a time.
    static func flattenedByMerges(_ tableau: Tableau, _ row: Row) -> Row {
        var t = tableau
        var row = row
        while let b = t.highestRankedBasicExternal(in: row) { t.expand(b, in: &row) }
        return row
    }

    @Test("every external row flattens to the row the merges give", arguments: UInt64(1)...20)
    func sameAsMerges(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var solver = CassowarySolver()
        let variables = (0..<8).map { solver.makeVariable("v\($0)") }
        for _ in 0..<40 {
            _ = try? solver.addConstraint(IncrementalConsistencyTests.randomDefinition(&rng, variables: variables))
        }
        let layout = try SelfSizingRows.layout(rows: 20)
        let (chain, _) = try ExternalRowsTests.load(layout) { $0.reverse() }
        var compared = 0
        for var t in [solver.tableau, chain.tableau] {
            for id in 0..<t.symbolCapacity where t.isBasic[id] && t.kinds[id] == .external {
                let row = t.rows[id]
                let expected = Self.flattenedByMerges(t, row)
                let got = t.flattened(row)
                #expect(got == expected, "seed \(seed), row of \(id)")
                #expect(!got.cells.contains { t.isBasicExternal($0.symbol) })
                compared += 1
            }
        }
        #expect(compared > 20)
    }

    @Test("a row of equal widths closed at its far end: every width as computed, the work linear")
    func equalRow() throws {
        // The shape that was quadratic (a closing row gathering every
        // `width_k` below the chain of lefts): 400 views, the closed form.
        let count = 400
        let layout = try EqualRow.layout(count: count)
        let (solver, variables) = try ExternalRowsTests.load(layout) { _ in }
        let system = try layout.lowered()
        let width = (layout.container.width - 32 - 8 * Double(count - 1)) / Double(count)
        for view in 1...count {
            let w = solver.value(of: variables[FrameVariable(view: view, component: .width).index])
            #expect(abs(w - width) <= 1e-9 * width, "view \(view): width \(w), expected \(width)")
        }
        #expect(system.variableCount == variables.count)
        // The subject search scans a few short rows per constraint; merging
        // the closing row's expansions one at a time scanned ~N²/2 cells.
        let constraints = system.constraints.count
        #expect(solver.subjectSearchCells <= 20 * constraints, "\(solver.subjectSearchCells) cells scanned for \(constraints) constraints")
        // No row of the result names the whole row: the rows stay short.
        #expect(solver.statistics.cells <= 6 * solver.statistics.rows, "\(solver.statistics.cells) cells in \(solver.statistics.rows) rows")
    }

    @Test("a chain built from its far end is ranked in linear work, not by raising the chain per definition")
    func reversedGridRanks() throws {
        // The alternating grid with its constraint lines reversed: each
        // definition landed below the chain built so far, and the raise
        // moved the whole chain (946 ranks per definition at R = 1,000).
        // Linear: twice the rows, about twice the ranks moved.
        var moves: [Int] = []
        for rows in [100, 200] {
            let layout = try AlternatingGrid.layout(rows: rows)
            let (reversed, variables) = try ExternalRowsTests.load(layout) { $0.reverse() }
            let (generated, _) = try ExternalRowsTests.load(layout) { _ in }
            for v in variables {
                #expect(abs(reversed.value(of: v) - generated.value(of: v)) <= 1e-9 * max(1, abs(generated.value(of: v))))
            }
            moves.append(reversed.tableau.rankMoves)
        }
        #expect(Double(moves[1]) <= 2.5 * Double(moves[0]), "ranks moved: \(moves[0]) at 100 rows, \(moves[1]) at 200")
    }

    @Test("the subject search does not turn a row back and forth", arguments: ["as generated", "reversed"])
    func noReorientationPingPong(order: String) throws {
        // `row_k.width = 2 × row_k.height` names two basic externals whose
        // rows name each other's parametric external; re-orienting one toward
        // an external the new row names left the row as stuck as before, and
        // the search turned the two back and forth until its step limit:
        // 12 re-orientations on every row, 13 a row in all (16 reversed);
        // now 1 a row as generated, 3 reversed (which needs them to keep
        // its chain local). Cells scanned a constraint: 7.2 -> under 5 as
        // generated, 9.5 -> 7 reversed.
        let rows = 100
        let layout = try AlternatingGrid.layout(rows: rows)
        let (solver, _) = try ExternalRowsTests.load(layout) { if order == "reversed" { $0.reverse() } }
        #expect(solver.tableau.reorientCount <= 4 * rows, "\(solver.tableau.reorientCount) re-orientations for \(rows) rows (\(order))")
        let constraints = try layout.lowered().constraints.count
        let cellsPerConstraint = order == "reversed" ? 8 : 5
        #expect(solver.subjectSearchCells <= cellsPerConstraint * constraints,
                "\(solver.subjectSearchCells) cells scanned for \(constraints) constraints (\(order))")
    }
}
