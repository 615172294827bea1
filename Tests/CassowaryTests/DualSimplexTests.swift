@testable import Cassowary
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

/// The dual simplex takes infeasible rows lowest id first; past a few it
/// queues them in a heap (``IDHeap``) instead of walking the set per pivot.
@Suite("Dual simplex: infeasible rows in order")
struct DualSimplexTests {
    @Test("the heap gives ids out in the caller's order, as sorting does", arguments: UInt64(1)...8)
    func heapOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var heap = IDHeap()
        var reference: [Int32] = []
        let lowestFirst: (Int32, Int32) -> Bool = { $0 < $1 }
        var popped = 0
        for _ in 0..<2_000 {
            if rng.next() % 3 == 0, let top = heap.pop(by: lowestFirst) {
                #expect(top == reference.min(), "seed \(seed)")
                reference.remove(at: reference.firstIndex(of: top) ?? 0)
                popped += 1
            } else {
                let id = Int32(truncatingIfNeeded: rng.next() % 500)
                heap.push(id, by: lowestFirst)
                reference.append(id)
            }
        }
        // A rank-like order (a key, ties by id), as the flattening uses.
        let key: (Int32) -> Int32 = { ($0 * 7) % 11 }
        let byKey: (Int32, Int32) -> Bool = { key($0) != key($1) ? key($0) > key($1) : $0 < $1 }
        var drained: [Int32] = []
        heap.removeAll()
        for id in reference { heap.push(id, by: byKey) }
        while let id = heap.pop(by: byKey) { drained.append(id) }
        #expect(drained == reference.sorted(by: byKey), "seed \(seed)")
        #expect(popped > 100 && heap.isEmpty)
    }

    @Test("a resize that makes many rows infeasible goes through the heap to the optimum a fresh load gives",
          arguments: [UInt64(1)])
    func resizeThroughHeap(seed: UInt64) throws {
        // (Debug builds check every invariant after every add: 200 views
        // keep the test short and still make more than 32 rows infeasible (120 did not).)
        let layout = try RandomFeasible.layout(views: 200, seed: seed)
        let system = try layout.lowered()
        func load(width: Double) throws -> (CassowarySolver, [CassowaryVariable]) {
            try StressTests.loadWithWidthEdit(system, width: width)
        }
        var (resized, variables) = try load(width: system.size.width)
        var heapRuns = 0
        for width in [system.size.width * 0.5, system.size.width * 1.7] {
            try resized.suggestValue(variables[2], width)
            resized.updateVariables()
            heapRuns = resized.dualHeapRuns
            let (fresh, _) = try load(width: width)
            // Random layouts leave some views free on the optimal face, where
            // two paths may stop at different points: compare the required
            // rows' residuals and each level's optimum instead of frames.
            for d in StressTests.definitions(of: system)
            where d.strength == .required && !(d.terms.count == 1 && d.terms[0].variable == variables[2]) {
                var residual = d.constant
                for term in d.terms { residual += term.coefficient * resized.value(of: variables[term.variable.id]) }
                let satisfied: Bool
                switch d.relation {
                case .equal: satisfied = abs(residual) <= 1e-6 * max(1, abs(d.constant))
                case .lessThanOrEqual: satisfied = residual <= 1e-6 * max(1, abs(d.constant))
                case .greaterThanOrEqual: satisfied = residual >= -1e-6 * max(1, abs(d.constant))
                }
                #expect(satisfied, "seed \(seed), width \(width): a required row is violated after the resize: \(d.relation), residual \(residual)")
            }
            #expect(abs(resized.value(of: variables[2]) - fresh.value(of: variables[2])) <= 1e-9 * width)
            func errors(_ solver: CassowarySolver) -> [Double: Double] {
                var out: [Double: Double] = [:]
                for d in StressTests.definitions(of: system) {
                    guard case .soft(let strength) = d.strength else { continue }
                    var residual = d.constant
                    for term in d.terms { residual += term.coefficient * solver.value(of: variables[term.variable.id]) }
                    let error: Double
                    switch d.relation {
                    case .equal: error = abs(residual)
                    case .lessThanOrEqual: error = max(0, residual)
                    case .greaterThanOrEqual: error = max(0, -residual)
                    }
                    out[strength, default: 0] += error
                }
                return out
            }
            // The optimum of every level is unique, whatever the path: the
            // errors of each strength's constraints, from the values. (Not
            // the objective rows' constants, which an edit does not update.)
            let got = errors(resized), expected = errors(fresh)
            #expect(got.keys.sorted() == expected.keys.sorted())
            for (strength, error) in expected {
                let other = got[strength] ?? .nan
                #expect(abs(other - error) <= 1e-6 * max(1, error),
                        "seed \(seed), width \(width): errors at strength \(strength): \(other) resized, \(error) fresh")
            }
        }
        #expect(heapRuns > 0, "seed \(seed): no resize made more than \(CassowarySolver.dualHeapThreshold) rows infeasible")
    }
}
