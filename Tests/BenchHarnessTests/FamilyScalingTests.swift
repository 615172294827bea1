import BenchHarness
import BenchMetrics
import BenchSchema
import Foundation
import LayoutGenerators
import LayoutModel
import LayoutSolving
import Testing

/// `scaling --family`: exponents per family, solver and phase, the flag
/// above 1.15, and every family measured end to end at small sizes.
@Suite("Growth per family")
struct FamilyScalingTests {
    /// Measurements whose phases grow as size^k exactly.
    static func synthetic(_ family: ScalingFamily, solver: String = "s", sizes: [Int], load: Double, solve: Double,
                          resize: Double) -> [ScalingMeasurement] {
        sizes.map { n in
            let x = Double(n)
            return ScalingMeasurement(family: family, solver: solver, size: n, constraints: 4 * n, load: 1e-6 * pow(x, load),
                                      solve: 1e-7 * pow(x, solve), resize: 1e-8 * pow(x, resize))
        }
    }

    @Test("exponents are the slopes; only those above 1.15 are flagged, from 10^3 to 10^4")
    func exponentsAndFlags() {
        let linear = Self.synthetic(.alternatingGrid, sizes: [100, 1000, 3000, 10000], load: 1.0, solve: 1.1, resize: 1.0)
        let quadratic = Self.synthetic(.equalRow, sizes: [1000, 3000, 10000], load: 2.0, solve: 1.0, resize: 1.2)
        let all = linear + quadratic
        let deciding = FamilyScaling.decidingExponents(all)
        #expect(deciding.count == 6)
        for e in deciding {
            #expect(e.fromSize == 1000 && e.toSize == 10000)
        }
        func exponent(_ f: ScalingFamily, _ p: Phase) -> Double? { deciding.first { $0.family == f && $0.phase == p }?.exponent }
        #expect(abs((exponent(.alternatingGrid, .solve) ?? 0) - 1.1) < 1e-9)
        #expect(abs((exponent(.equalRow, .load) ?? 0) - 2.0) < 1e-9)
        #expect(deciding.filter(\.flagged).map { "\($0.family.rawValue) \($0.phase)" } == ["equal-row load", "equal-row resize"])
        // Between successive sizes: 3 pairs for the grid, 2 for the row, per phase.
        #expect(FamilyScaling.exponents(all).count == (3 + 2) * 3)
        let summary = FamilyScaling.summary(all)
        #expect(summary.contains("FLAGGED: equal-row on s, load grows as size^2.00 from 1000 to 10000 views"))
        #expect(!summary.contains("alternating-grid"))
        #expect(FamilyScaling.summary(linear).hasPrefix("No family grows faster"))
        let markdown = FamilyScaling.markdown(all)
        #expect(markdown.contains("| equal-row | 1000 → 10000 | 2.00 ⚑ | 1.00 | 1.20 ⚑ |"))
        // Beside them, the largest size within a frame: the grid's 10^4 takes
        // 10 ms + 2.5 ms (within 16.7, not 8.3); the row's 10^3 already 1 s.
        #expect(markdown.contains("| alternating-grid (rows) | 3000 / 10000 |"))
        #expect(markdown.contains("| equal-row (views) | none / none |"))
    }

    @Test("without both 10^3 and 10^4, from the smallest size of at least 10^3 to the largest")
    func otherSizes() {
        let points = Self.synthetic(.selfSizingRows, sizes: [100, 2000, 5000], load: 1.3, solve: 1.0, resize: 1.0)
        let deciding = FamilyScaling.decidingExponents(points)
        #expect(deciding.allSatisfy { $0.fromSize == 2000 && $0.toSize == 5000 })
        #expect(deciding.filter(\.flagged).map(\.phase) == [.load])
        let small = Self.synthetic(.selfSizingRows, sizes: [10, 20], load: 1.0, solve: 1.0, resize: 1.0)
        #expect(FamilyScaling.decidingExponents(small).allSatisfy { $0.fromSize == 10 && $0.toSize == 20 })
        #expect(FamilyScaling.decidingExponents(Array(small.prefix(1))).isEmpty)
    }

