@testable import Cassowary
import LayoutTestSupport
import Testing

/// Random sequences of add / remove / suggest, each step checked against a
/// solver built fresh from the same constraints: the same per-level optimum
/// and every required constraint holding. Seeded and replayable: a failure
/// names its seed and step.
@Suite("Incremental consistency")
struct IncrementalConsistencyTests {
    struct Model {
        var definitions: [(handle: CassowaryConstraint, definition: ConstraintDefinition)] = []
        var edits: [Int: (strength: Strength, value: Double)] = [:]
    }

    static let variableCount = 6

    static func randomDefinition(_ rng: inout SplitMix64, variables: [CassowaryVariable], softOnly: Bool = false)
        -> ConstraintDefinition
    {
        let count = Int.random(in: 1...3, using: &rng)
        let picked = variables.shuffled(using: &rng).prefix(count)
        let coefficients: [Double] = [-2, -1, -0.5, 0.5, 1, 2, 3]
        let terms = picked.map { ($0, coefficients.randomElement(using: &rng) ?? 1) }
        let relation: CassowaryRelation = [.equal, .lessThanOrEqual, .greaterThanOrEqual].randomElement(using: &rng) ?? .equal
        let strengths: [Strength] = softOnly ? [.soft(1), .soft(250), .soft(750)] : [.required, .required, .soft(1), .soft(250), .soft(750)]
        return ConstraintDefinition(terms: terms, constant: Double(Int.random(in: -50...50, using: &rng)), relation: relation,
                                    strength: strengths.randomElement(using: &rng) ?? .required)
    }

    /// Per-strength error sums of an assignment, and the worst required violation.
    static func evaluate(_ definitions: [ConstraintDefinition], _ value: (CassowaryVariable) -> Double)
        -> (levels: [Double: Double], requiredViolation: Double)
    {
        var levels: [Double: Double] = [:]
        var worst = 0.0
        for d in definitions {
            let e = d.terms.reduce(d.constant) { $0 + $1.coefficient * value($1.variable) }
            let violation: Double = switch d.relation {
            case .equal: abs(e)
            case .lessThanOrEqual: max(0, e)
            case .greaterThanOrEqual: max(0, -e)
            }
            switch d.strength {
            case .required: worst = max(worst, violation)
            case .soft(let s): levels[s, default: 0] += violation
            }
        }
        return (levels, worst)
    }

    /// The definitions a model stands for, edits as soft equalities.
    static func allDefinitions(_ model: Model, _ variables: [CassowaryVariable]) -> [ConstraintDefinition] {
        model.definitions.map(\.definition) + model.edits.keys.sorted().compactMap { id in
            model.edits[id].map { ConstraintDefinition(terms: [(variables[id], 1)], constant: -$0.value, relation: .equal,
                                                       strength: $0.strength) }
        }
    }

    static func fresh(_ model: Model, variableCount: Int = variableCount) throws -> CassowarySolver {
        var solver = CassowarySolver()
        let variables = (0..<variableCount).map { solver.makeVariable("v\($0)") }
        for (_, d) in model.definitions { try solver.addConstraint(d) }
        for id in model.edits.keys.sorted() {
            guard let edit = model.edits[id] else { continue }
            try solver.addEditVariable(variables[id], strength: edit.strength)
            try solver.suggestValue(variables[id], edit.value)
        }
        solver.updateVariables()
        return solver
    }

    static func compare(_ solver: CassowarySolver, _ model: Model, _ variables: [CassowaryVariable], _ context: String,
                        variableCount: Int = variableCount) throws {
        let definitions = allDefinitions(model, variables)
        let incremental = evaluate(definitions) { solver.value(of: $0) }
        let reference = try fresh(model, variableCount: variableCount)
        let expected = evaluate(definitions) { reference.value(of: $0) }
        #expect(incremental.requiredViolation <= 1e-6, "\(context): required violated by \(incremental.requiredViolation)")
        for (strength, error) in expected.levels {
            let got = incremental.levels[strength] ?? 0
            #expect(abs(got - error) <= 1e-6 * max(1, abs(error)), "\(context): level \(strength) error \(got), fresh \(error)")
        }
        #expect(solver._checkInvariants().isEmpty, "\(context): \(solver._checkInvariants().prefix(3))")
    }

