@testable import Cassowary
import CassowaryLayout
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

/// Long random sequences on a large layout, checked against fresh solves at
/// intervals; everything removed at the end returns the tableau to its baseline.
@Suite("Incremental stress")
struct StressTests {
    static func definitions(rows: Int) throws -> (variableCount: Int, rows: [ConstraintDefinition]) {
        let system = try AlternatingGrid.layout(rows: rows).lowered()
        return (system.variableCount, definitions(of: system))
    }

    /// A lowered system's rows as the core solver's definitions (variable i is frame variable i).
    static func definitions(of system: LoweredSystem) -> [ConstraintDefinition] {
        let variables = (0..<system.variableCount).map { CassowaryVariable(id: $0) }
        return system.constraints.map { ConstraintDefinition($0, variables: variables) }
    }

    /// A solver loaded with a lowered system's rows (in the order `order`
    /// leaves them), the container's width (variable 2) an edit at `width`
    /// (the system's own by default), as the layout adapter does.
    /// `configure` sees the solver before anything is added.
    static func loadWithWidthEdit(_ system: LoweredSystem, width: Double? = nil,
                                  order: (inout [ConstraintDefinition]) -> Void = { _ in },
                                  configure: (inout CassowarySolver) -> Void = { _ in }) throws -> (CassowarySolver, [CassowaryVariable]) {
        var definitions = Self.definitions(of: system)
        order(&definitions)
        var solver = CassowarySolver()
        configure(&solver)
        let variables = (0..<system.variableCount).map { solver.makeVariable("x\($0)") }
        try solver.addEditVariable(variables[2], strength: .soft(1000))
        try solver.suggestValue(variables[2], width ?? system.size.width)
        for d in definitions where !(d.terms.count == 1 && d.terms[0].variable == variables[2]) {
            try solver.addConstraint(d)
        }
        solver.updateVariables()
        return (solver, variables)
    }

    @Test("remove / re-add / suggest on a 30-row grid, 300 steps, fresh solve every 25", arguments: [UInt64(3), 4])
    func longSequence(seed: UInt64) throws {
        let (count, rows) = try Self.definitions(rows: 30)
        var rng = SplitMix64(seed: seed)
        var solver = CassowarySolver()
        let variables = (0..<count).map { solver.makeVariable("x\($0)") }
        let baseline = solver.statistics
        let width = variables[2]
        try solver.addEditVariable(width, strength: .soft(1000))
        var handles: [Int: CassowaryConstraint] = [:]
        for (i, d) in rows.enumerated() where !(d.terms.count == 1 && d.terms[0].variable == width && d.strength.isRequired) {
            handles[i] = try solver.addConstraint(d)
        }
        var model = IncrementalConsistencyTests.Model()
        var suggested = 0.0
        func sync() {
            model.definitions = handles.keys.sorted().compactMap { i in handles[i].map { ($0, rows[i]) } }
            model.edits = [2: (.soft(1000), suggested)]
        }
        for step in 1...300 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                if let i = handles.keys.sorted().randomElement(using: &rng), let h = handles.removeValue(forKey: i) {
                    try solver.removeConstraint(h)
                }
            case 4..<8:
                let missing = rows.indices.filter { handles[$0] == nil && !(rows[$0].terms.count == 1 && rows[$0].terms[0].variable == width) }
                if let i = missing.randomElement(using: &rng) {
                    do { handles[i] = try solver.addConstraint(rows[i]) } catch {
                        guard case .unsatisfiable = error else { throw error }
                    }
                }
            default:
                suggested = Double(Int.random(in: 200...1200, using: &rng))
                try solver.suggestValue(width, suggested)
            }
            if step % 25 == 0 {
                solver.updateVariables()
                sync()
                try IncrementalConsistencyTests.compare(solver, model, variables, "seed \(seed) step \(step)", variableCount: count)
            }
        }
        // Remove everything: back to the baseline, nothing leaked through markers or edits.
        for h in handles.values.sorted() { try solver.removeConstraint(h) }
        try solver.removeEditVariable(width)
        let end = solver.statistics
        #expect(end.symbols == baseline.symbols && end.rows == 0 && end.cells == 0)
        #expect(solver._checkInvariants().isEmpty)
    }
}
