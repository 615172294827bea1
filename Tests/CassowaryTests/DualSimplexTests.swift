@testable import Cassowary
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

/// The dual simplex takes the most infeasible row first (ties by id); past a
/// few it queues them in a heap (``InfeasibleQueue``) instead of walking the
/// set per pivot, and after many pivots it falls back to the lowest id.
@Suite("Dual simplex: infeasible rows in order")
struct DualSimplexTests {
    @Test("the queue gives the least (key, id) among current entries, as sorting does", arguments: UInt64(1)...8)
    func queueOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var queue = InfeasibleQueue()
        // The live key of each id (nil: not waiting); entries pushed with an
        // older key are stale and must be skipped.
        var live: [Int32: Double] = [:]
        let current: (Int32, Double) -> Bool = { id, key in live[id] == key }
        var popped = 0, staleSkipped = 0
        for _ in 0..<3_000 {
            if rng.next() % 3 == 0 {
                let expected = live.min { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }
                let before = queue.count
                let top = queue.pop(isCurrent: current)
                #expect(top == expected?.key, "seed \(seed)")
                if let top {
                    staleSkipped += before - queue.count - 1
                    live[top] = nil
                    popped += 1
                }
            } else {
                let id = Int32(truncatingIfNeeded: rng.next() % 300)
                // Few distinct keys, so that ties by id are common.
                let key = -Double(rng.next() % 40)
                live[id] = key
                queue.push(key, id)
            }
        }
        var drained = Set<Int32>()
        queue.drain(into: &drained, isCurrent: current)
        #expect(drained == Set(live.keys), "seed \(seed)")
        #expect(queue.count == 0 && popped > 300 && staleSkipped > 0, "seed \(seed): \(popped) popped, \(staleSkipped) stale")
    }

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

    @Test("""
          a resize that makes many rows infeasible goes through the heap to the optimum a fresh load gives, \
          as does the lowest id (Bland's rule) from the start or from a run's middle, with more pivots
          """, arguments: [UInt64(1)])
    func resizeThroughHeap(seed: UInt64) throws {
        // (The fresh loads are the same for the three runs: made once.)
        var fresh: [Double: CassowarySolver] = [:]
        let mostInfeasible = try resizeAndCompare(seed: seed, pivotsBeforeBland: nil, fresh: &fresh)
        #expect(mostInfeasible.heapRuns > 0, "seed \(seed): no resize made more than \(CassowarySolver.dualHeapThreshold) rows infeasible")
        #expect(mostInfeasible.blandRuns == 0, "seed \(seed): a resize of a random layout fell back to the lowest id")
        let lowestID = try resizeAndCompare(seed: seed, pivotsBeforeBland: 0, fresh: &fresh)
        let switched = try resizeAndCompare(seed: seed, pivotsBeforeBland: 5, fresh: &fresh)
        #expect(lowestID.blandRuns == 2 && lowestID.heapRuns == 0)
        // (From the middle: the heap's waiting rows go back to the set.)
        #expect(switched.blandRuns == 2 && switched.heapRuns > 0)
        // What the rule is for: fewer pivots than the lowest id's.
        #expect(mostInfeasible.pivots < lowestID.pivots,
                "seed \(seed): \(mostInfeasible.pivots) pivots most infeasible first, \(lowestID.pivots) lowest id first")
    }

    /// Loads a random layout of 200 views with its width edit, resizes it
    /// to half and to 1.7 times its width, and checks each resize against a
    /// fresh load at that width (required rows hold, the container width
    /// and every strength's errors match; `fresh` keeps the fresh loads by
    /// width for the next call). Returns what the dual simplex did.
    private func resizeAndCompare(seed: UInt64, pivotsBeforeBland: Int?, fresh freshLoads: inout [Double: CassowarySolver]) throws
        -> (heapRuns: Int, blandRuns: Int, pivots: Int) {
        // (Debug builds check every invariant after every add: 200 views
        // keep the test short and still make more than 32 rows infeasible (120 did not).)
        let layout = try RandomFeasible.layout(views: 200, seed: seed)
        let system = try layout.lowered()
        func load(width: Double) throws -> (CassowarySolver, [CassowaryVariable]) {
            try StressTests.loadWithWidthEdit(system, width: width)
        }
        var (resized, variables) = try load(width: system.size.width)
        resized.dualPivotsBeforeBland = pivotsBeforeBland
        let pivotsBefore = resized.tableau.pivotCount
        for width in [system.size.width * 0.5, system.size.width * 1.7] {
            try resized.suggestValue(variables[2], width)
            resized.updateVariables()
            let fresh = try freshLoads[width] ?? load(width: width).0
            freshLoads[width] = fresh
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
        return (resized.dualHeapRuns, resized.dualBlandRuns, resized.tableau.pivotCount - pivotsBefore)
    }
}
