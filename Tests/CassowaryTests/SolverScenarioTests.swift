@testable import Cassowary
import Testing

/// kiwi-style scenarios: every error kind with its payload, and the solver
/// unchanged after each thrown error.
@Suite("Cassowary scenarios")
struct SolverScenarioTests {
    func eq(_ terms: [(CassowaryVariable, Double)], _ constant: Double, _ strength: Strength = .required,
            _ relation: CassowaryRelation = .equal, _ label: String = "") -> ConstraintDefinition {
        ConstraintDefinition(terms: terms, constant: constant, relation: relation, strength: strength, label: label)
    }

    @Test("a record is 48 bytes, keeps its relation, term count and redundancy, and sequences renumber in order near Int32.max")
    func recordPackingAndSequences() throws {
        #expect(MemoryLayout<CassowarySolver.ConstraintRecord>.stride <= 48)
        // The same chain built twice, once with the sequence about to pass
        // Int32.max, with removals and a re-add that reorder the records.
        func build(startingAt start: Int) throws -> (CassowarySolver, [Double]) {
            var solver = CassowarySolver()
            solver.nextSequence = start
            let xs = (0..<6).map { solver.makeVariable("x\($0)") }
            var handles: [CassowaryConstraint] = []
            handles.append(try solver.addConstraint(eq([(xs[0], 1)], -5)))
            for i in 1..<6 {
                handles.append(try solver.addConstraint(eq([(xs[i], 1), (xs[i - 1], -1)], -Double(i), .required, .equal, "link \(i)")))
            }
            handles.append(try solver.addConstraint(eq([(xs[5], 1)], -100, .soft(1), .lessThanOrEqual)))
            handles.append(try solver.addConstraint(eq([(xs[5], 1), (xs[0], -1)], -15)))  // implied: redundant
            try solver.removeConstraint(handles[2])  // a required equality: a rebuild in sequence order
            try solver.addConstraint(handles[2])
            try solver.removeConstraint(handles[0])
            try solver.addConstraint(eq([(xs[0], 1)], -7))
            solver.updateVariables()
            return (solver, xs.map { solver.value(of: $0) })
        }
        let (plain, expected) = try build(startingAt: 0)
        #expect(expected == [7, 8, 10, 13, 17, 22])
        func order(_ s: CassowarySolver) -> [Int] { s.records.entries.sorted { $0.value.sequence < $1.value.sequence }.map(\.id) }
        // The renumbering at every point of the sequence of inserts (some
        // after the re-add, when the records' order is not their ids').
        var renumbered = 0
        for margin in 1...40 {
            let (wrapped, values) = try build(startingAt: Int(Int32.max) - margin)
            #expect(values == expected, "margin \(margin)")
            #expect(order(wrapped) == order(plain), "margin \(margin)")
            // Renumbered (far below Int32.max) when there were at least `margin` inserts.
            if wrapped.nextSequence < 1_000 { renumbered += 1 }
        }
        #expect(renumbered >= 20)
        for (id, record) in plain.records.entries {
            let definition = plain.definition(of: record, id: id)
            #expect(record.termCount == definition.terms.count && record.relation == definition.relation)
        }
        #expect(plain.records.entries.contains { $0.value.redundant })
    }

