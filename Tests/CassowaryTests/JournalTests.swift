@testable import Cassowary
import LayoutTestSupport
import Testing

/// A required row added through an artificial variable is undone from a
/// journal of what its solve overwrote (``TableauJournal``) when it turns
/// out to conflict. The contract: the solver is then exactly as it was, and
/// it goes on exactly as a solver that never saw the failed add.
@Suite("Undo of an artificial add")
struct JournalTests {
    /// `x` with four upper bounds (so the slack of `x >= 0` sits in more than
    /// three rows: its column spills into a hash set), five views placed
    /// from `x`, and an edit on `y1`.
    static func boundedSolver() throws -> (CassowarySolver, CassowaryVariable) {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        try solver.addConstraint(ConstraintDefinition(terms: [(x, 1)], constant: 0, relation: .greaterThanOrEqual, strength: .required))
        for bound in [3.0, 4, 6, 7] {
            try solver.addConstraint(ConstraintDefinition(terms: [(x, 1)], constant: -bound, relation: .lessThanOrEqual, strength: .required))
        }
        for k in 1...5 {
            let y = solver.makeVariable("y\(k)")
            try solver.addConstraint(ConstraintDefinition(terms: [(y, 1), (x, -1)], constant: -Double(k), relation: .equal, strength: .required))
            if k == 1 {
                try solver.addEditVariable(y, strength: .soft(1000))
                try solver.suggestValue(y, 2.5)
            }
        }
        solver.updateVariables()
        return (solver, x)
    }

    @Test("a conflicting row whose artificial solve pivots leaves the solver as it was")
    func failedAddIsUndone() throws {
        var (solver, x) = try Self.boundedSolver()
        // The same kind of row that fits: `x >= 2` goes through the
        // artificial variable too, and its solve pivots (the path the
        // conflicting row below takes before it finds the minimum above 0).
        var fitting = solver
        let pivotsBefore = fitting.tableau.pivotCount
        try fitting.addConstraint(ConstraintDefinition(terms: [(x, 1)], constant: -2, relation: .greaterThanOrEqual, strength: .required))
        #expect(fitting.tableau.pivotCount > pivotsBefore)
        #expect(fitting.tableau.rollBackCount == 0)

        let before = solver.dump()
        let statistics = solver.statistics
        #expect(throws: CassowaryError.self) {
            try solver.addConstraint(ConstraintDefinition(terms: [(x, 1)], constant: -5, relation: .greaterThanOrEqual, strength: .required))
        }
        #expect(solver.tableau.rollBackCount == 1)
        #expect(solver.dump() == before)
        #expect(solver.statistics == statistics)
        #expect(solver._checkInvariants().isEmpty)
        solver.updateVariables()
        #expect(solver.value(of: x) == 1.5)
    }

    @Test("a solver that saw failed adds goes on exactly as one that did not", arguments: UInt64(1)...12)
    func failedAddsLeaveNoTrace(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var seen = CassowarySolver(), clean = CassowarySolver()
        let variables = (0..<8).map { seen.makeVariable("v\($0)") }
        _ = (0..<8).map { clean.makeVariable("v\($0)") }
        var handles: [(CassowaryConstraint, CassowaryConstraint)] = []
        for step in 0..<80 {
            if handles.count > 4, Int.random(in: 0..<6, using: &rng) == 0 {
                let i = Int.random(in: 0..<handles.count, using: &rng)
                try seen.removeConstraint(handles[i].0)
                try clean.removeConstraint(handles[i].1)
                handles.remove(at: i)
            } else {
                let definition = IncrementalConsistencyTests.randomDefinition(&rng, variables: variables)
                do {
                    let handle = try seen.addConstraint(definition)
                    handles.append((handle, try clean.addConstraint(definition)))
                } catch {
                    guard case .unsatisfiable = error else { throw error }
                }
            }
            #expect(seen.dump() == clean.dump(), "seed \(seed) step \(step)")
            #expect(seen.statistics == clean.statistics, "seed \(seed) step \(step)")
        }
        #expect(seen._checkInvariants().isEmpty)
        #expect(InvariantLog.take().isEmpty)
        // The undo must have run for the comparison to mean anything.
        #expect(seen.tableau.rollBackCount > 0, "seed \(seed): no artificial add failed")
    }
}