    /// A measurement at `size` from its rounds' seconds (every phase the same series).
    static func measured(_ family: ScalingFamily, size: Int, rounds: [Double]) -> ScalingMeasurement {
        let r = RoundSeconds(load: rounds, solve: rounds, resize: rounds)
        let m = r.medians(seed: 1, constraints: size)
        return ScalingMeasurement(family: family, solver: "s", size: size, constraints: size, load: m.load, solve: m.solve,
                                  resize: m.resize, rounds: r)
    }

    @Test("an exponent's interval comes from the rounds, each round's sizes resampled together; the summary reads it against 1.15")
    func exponentIntervals() throws {
        // A drift that moves each round's two sizes alike (up to 2x) cancels
        // in the pairing: every round's exponent is 1.0, and so is the interval.
        let drift = [1.0, 2.0, 0.7, 1.4, 1.1]
        let paired = [Self.measured(.alternatingGrid, size: 1000, rounds: drift.map { 1e-3 * $0 }),
                      Self.measured(.alternatingGrid, size: 10000, rounds: drift.map { 1e-2 * $0 })]
        let grid = try #require(FamilyScaling.decidingExponents(paired).first)
        #expect(abs((grid.exponent ?? 0) - 1) < 1e-9 && grid.rounds == 5)
        #expect(abs((grid.low ?? 0) - 1) < 1e-9 && abs((grid.high ?? 0) - 1) < 1e-9)
        #expect(grid.standing == .below && !grid.flagged)
        // Noise that does not cancel: rounds' exponents 1.05-1.31 around an
        // estimate above 1.15, the threshold inside the interval.
        func noisy(_ family: ScalingFamily, _ k: [Double]) -> [ScalingMeasurement] {
            [Self.measured(family, size: 1000, rounds: k.map { _ in 1e-3 }),
             Self.measured(family, size: 10000, rounds: k.map { 1e-3 * pow(10, $0) })]
        }
        let straddling = noisy(.selfSizingRows, [1.05, 1.31, 1.18, 1.10, 1.24])
        let near = noisy(.decoratedGrid, [1.05, 1.02, 1.12, 1.09, 1.22])
        let above = noisy(.equalRow, [1.52, 1.60, 1.49, 1.55, 1.58])
        let all = paired + straddling + near + above
        let deciding = FamilyScaling.decidingExponents(all).filter { $0.phase == .solve }
        func of(_ f: ScalingFamily) throws -> GrowthExponent { try #require(deciding.first { $0.family == f }) }
        for (family, estimate, standing) in [(ScalingFamily.selfSizingRows, 1.18, ThresholdStanding.straddling),
                                             (.decoratedGrid, 1.09, .straddling), (.equalRow, 1.55, .above)] {
            let e = try of(family)
            #expect(abs((e.exponent ?? 0) - estimate) < 1e-9, "\(family)")
            #expect(e.standing == standing, "\(family)")
            let (low, high) = (e.low ?? .nan, e.high ?? .nan)
            #expect(low < estimate && estimate < high, "\(family): \(low) … \(high)")
        }
        let summary = FamilyScaling.summary(all)
        #expect(summary.contains("FLAGGED: equal-row on s, solve grows as size^1.55 from 1000 to 10000 views (95% interval 1.49 … "))
        #expect(summary.contains("over 5 rounds, wholly above 1.15: beyond the rounds' noise)"))
        #expect(summary.contains("FLAGGED: self-sizing-rows on s, solve grows as size^1.18"))
        #expect(summary.contains("1.15 inside it: the rounds' noise alone can put the estimate on either side)"))
        #expect(summary.contains("NEAR: decorated-grid on s, solve grows as size^1.09"))
        #expect(!summary.contains("alternating-grid") && !summary.contains("No family"))
        let markdown = FamilyScaling.markdown(paired + above)
        #expect(markdown.contains("| alternating-grid | 1000 → 10000 | 1.00 (1.00 … 1.00) | 1.00 (1.00 … 1.00) | 1.00 (1.00 … 1.00) |"))
        #expect(markdown.contains("| equal-row | 1000 → 10000 | 1.55 (1.49 … 1.60) ⚑ |"))
        // One round, or rounds that do not pair: no interval, and the summary says so.
        let one = [Self.measured(.equalRow, size: 1000, rounds: [1e-3]), Self.measured(.equalRow, size: 10000, rounds: [1e-1])]
        #expect(FamilyScaling.decidingExponents(one).allSatisfy { $0.low == nil && $0.standing == nil && $0.flagged })
        #expect(FamilyScaling.summary(one).contains("size^2.00 from 1000 to 10000 views (one round: no interval)"))
        let unequal = [Self.measured(.equalRow, size: 1000, rounds: [1e-3, 1e-3]),
                       Self.measured(.equalRow, size: 10000, rounds: [1e-2, 1e-2, 1e-2])]
        #expect(FamilyScaling.exponentInterval(.load, unequal[0], unequal[1]) == nil)
        // The document keeps rounds and intervals.
        let document = FamilyScalingDocument(measurements: all, exponents: FamilyScaling.exponents(all),
                                             deciding: FamilyScaling.decidingExponents(all))
        let decoded = try JSONDecoder().decode(FamilyScalingDocument.self, from: try JSONEncoder().encode(document))
        #expect(decoded.measurements == all && decoded.deciding == document.deciding)
    }

    @Test("a random family's interval resamples the rounds of every instance together")
    func instanceIntervals() throws {
        // Two instances; in each round both instances and both sizes share a
        // drift, and instance 2 grows faster: the paired interval is the
        // mean's exponent alone.
        let drift = [1.0, 1.6, 0.8]
        func instance(_ seed: Int, _ size: Int, _ c: Double) -> InstanceMedians {
            RoundSeconds(load: drift.map { c * Double(size) * $0 }, solve: drift.map { c * Double(size) * $0 },
                         resize: drift.map { c * Double(size) * $0 }).medians(seed: seed, constraints: size)
        }
        let small = ScalingMeasurement(family: .randomFeasible, solver: "s", size: 1000,
                                       instances: [instance(1, 1000, 1e-6), instance(2, 1000, 1e-6)])
        let large = ScalingMeasurement(family: .randomFeasible, solver: "s", size: 10000,
                                       instances: [instance(1, 10000, 1e-6), instance(2, 10000, 3e-6)])
        let e = try #require(FamilyScaling.decidingExponents([small, large]).first { $0.phase == .resize })
        let k = log10(2.0 * 10)  // (1 + 3) / (1 + 1) times 10
        #expect(abs((e.exponent ?? 0) - k) < 1e-9 && e.rounds == 3)
        #expect(abs((e.low ?? 0) - k) < 1e-9 && abs((e.high ?? 0) - k) < 1e-9)
        // Instances that do not match by seed have no interval.
        var other = large
        other.instances?[1].seed = 7
        #expect(FamilyScaling.exponentInterval(.resize, small, other) == nil)
        var lost = large
        lost.instances?[0].rounds = nil
        #expect(lost.roundsBySeed == nil)
    }

    @Test("every family loads, solves and resizes on both built-in solvers")
    func everyFamilyMeasured() throws {
        let solvers = [SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)]
        var lines: [String] = []
        let measurements = try FamilyScaling.measure(families: ScalingFamily.allCases, sizes: [4, 8], solvers: solvers,
                                                     repetitions: 1) { lines.append($0) }
        #expect(measurements.count == ScalingFamily.allCases.count * 2 * 2)
        // A line a measurement, and a line a round (a warm-up and one) a family.
        #expect(lines.filter { $0.contains(": load ") }.count == measurements.count)
        #expect(lines.filter { $0.contains("round") }.count == ScalingFamily.allCases.count * 2)
        for m in measurements {
            #expect(m.load > 0 && m.solve > 0 && m.resize > 0, "\(m.family.rawValue) \(m.size) \(m.solver)")
            #expect(m.constraints > 0)
        }
        let document = FamilyScalingDocument(measurements: measurements, exponents: FamilyScaling.exponents(measurements),
                                             deciding: FamilyScaling.decidingExponents(measurements))
        let decoded = try JSONDecoder().decode(FamilyScalingDocument.self, from: try JSONEncoder().encode(document))
        #expect(decoded.measurements == measurements)
        #expect(decoded.order == nil)
        // The order a run used is in its document; one written before the
        // option existed (no `order`) still reads.
        var shuffled = document
        shuffled.order = .shuffled
        let text = String(decoding: try JSONEncoder().encode(shuffled), as: UTF8.self)
        #expect(text.contains("\"order\":\"shuffled\""))
        #expect(try JSONDecoder().decode(FamilyScalingDocument.self, from: Data(text.utf8)).order == .shuffled)
    }