    @Test("random add / remove / suggest sequences match a fresh solve after every step", arguments: UInt64(1)...25)
    func randomSequences(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var solver = CassowarySolver()
        let variables = (0..<Self.variableCount).map { solver.makeVariable("v\($0)") }
        var model = Model()
        for step in 0..<60 {
            let context = "seed \(seed) step \(step)"
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let definition = Self.randomDefinition(&rng, variables: variables)
                let before = solver.dump()
                do {
                    let handle = try solver.addConstraint(definition)
                    model.definitions.append((handle, definition))
                } catch {
                    guard case .unsatisfiable(_, let conflict) = error else { throw error }
                    #expect(solver.dump() == before, "\(context): solver changed by a failed add")
                    // The explanation plus the new constraint must really conflict, minus any member must not.
                    let members = model.definitions.filter { conflict.contains($0.handle) }.map(\.definition) + [definition]
                    #expect(!CassowarySolver.feasible(members.indices, members, Self.variableCount), "\(context)")
                    for drop in members.indices.dropLast() {
                        let rest = members.indices.filter { $0 != drop }
                        #expect(CassowarySolver.feasible(rest, members, Self.variableCount), "\(context): conflict not minimal")
                    }
                }
            case 5..<7:
                guard !model.definitions.isEmpty else { continue }
                let i = Int.random(in: 0..<model.definitions.count, using: &rng)
                try solver.removeConstraint(model.definitions[i].handle)
                model.definitions.remove(at: i)
            case 7:
                let v = Int.random(in: 0..<Self.variableCount, using: &rng)
                if model.edits[v] == nil {
                    let strength = Strength.soft([100.0, 999].randomElement(using: &rng) ?? 100)
                    try solver.addEditVariable(variables[v], strength: strength)
                    solver.updateVariables()
                    model.edits[v] = (strength, solver.value(of: variables[v]))
                } else {
                    try solver.removeEditVariable(variables[v])
                    model.edits[v] = nil
                }
            default:
                guard let v = model.edits.keys.sorted().randomElement(using: &rng), let edit = model.edits[v] else { continue }
                let value = Double(Int.random(in: -100...100, using: &rng))
                try solver.suggestValue(variables[v], value)
                model.edits[v] = (edit.strength, value)
            }
            solver.updateVariables()
            try Self.compare(solver, model, variables, context)
        }
        // Debug builds check the invariants after every mutation; none may have failed.
        #expect(InvariantLog.take().isEmpty)
    }

    @Test("removing soft constraints leaves the solver as if it never had them", arguments: UInt64(1)...20)
    func softRemoval(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var solver = CassowarySolver()
        let variables = (0..<Self.variableCount).map { solver.makeVariable("v\($0)") }
        var kept: [ConstraintDefinition] = []
        var temporary: [CassowaryConstraint] = []
        for _ in 0..<12 {
            let definition = Self.randomDefinition(&rng, variables: variables, softOnly: true)
            let handle = try solver.addConstraint(definition)
            if Bool.random(using: &rng) { temporary.append(handle) } else { kept.append(definition) }
        }
        for handle in temporary.shuffled(using: &rng) { try solver.removeConstraint(handle) }
        solver.updateVariables()
        var never = CassowarySolver()
        for _ in 0..<Self.variableCount { _ = never.makeVariable() }
        for d in kept { try never.addConstraint(d) }
        never.updateVariables()
        let a = Self.evaluate(kept) { solver.value(of: $0) }, b = Self.evaluate(kept) { never.value(of: $0) }
        for (strength, error) in b.levels {
            #expect(abs((a.levels[strength] ?? 0) - error) <= 1e-6 * max(1, error), "seed \(seed) level \(strength)")
        }
        #expect(solver._checkInvariants().isEmpty)
        #expect(solver.statistics.symbols == never.statistics.symbols, "seed \(seed): symbols leaked by removal")
    }

    @Test("making variables in one call is making them one at a time: the same ids, names and tableau, freed ids reused first")
    func variablesInOneCall() throws {
        var rng = SplitMix64(seed: 17)
        var solver = CassowarySolver()
        let variables = (0..<Self.variableCount).map { solver.makeVariable("v\($0)") }
        // Removed constraints free their slack and error ids: the next
        // symbols take them, last freed first.
        var handles: [CassowaryConstraint] = []
        for _ in 0..<40 {
            if let h = try? solver.addConstraint(Self.randomDefinition(&rng, variables: variables)) { handles.append(h) }
        }
        for h in handles.shuffled(using: &rng).prefix(25) { try solver.removeConstraint(h) }
        var one = solver, batch = solver
        let names = ["a", "", "c"]
        let made = (0..<50).map { one.makeVariable($0 < names.count ? names[$0] : "") }
        let batched = batch.makeVariables(50, names: names)
        #expect(batched == made)
        #expect(batched.map { batch.variableSymbols[$0.id].id } == made.map { one.variableSymbols[$0.id].id })
        #expect(batch.dump() == one.dump())
        #expect(batch.statistics == one.statistics)
        #expect(batch._checkInvariants().isEmpty)
    }

    @Test("removing everything returns the tableau to its baseline (no leaked symbols)")
    func baseline() throws {
        var rng = SplitMix64(seed: 7)
        var solver = CassowarySolver()
        let variables = (0..<Self.variableCount).map { solver.makeVariable("v\($0)") }
        let baseline = solver.statistics
        var handles: [CassowaryConstraint] = []
        for _ in 0..<40 {
            if let h = try? solver.addConstraint(Self.randomDefinition(&rng, variables: variables)) { handles.append(h) }
        }
        try solver.addEditVariable(variables[0], strength: .soft(10))
        try solver.suggestValue(variables[0], 42)
        for h in handles.shuffled(using: &rng) { try solver.removeConstraint(h) }
        try solver.removeEditVariable(variables[0])
        #expect(solver.statistics.symbols == baseline.symbols)
        #expect(solver.statistics.rows == 0 && solver.statistics.cells == 0)
        #expect(solver._checkInvariants().isEmpty)
    }
}
