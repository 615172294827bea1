@testable import Cassowary
import Testing

@Suite("Row algebra")
struct RowTests {
    let x = Symbol(id: 1, kind: .external), s = Symbol(id: 2, kind: .slack), e = Symbol(id: 5, kind: .error)

    @Test("cells stay sorted by id; adding to zero removes the cell")
    func addRemove() {
        var row = Row(constant: 3)
        let inserted = [row.add(e, 2), row.add(x, 1), row.add(s, -1)]
        #expect(inserted == [1, 1, 1])
        #expect(row.cells.map(\.symbol.id) == [1, 2, 5])
        let cancelled = row.add(e, -2)
        #expect(cancelled == -1)
        #expect(row.cells.map(\.symbol.id) == [1, 2])
        #expect(row.coefficient(of: e) == 0)
        let removed = row.remove(s), again = row.remove(s)
        #expect(removed && !again)
    }

    @Test("the prefetch hints' address of a row's first cell is the array's own")
    func firstCellAddress() {
        // The hints read the `cells` field's bits (Tableau.prefetchCells);
        // if Swift laid arrays out otherwise, they would fetch useless lines.
        let rows = (1...5).map { n in
            Row(constant: Double(n), cells: (0..<n).map { Row.Cell(symbol: Symbol(id: Int32($0), kind: .slack), coefficient: 1) })
        }
        rows.withUnsafeBufferPointer { buffer in
            for (i, row) in rows.enumerated() {
                let expected = row.cells.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
                #expect(Tableau.firstCellAddress(of: Int32(i), in: buffer) == expected)
            }
            #expect(Tableau.firstCellAddress(of: 5, in: buffer) == nil)
            #expect(Tableau.firstCellAddress(of: -1, in: buffer) == nil)
        }
    }

    @Test("solve(for:) rewrites 0 = c + a x + b s as x = -c/a - (b/a) s")
    func solve() {
        var row = Row(constant: 6, cells: [.init(symbol: x, coefficient: 2), .init(symbol: s, coefficient: -4)])
        row.solve(for: x)
        #expect(row.constant == -3)
        #expect(row.cells == [.init(symbol: s, coefficient: 2)])
    }

    @Test("solve(for:replacing:) turns the row of basic b into the row of the entering symbol")
    func pivotAlgebra() {
        // s = 4 + 2 x  ->  x = -2 + 0.5 s
        var row = Row(constant: 4, cells: [.init(symbol: x, coefficient: 2)])
        row.solve(for: x, replacing: s)
        #expect(row.constant == -2)
        #expect(row.cells == [.init(symbol: s, coefficient: 0.5)])
    }

    @Test("addScaled merges, cancels, skips the substituted symbol, and reports changes")
    func merge() {
        var row = Row(constant: 1, cells: [.init(symbol: x, coefficient: 1), .init(symbol: s, coefficient: 2)])
        let other = Row(constant: 10, cells: [.init(symbol: s, coefficient: -1), .init(symbol: e, coefficient: 1)])
        var changes: [(Int32, Int)] = []
        row.addScaled(other, 2, skipping: x) { changes.append(($0.id, $1)) }
        #expect(row.constant == 21)
        #expect(row.cells == [.init(symbol: e, coefficient: 2)])
        #expect(changes.map(\.0) == [1, 2, 5] && changes.map(\.1) == [-1, -1, 1])
    }
}