    @Test("an insertion order permutes the constraints alone, the same way every time")
    func insertionOrders() throws {
        let layout = try ScalingFamily.alternatingGrid.layout(size: 6)
        let ids = layout.constraints.map { "\($0)" }
        #expect(ConstraintOrder.file.apply(to: layout) == layout)
        let reversed = ConstraintOrder.reversed.apply(to: layout)
        #expect(reversed.constraints.map { "\($0)" } == ids.reversed())
        let shuffled = ConstraintOrder.shuffled.apply(to: layout)
        #expect(shuffled.constraints.map { "\($0)" } != ids)
        #expect(shuffled.constraints.map { "\($0)" }.sorted() == ids.sorted())
        #expect(ConstraintOrder.shuffled.apply(to: layout) == shuffled)
        for other in [reversed, shuffled] {
            #expect(other.views == layout.views)
            #expect(other.expectations == layout.expectations)
            #expect(other.container == layout.container)
        }
    }

    @Test("the families with one answer give it in every insertion order",
          arguments: [ScalingFamily.alternatingGrid, .decoratedGrid, .selfSizingRows, .equalRow])
    func sameAnswerInEveryOrder(_ family: ScalingFamily) throws {
        let layout = try family.layout(size: 12)
        func frames(_ order: ConstraintOrder) throws -> [Frame] {
            let solver = SolverSpec(name: "cassowary", kind: .cassowary).make(timeout: 60, ambiguity: false)
            try solver.prepare(try order.apply(to: layout).validated(), variant: nil)
            return try solver.solve().frames
        }
        let file = try frames(.file)
        for order in [ConstraintOrder.reversed, .shuffled] {
            let other = try frames(order)
            #expect(other.count == file.count)
            for (a, b) in zip(file, other) {
                let gap = max(abs(a.x - b.x), abs(a.y - b.y), abs(a.width - b.width), abs(a.height - b.height))
                #expect(gap <= 1e-7, "\(family.rawValue) \(order.rawValue): \(a) against \(b)")
            }
        }
    }