    @Test("x + y = 10, x = 3: y = 7")
    func simple() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x"), y = solver.makeVariable("y")
        try solver.addConstraint(eq([(x, 1), (y, 1)], -10))
        try solver.addConstraint(eq([(x, 1)], -3))
        solver.updateVariables()
        #expect(solver.value(of: x) == 3 && solver.value(of: y) == 7)
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("inequalities and soft preferences: x <= 10 required, x = 20 weak -> 10")
    func softAgainstRequired() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        try solver.addConstraint(eq([(x, 1)], -10, .required, .lessThanOrEqual))
        try solver.addConstraint(eq([(x, 1)], -20, .soft(1)))
        solver.updateVariables()
        #expect(solver.value(of: x) == 10)
    }

    @Test("an unsatisfiable required constraint carries a minimal explanation, and the solver is unchanged")
    func unsatisfiableWithExplanation() throws {
        var solver = CassowarySolver()
        let a = solver.makeVariable("a"), b = solver.makeVariable("b"), c = solver.makeVariable("c")
        let c1 = try solver.addConstraint(eq([(a, 1)], -50, .required, .equal, "a=50"))
        _ = try solver.addConstraint(eq([(c, 1)], -5, .required, .equal, "c=5 (unrelated)"))
        let c3 = try solver.addConstraint(eq([(a, 1), (b, -1)], -60, .required, .greaterThanOrEqual, "a>=b+60"))
        _ = try solver.addConstraint(eq([(b, 1)], 0, .soft(500), .equal, "b=0 soft"))
        let before = solver.dump()
        #expect(throws: CassowaryError.unsatisfiable(label: "b=0", conflict: [c1, c3])) {
            try solver.addConstraint(eq([(b, 1)], 0, .required, .equal, "b=0"))
        }
        #expect(solver.dump() == before)
        #expect(solver._checkInvariants().isEmpty)
        // Still usable.
        try solver.addConstraint(eq([(b, 1)], 20, .required, .equal))
        solver.updateVariables()
        #expect(solver.value(of: b) == -20)
    }

    @Test("an unsatisfiable inequality found by the artificial phase is rolled back")
    func artificialRollback() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x"), y = solver.makeVariable("y")
        let c1 = try solver.addConstraint(eq([(x, 1)], 0, .required, .greaterThanOrEqual, "x>=0"))
        let c2 = try solver.addConstraint(eq([(y, 1)], 0, .required, .greaterThanOrEqual, "y>=0"))
        let c3 = try solver.addConstraint(eq([(x, 1), (y, 1)], -10, .required, .equal, "x+y=10"))
        solver.updateVariables()
        let before = solver.dump()
        // x - y >= 20 is impossible with x + y = 10, y >= 0 (x <= 10).
        do {
            try solver.addConstraint(eq([(x, 1), (y, -1)], -20, .required, .greaterThanOrEqual, "x-y>=20"))
            Issue.record("expected unsatisfiable")
        } catch {
            guard case .unsatisfiable(let label, let conflict) = error else { Issue.record("\(error)"); return }
            #expect(label == "x-y>=20")
            #expect(conflict == [c2, c3])
            _ = c1
        }
        #expect(solver.dump() == before)
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("0 = 5 is unsatisfiable alone; 0 = 0 is redundant and removable")
    func constantRows() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        #expect(throws: CassowaryError.unsatisfiable(label: "0=5", conflict: [])) {
            try solver.addConstraint(eq([], 5, .required, .equal, "0=5"))
        }
        let redundant = try solver.addConstraint(eq([(x, 1), (x, -1)], 0))
        #expect(solver.hasConstraint(redundant))
        try solver.removeConstraint(redundant)
        #expect(!solver.hasConstraint(redundant))
    }

    @Test("duplicate and unknown constraints, edits, variables")
    func errorKinds() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        let c = try solver.addConstraint(eq([(x, 1)], -1, .soft(10)))
        #expect(throws: CassowaryError.duplicateConstraint(c)) { try solver.addConstraint(c) }
        try solver.removeConstraint(c)
        #expect(throws: CassowaryError.unknownConstraint(c)) { try solver.removeConstraint(c) }
        try solver.addConstraint(c)  // made once, added again
        #expect(solver.hasConstraint(c))
        #expect(throws: CassowaryError.duplicateConstraint(c)) { try solver.addConstraint(c) }
        try solver.removeConstraint(c)  // and once more: each removal keeps the definition
        try solver.addConstraint(c)
        #expect(solver.hasConstraint(c))
        let made = try solver.makeConstraint(eq([(x, 1)], -2, .soft(5)))
        #expect(!solver.hasConstraint(made))
        #expect(throws: CassowaryError.unknownConstraint(CassowaryConstraint(id: 12345))) {
            try solver.addConstraint(CassowaryConstraint(id: 12345))
        }
        try solver.addEditVariable(x, strength: .soft(100))
        #expect(throws: CassowaryError.duplicateEditVariable(x)) { try solver.addEditVariable(x, strength: .soft(5)) }
        let y = solver.makeVariable("y")
        #expect(throws: CassowaryError.requiredEditStrength(y)) { try solver.addEditVariable(y, strength: .required) }
        #expect(throws: CassowaryError.unknownEditVariable(y)) { try solver.suggestValue(y, 3) }
        #expect(throws: CassowaryError.unknownEditVariable(y)) { try solver.removeEditVariable(y) }
        let ghost = CassowaryVariable(id: 99)
        #expect(throws: CassowaryError.unknownVariable(ghost)) { try solver.addConstraint(eq([(ghost, 1)], 0)) }
        #expect(throws: CassowaryError.self) { try solver.addConstraint(eq([(x, .nan)], 0)) }
        #expect(throws: CassowaryError.self) { try solver.addConstraint(eq([(x, 1)], 0, .soft(-1))) }
        #expect(throws: CassowaryError.self) { try solver.suggestValue(x, .infinity) }
        try solver.removeEditVariable(x)
        #expect(!solver.hasEditVariable(x))
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("edits: suggest moves the variable, the dual simplex keeps required constraints")
    func edits() throws {
        var solver = CassowarySolver()
        let left = solver.makeVariable("left"), width = solver.makeVariable("width"), right = solver.makeVariable("right")
        try solver.addConstraint(eq([(right, 1), (left, -1), (width, -1)], 0))
        try solver.addConstraint(eq([(width, 1)], -10, .required, .greaterThanOrEqual))
        try solver.addConstraint(eq([(width, 1)], -100, .soft(1)))
        try solver.addEditVariable(right, strength: .soft(1000))
        try solver.addEditVariable(left, strength: .soft(1000))
        try solver.suggestValue(left, 0)
        for target in [50.0, 500, 5, 200] {
            try solver.suggestValue(right, target)
            solver.updateVariables()
            // width >= 10 is required, so right cannot go below left + 10.
            #expect(solver.value(of: right) == max(target, 10))
            #expect(solver.value(of: width) == max(target, 10))
            #expect(solver._checkInvariants().isEmpty)
        }
    }

    @Test("priorities are lexicographic: 1001 low wishes never outweigh one medium one")
    func lexicographicNotWeighted() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        try solver.addConstraint(eq([(x, 1)], 0, .soft(500)))  // x = 0 at 500
        for _ in 0..<1001 { try solver.addConstraint(eq([(x, 1)], -10, .soft(250))) }  // x = 10 at 250, 1001 times
        solver.updateVariables()
        // Weighted strengths (kiwi: medium 1e3, weak 1) would give 1000|x| vs 1001|x - 10|: x = 10.
        #expect(solver.value(of: x) == 0)
    }

    @Test("errors beyond the weight ratio do not leak across levels")
    func largeErrors() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x"), y = solver.makeVariable("y")
        try solver.addConstraint(eq([(x, 1), (y, -1)], 0, .soft(750)))  // x = y at 750
        try solver.addConstraint(eq([(x, 1)], -1e7, .soft(250)))  // x = 1e7 at 250
        try solver.addConstraint(eq([(y, 1)], 0, .soft(250)))  // y = 0 at 250
        solver.updateVariables()
        #expect(solver.value(of: x) == solver.value(of: y))
    }

    @Test("the same input gives the same pivots and the same dump")
    func determinism() throws {
        func run() throws -> (String, Int) {
            var solver = CassowarySolver()
            let v = (0..<6).map { solver.makeVariable("v\($0)") }
            for i in 0..<5 {
                try solver.addConstraint(eq([(v[i + 1], 1), (v[i], -1)], -Double(i), .required, .greaterThanOrEqual))
                try solver.addConstraint(eq([(v[i], 1)], -Double(i * 7 % 5), .soft(Double(1 + i % 3))))
            }
            try solver.addEditVariable(v[5], strength: .soft(999))
            try solver.suggestValue(v[5], 3)
            return (solver.dump(), solver.statistics.pivots)
        }
        let (a, pa) = try run(), (b, pb) = try run()
        #expect(a == b && pa == pb)
    }

    @Test("a stable tableau dump")
    func dumpSnapshot() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x"), y = solver.makeVariable("y")
        try solver.addConstraint(eq([(x, 1), (y, -1)], -10, .required, .greaterThanOrEqual))  // x >= y + 10
        try solver.addConstraint(eq([(y, 1)], -5, .soft(250)))  // y = 5 @ 250
        // x's row names y, a basic external of lower rank (the DAG of
        // external rows): y's later definition was not substituted into it.
        #expect(solver.dump() == """
            rows:
              v0[x] = 10 + 1 v1[y] + 1 s2
              v1[y] = 5 + 1 e3 - 1 e4
            objective:
              level 250 (1 constraints): 0 + 1 e3 + 1 e4
            edits: 

            """)
    }

    @Test("reset keeps variables and drops everything else")
    func reset() throws {
        var solver = CassowarySolver()
        let x = solver.makeVariable("x")
        let c = try solver.addConstraint(eq([(x, 1)], -4))
        solver.reset()
        #expect(!solver.hasConstraint(c))
        try solver.addConstraint(c)  // its handle still adds it
        solver.updateVariables()
        #expect(solver.value(of: x) == 4)
        try solver.removeConstraint(c)
        try solver.addConstraint(eq([(x, 1)], -6))
        solver.updateVariables()
        #expect(solver.value(of: x) == 6)
    }

    @Test("variable names (kept only for the variables that have one) name rows and edits, before and after a reset")
    func variableNames() throws {
        var solver = CassowarySolver()
        let a = solver.makeVariable("a"), unnamed = solver.makeVariable(), c = solver.makeVariable("c")
        try solver.addConstraint(eq([(a, 1), (unnamed, -1)], -3))
        try solver.addConstraint(eq([(c, 1), (unnamed, -1)], -5))
        try solver.addEditVariable(c, strength: .soft(1000))
        for when in ["before", "after"] {
            let dump = solver.dump()
            #expect(dump.contains("[a]") && dump.contains("[c]") && !dump.contains("[]"), "\(when) reset:\n\(dump)")
            #expect(dump.contains("edits: c=") || when == "after", "\(when) reset:\n\(dump)")
            #expect(solver.name(of: a) == "a" && solver.name(of: unnamed) == "" && solver.name(of: c) == "c")
            solver.reset()
            try solver.addConstraint(eq([(a, 1), (unnamed, -1)], -3))
            try solver.addConstraint(eq([(c, 1), (unnamed, -1)], -5))
        }
    }

    @Test("removing a required equality: dropped in O(1) when nothing absorbed its row, else rebuilt")
    func equalityRemovalPaths() throws {
        var solver = CassowarySolver()
        let a = solver.makeVariable("a"), b = solver.makeVariable("b"), c = solver.makeVariable("c")
        try solver.addConstraint(eq([(a, 1)], -10))
        // b is fresh: solved for b, nothing else uses b's row.
        let tie = try solver.addConstraint(eq([(b, 1), (a, -1)], -5))
        try solver.removeConstraint(tie)
        #expect(solver.statistics.rebuilds == 0)
        // Now c refers to b after b's row exists: removing b = a + 5 must rebuild.
        let tie2 = try solver.addConstraint(eq([(b, 1), (a, -1)], -5))
        try solver.addConstraint(eq([(c, 1), (b, -1)], 0, .required, .greaterThanOrEqual))
        try solver.addConstraint(eq([(c, 1)], 0, .soft(1)))
        try solver.removeConstraint(tie2)
        #expect(solver.statistics.rebuilds == 1)
        solver.updateVariables()
        // Without b = a + 5: c >= b, c = 0 (soft): b is free, so c = 0 is reachable.
        #expect(solver.value(of: c) == 0)
        #expect(solver._checkInvariants().isEmpty)
    }

    @Test("records keep their definitions through removals that compact the term arena")
    func recordsSurviveCompaction() throws {
        // 1,201 constraints of two terms each (the first one); removing 800 of
        // them leaves 1,600 of 2,401 arena terms unused, past the compaction
        // threshold (over 1,024 and over half), so the kept records' terms move.
        var solver = CassowarySolver()
        let n = 400
        let xs = (0...n).map { solver.makeVariable("x\($0)") }
        var kept: [CassowaryConstraint] = []
        var dropped: [CassowaryConstraint] = []
        try solver.addConstraint(eq([(xs[0], 1)], -1))
        for i in 1...n {
            kept.append(try solver.addConstraint(eq([(xs[i], 1), (xs[i - 1], -1)], -2, .required, .equal, "chain \(i)")))
            dropped.append(try solver.addConstraint(eq([(xs[i], 1), (xs[i - 1], -1)], -100, .soft(1))))
            dropped.append(try solver.addConstraint(eq([(xs[i], 1), (xs[0], -1)], 0, .required, .greaterThanOrEqual)))
        }
        let arenaBefore = solver.terms.count
        for c in dropped { try solver.removeConstraint(c) }
        #expect(solver.terms.count < arenaBefore)  // compacted
        #expect(solver.terms.unused <= solver.terms.count / 2 + 1024)
        solver.updateVariables()
        #expect(solver.value(of: xs[n]) == 1 + 2 * Double(n))
        // Rebuilding from the records (reset re-adds by handle) gives the same answer,
        // so every kept record still has its own terms, constant and label.
        solver.reset()
        for c in kept { try solver.addConstraint(c) }
        try solver.addConstraint(eq([(xs[0], 1)], -1))
        solver.updateVariables()
        #expect(solver.value(of: xs[n]) == 1 + 2 * Double(n))
        #expect(solver.value(of: xs[n / 2]) == 1 + Double(n))
        // A dropped one comes back by its handle with its own definition.
        try solver.addConstraint(dropped[0])
        solver.updateVariables()
        #expect(solver.value(of: xs[1]) == 3)
        #expect(solver._checkInvariants().isEmpty)
    }
}