    @Test("a random family's time is the mean of its instances' medians; each instance's exponent is listed beside the mean's")
    func instancesSynthetic() throws {
        // Two instances whose resizes grow as size^1.0 and size^1.4, from
        // different constants: the mean's exponent lies between.
        func instance(_ seed: Int, _ size: Int, _ k: Double, _ c: Double) -> InstanceMedians {
            InstanceMedians(seed: seed, constraints: 5 * size + seed, load: 1e-6 * Double(size), solve: 1e-7 * Double(size),
                            resize: c * pow(Double(size), k))
        }
        let measurements = [1000, 10000].map { n in
            ScalingMeasurement(family: .randomFeasible, solver: "s", size: n,
                               instances: [instance(1, n, 1.0, 4e-7), instance(2, n, 1.4, 1e-8)])
        }
        let small = measurements[0]
        #expect(small.instances?.count == 2)
        #expect(small.constraints == 5002)  // (5001 + 5002) / 2, rounded
        let resizes = (small.instances ?? []).map(\.resize)
        #expect(abs(small.resize - (resizes[0] + resizes[1]) / 2) <= 1e-15)
        let spread = FamilyScaling.instanceExponents(measurements)
        #expect(spread.count == 2 * FamilyScaling.phases.count)
        let resize = spread.filter { $0.phase == .resize }
        #expect(resize.map(\.seed) == [1, 2])
        #expect(abs((resize[0].exponent ?? 0) - 1.0) < 1e-9 && abs((resize[1].exponent ?? 0) - 1.4) < 1e-9)
        let mean = FamilyScaling.decidingExponents(measurements).first { $0.phase == .resize }?.exponent ?? 0
        #expect(mean > 1.0 && mean < 1.4)
        let markdown = FamilyScaling.markdown(measurements)
        #expect(markdown.contains("| random-feasible | s | resize | 1000 → 10000 | 2 (1-2) | "
                                  + String(format: "%.2f", mean) + (mean > FamilyScaling.flagThreshold ? " ⚑" : "")
                                  + " | 1.00 … 1.40 (median 1.20) | 1 of 2 |"))
        // A family with one layout a size has no instance table.
        let grid = Self.synthetic(.alternatingGrid, sizes: [1000, 10000], load: 1, solve: 1, resize: 1)
        #expect(FamilyScaling.instanceExponents(grid).isEmpty)
        #expect(!FamilyScaling.markdown(grid).contains("instances"))
        // The document keeps both, and one written before instances still reads.
        let document = FamilyScalingDocument(measurements: measurements, exponents: FamilyScaling.exponents(measurements),
                                             deciding: FamilyScaling.decidingExponents(measurements), instanceExponents: spread)
        let decoded = try JSONDecoder().decode(FamilyScalingDocument.self, from: try JSONEncoder().encode(document))
        #expect(decoded.measurements == measurements && decoded.instanceExponents == spread)
        let old = #"{"measurements":[{"family":"random-feasible","solver":"s","size":10,"constraints":50,"load":1,"solve":1,"resize":1}],"exponents":[],"deciding":[]}"#
        let read = try JSONDecoder().decode(FamilyScalingDocument.self, from: Data(old.utf8))
        #expect(read.measurements.first?.instances == nil && read.instanceExponents == nil)
    }

    @Test("a random family is measured on each instance (seeds 1 to N), held or made again per sample; the other families on their one layout",
          arguments: [FamilyScaling.heldInstanceViews, 0])
    func instancesMeasured(heldViews: Int) throws {
        let cassowary = SolverSpec(name: "cassowary", kind: .cassowary)
        var lines: [String] = []
        let measurements = try FamilyScaling.measure(families: [.equalRow, .randomFeasible], sizes: [6, 12], solvers: [cassowary],
                                                     repetitions: 2, instances: 3, heldViews: heldViews) { lines.append($0) }
        #expect(measurements.count == 4)
        #expect(lines.filter { $0.contains(": load ") }.count == 4)
        #expect(lines.filter { $0.contains("(mean of 3 instances)") }.count == 2)
        for m in measurements where m.family == .equalRow { #expect(m.instances == nil && m.rounds?.count == 2) }
        // Two rounds at each size: every exponent has an interval.
        #expect(FamilyScaling.decidingExponents(measurements).allSatisfy { $0.rounds == 2 && $0.low != nil })
        for m in measurements where m.family == .randomFeasible {
            let instances = m.instances ?? []
            #expect(instances.map(\.seed) == [1, 2, 3])
            // Each instance is its seed's layout, and the time is their mean.
            for i in instances {
                #expect(i.constraints == (try RandomFeasible.layout(views: m.size, seed: UInt64(i.seed))).constraints.count)
                #expect(i.load > 0 && i.solve > 0 && i.resize > 0)
            }
            #expect(abs(m.load - instances.map(\.load).reduce(0, +) / 3) <= 1e-12)
            // Each instance keeps its rounds, the medians of which it holds.
            for i in instances {
                let rounds = try #require(i.rounds)
                #expect(rounds.count == 2 && i.resize == (rounds.resize[0] + rounds.resize[1]) / 2)
            }
            #expect(Set(instances.map(\.constraints)).count > 1, "three seeds, three different systems")
        }
    }
}
