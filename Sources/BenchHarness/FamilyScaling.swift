import BenchMetrics
import BenchSchema
import BenchStatistics
import Foundation
import LayoutGenerators
import LayoutModel
import LayoutSolving

/// A generated family whose size grows, as `layout-bench scaling --family`
/// measures it: the solvers' growth on each, not only on the alternating grid.
public enum ScalingFamily: String, CaseIterable, Sendable, Codable {
    case alternatingGrid = "alternating-grid"
    case decoratedGrid = "decorated-grid"
    case selfSizingRows = "self-sizing-rows"
    case equalRow = "equal-row"
    case randomFeasible = "random-feasible"

    /// What the size counts (rows of a table or grid, views of a row or a random system).
    public var sizeUnit: String {
        switch self {
        case .alternatingGrid, .decoratedGrid, .selfSizingRows: "rows"
        case .equalRow, .randomFeasible: "views"
        }
    }

    /// Whether the family draws its layouts at random (one per seed), so
    /// that one size has many instances (``FamilyScaling/measure(families:sizes:solvers:repetitions:instances:order:timeout:progress:)``).
    public var isRandom: Bool { self == .randomFeasible }

    /// The family's layout at `size`: for a random family the instance
    /// drawn with seed `instance` (1 and up); the others have one layout a size.
    /// - Throws: ``GeneratorError`` for a size the family does not make.
    /// - Complexity: O(size).
    public func layout(size: Int, instance: Int = 1) throws(GeneratorError) -> Layout {
        switch self {
        case .alternatingGrid: try AlternatingGrid.layout(rows: size)
        case .decoratedGrid: try DecoratedGrid.layout(rows: size)
        case .selfSizingRows: try SelfSizingRows.layout(rows: size)
        case .equalRow: try EqualRow.layout(count: size)
        case .randomFeasible: try RandomFeasible.layout(views: size, seed: UInt64(max(1, instance)))
        }
    }
}

/// The three phases `scaling --family` times, in seconds.
public protocol ScalingPhases {
    var load: Double { get }
    var solve: Double { get }
    var resize: Double { get }
}

extension ScalingPhases {
    /// The seconds of a phase (load, solve or resize; NaN for another).
    public func seconds(_ phase: Phase) -> Double {
        switch phase {
        case .load: load
        case .solve: solve
        case .resize: resize
        default: .nan
        }
    }
}

/// Each round's seconds of one layout on one solver, in the order of the
/// rounds (the warm-up not among them): what a median and the exponent's
/// interval are taken from.
public struct RoundSeconds: Sendable, Codable, Equatable {
    public var load: [Double] = []
    public var solve: [Double] = []
    public var resize: [Double] = []

    public init(load: [Double] = [], solve: [Double] = [], resize: [Double] = []) {
        self.load = load
        self.solve = solve
        self.resize = resize
    }

    /// The rounds measured (the shortest series', should they differ in a decoded document).
    public var count: Int { min(load.count, solve.count, resize.count) }

    mutating func append(_ sample: (load: Double, solve: Double, resize: Double)) {
        load.append(sample.load)
        solve.append(sample.solve)
        resize.append(sample.resize)
    }

    /// A phase's series (empty for a phase not measured).
    public func series(_ phase: Phase) -> [Double] {
        switch phase {
        case .load: load
        case .solve: solve
        case .resize: resize
        default: []
        }
    }

    /// The medians, with the rounds kept.
    /// - Complexity: O(rounds log rounds).
    public func medians(seed: Int, constraints: Int) -> InstanceMedians {
        func median(_ xs: [Double]) -> Double { TimingSummary.median(sorted: xs.sorted()) }
        return InstanceMedians(seed: seed, constraints: constraints, load: median(load), solve: median(solve),
                               resize: median(resize), rounds: self)
    }
}

/// One random instance's medians, of which a ``ScalingMeasurement`` of a
/// random family is the mean.
public struct InstanceMedians: ScalingPhases, Sendable, Codable, Equatable {
    /// The generator's seed.
    public var seed: Int
    public var constraints: Int
    public var load: Double
    public var solve: Double
    public var resize: Double
    /// Each round's seconds (absent in documents written before they were kept).
    public var rounds: RoundSeconds?

    public init(seed: Int, constraints: Int, load: Double, solve: Double, resize: Double, rounds: RoundSeconds? = nil) {
        self.seed = seed
        self.constraints = constraints
        self.load = load
        self.solve = solve
        self.resize = resize
        self.rounds = rounds
    }
}

/// One family at one size on one solver: the median seconds of each phase
/// (of a random family: the mean of its instances' medians).
public struct ScalingMeasurement: ScalingPhases, Sendable, Codable, Equatable {
    public var family: ScalingFamily
    public var solver: String
    public var size: Int
    public var constraints: Int
    /// Building the solver's representation (``LayoutSolver/prepare(_:variant:)``,
    /// where an incremental solver already optimises).
    public var load: Double
    /// ``LayoutSolver/solve()`` after the load: the answer.
    public var solve: Double
    /// One container-width change and re-solve (10% wider, then back; the
    /// mean of a batch of at least 10 ms).
    public var resize: Double
    /// A random family's instances at this size, by seed: the phases above
    /// (and ``constraints``, rounded) are their means. Nil for a family with
    /// one layout a size.
    public var instances: [InstanceMedians]?
    /// Each round's seconds of the family's one layout (a random family's
    /// are its instances'; absent in documents written before they were kept).
    public var rounds: RoundSeconds?

    public init(family: ScalingFamily, solver: String, size: Int, constraints: Int, load: Double, solve: Double, resize: Double,
                instances: [InstanceMedians]? = nil, rounds: RoundSeconds? = nil) {
        self.family = family
        self.solver = solver
        self.size = size
        self.constraints = constraints
        self.load = load
        self.solve = solve
        self.resize = resize
        self.instances = instances
        self.rounds = rounds
    }

    /// The rounds behind the times, by seed: a random family's instances'
    /// (nil unless every instance kept them), or the one layout's as seed 1.
    public var roundsBySeed: [(seed: Int, rounds: RoundSeconds)]? {
        if let instances {
            let kept = instances.compactMap { i in i.rounds.map { (seed: i.seed, rounds: $0) } }
            return kept.count == instances.count && !kept.isEmpty ? kept : nil
        }
        return rounds.map { [(seed: 1, rounds: $0)] }
    }

    /// The mean of a random family's instances (each one's medians).
    /// - Complexity: O(instances).
    public init(family: ScalingFamily, solver: String, size: Int, instances: [InstanceMedians]) {
        let n = Double(max(1, instances.count))
        func mean(_ value: (InstanceMedians) -> Double) -> Double { instances.reduce(0) { $0 + value($1) } / n }
        self.init(family: family, solver: solver, size: size,
                  constraints: Int((mean { Double($0.constraints) }).rounded()),
                  load: mean(\.load), solve: mean(\.solve), resize: mean(\.resize), instances: instances)
    }
}

/// The growth exponent of one phase between two sizes: `t ∝ size^exponent`.
public struct GrowthExponent: Sendable, Codable, Equatable {
    public var family: ScalingFamily
    public var solver: String
    public var phase: Phase
    public var fromSize: Int
    public var toSize: Int
    /// Nil when a time is 0 (below the clock's resolution).
    public var exponent: Double?
    /// Above ``FamilyScaling/flagThreshold``: worse than linear by more than
    /// the noise of a 2-core machine allows for.
    public var flagged: Bool
    /// The exponent's interval at ``FamilyScaling/intervalLevel`` from the
    /// rounds (``FamilyScaling/exponentInterval(_:_:_:)``): nil below two
    /// rounds, and in documents written before it.
    public var low: Double?
    public var high: Double?
    /// The rounds the interval is drawn from.
    public var rounds: Int?

    /// Where the interval lies against the threshold: nil without one.
    public var standing: ThresholdStanding? {
        guard let low, let high else { return nil }
        return low > FamilyScaling.flagThreshold ? .above : high <= FamilyScaling.flagThreshold ? .below : .straddling
    }
}

/// Where a growth exponent's interval lies against the flag's threshold.
///
/// Why beside the flag: on a noisy 2-core VM one run of a family that is
/// linear in instructions crossed 1.15 now and then (the grid's solve read
/// 1.18 in one run of five); the flag is the estimate's, and this says
/// whether the rounds' noise alone could put it there.
public enum ThresholdStanding: String, Sendable, Codable {
    /// The whole interval above the threshold: worse than linear beyond the noise.
    case above
    /// The threshold inside the interval: the rounds cannot tell.
    case straddling
    /// The whole interval at or below the threshold.
    case below
}

/// Growth per family, solver and phase (issue 41 part 3).
///
/// Why per family: the native solver was linear on the alternating grid and
/// quadratic on content-sized rows, and a benchmark that measured only the
/// grid did not see it. Each phase is timed in process, after the layout is
/// generated and validated (the front end is ``StageProfile``'s business):
/// load, solve and a width resize, each the median of its repetitions.
public enum FamilyScaling {
    /// The exponent above which a family is flagged: 1.15 (linear, with the
    /// margin that cache effects and a noisy 2-core VM need between 10^3 and 10^4).
    public static let flagThreshold = 1.15
    /// The phases measured.
    public static let phases: [Phase] = [.load, .solve, .resize]
    /// The most views (instances × the sizes' sum) of a random family whose
    /// layouts are held through its rounds: 200,000 (about 1 M constraints,
    /// 140 MB validated); beyond, each sample makes its layout again.
    public static let heldInstanceViews = 200_000
    /// How long a batch of resizes lasts at least: 10 ms, so that a resize of
    /// microseconds is timed over many and the clock's resolution does not count.
    static let minimumBatch = 0.010

    /// Measures every family at every size on every solver.
    ///
    /// Why rounds over the sizes, not each size's repetitions in a row: the
    /// exponent compares sizes, and on a shared VM the machine's speed
    /// drifts over seconds; measured one after the other, a slow spell can
    /// fall on one size alone (the 10^3 solve of self-sizing rows read
    /// 148 µs in one run and 581 µs in another of the same binary: 0.6 on an
    /// exponent over one decade). Each round takes one sample of every size,
    /// in ascending order on even rounds and descending on odd ones (the
    /// gate's ABBA), so a drift falls on every size alike. (Six runs in
    /// rounds against nine the old way showed no systematic change of the
    /// exponents: docs/measurements.md#m-2026-11-28-first-walk.)
    /// Every size's layout is held for the family's rounds. Round 0 is a
    /// warm-up: the first load pays page faults and allocator growth.
    ///
    /// A random family is measured on `instances` layouts a size (seeds 1
    /// to `instances`), each in every round, and each phase's time is the
    /// mean of the instances' medians. Why: one random layout is one draw,
    /// and at 10^3 views draws differ by a half in what a resize costs
    /// (seeds 1-8: 285-493 µs, 103-170 dual pivots rewriting 3.5-6.0
    /// rows each), which moved that exponent by ±0.15 with the seed alone
    /// (docs/measurements.md#m-2026-11-29-random-instances). The mean is the
    /// family's expected cost; each instance's medians stay in the
    /// measurement (``ScalingMeasurement/instances``) and in the report.
    /// - Parameters:
    ///   - solvers: built-in or registered solvers (``SolverSpec``); made fresh per load, without ambiguity analysis.
    ///   - instances: layouts a size of a random family (``ScalingFamily/isRandom``); the others have one.
    ///     1 by default here; `scaling --family` passes its `--instances` (8 by default).
    ///   - heldViews: the most views (instances × the sizes' sum) whose layouts are held through the rounds.
    ///   - progress: called with a line at the start of each round and a
    ///     line per measurement when its family is done (for stderr).
    /// - Throws: ``GeneratorError`` for a size a family does not make; what a solver throws.
    /// - Complexity: O(families × sizes × instances × repetitions × solver time); memory: every
    ///   layout of a family held, but a random family's past `heldViews`, made one at a time.
    public static func measure(families: [ScalingFamily], sizes: [Int], solvers: [SolverSpec], repetitions: Int,
                               instances: Int = 1, heldViews: Int = FamilyScaling.heldInstanceViews, order: ConstraintOrder = .file,
                               timeout: Double = 600, progress: (String) -> Void = { _ in }) throws -> [ScalingMeasurement] {
        var out: [ScalingMeasurement] = []
        let ordered = sizes.sorted()
        let rounds = max(1, repetitions)
        for family in families {
            let seeds = Array(1...(family.isRandom ? max(1, instances) : 1))
            func make(_ i: Int, _ j: Int) throws -> ValidatedLayout {
                try order.apply(to: family.layout(size: ordered[i], instance: seeds[j])).validated()
            }
            // Why not always held: eight random layouts of 10^5 views held
            // 800 MB (one, 300 MB), and 64 of 2·10^5 would not fit. Past
            // `heldViews` the instances are made again for each sample (the
            // same seed makes the same layout; untimed): 327 MB for eight.
            let hold = seeds.count == 1 || seeds.count * ordered.reduce(0, +) <= heldViews
            // layouts[size][instance] (empty when not held), constraints[size][instance], samples[size][instance][solver]
            let layouts = hold ? try ordered.indices.map { i in try seeds.indices.map { j in try make(i, j) } } : []
            // (Each set by the warm-up round's sample.)
            var constraints = [[Int]](repeating: [Int](repeating: 0, count: seeds.count), count: ordered.count)
            var samples = [[[RoundSeconds]]](repeating: [[RoundSeconds]](repeating: [RoundSeconds](repeating: RoundSeconds(), count: solvers.count),
                                                               count: seeds.count), count: ordered.count)
            for round in 0...rounds {
                progress(round == 0 ? "  \(family.rawValue): warm-up round"
                                    : "  \(family.rawValue): round \(round) of \(rounds)")
                let order = round % 2 == 0 ? Array(ordered.indices) : Array(ordered.indices.reversed())
                for i in order {
                    for j in seeds.indices {
                        let layout = hold ? layouts[i][j] : try make(i, j)
                        constraints[i][j] = layout.layout.constraints.count
                        for (k, spec) in solvers.enumerated() {
                            let sample = try Self.sample(layout, solver: spec, timeout: timeout)
                            if round > 0 { samples[i][j][k].append(sample) }
                        }
                    }
                }
            }
            for (i, size) in ordered.enumerated() {
                for (k, spec) in solvers.enumerated() {
                    let m: ScalingMeasurement
                    if family.isRandom {
                        let medians = seeds.indices.map { j in
                            samples[i][j][k].medians(seed: seeds[j], constraints: constraints[i][j])
                        }
                        m = ScalingMeasurement(family: family, solver: spec.name, size: size, instances: medians)
                    } else {
                        let medians = samples[i][0][k].medians(seed: 1, constraints: constraints[i][0])
                        m = ScalingMeasurement(family: family, solver: spec.name, size: size, constraints: medians.constraints,
                                               load: medians.load, solve: medians.solve, resize: medians.resize,
                                               rounds: medians.rounds)
                    }
                    out.append(m)
                    let mean = seeds.count > 1 ? " (mean of \(seeds.count) instances)" : ""
                    progress(String(format: "  %@ %@=%d %@: load %.4f s, solve %.4f s, resize %.6f s%@", family.rawValue, family.sizeUnit,
                                    size, spec.name, m.load, m.solve, m.resize, mean))
                }
            }
        }
        return out
    }

    /// One load, its solve, and the mean of a batch of resizes, on a fresh solver.
    static func sample(_ layout: ValidatedLayout, solver spec: SolverSpec,
                       timeout: Double) throws -> (load: Double, solve: Double, resize: Double) {
        let base = layout.layout.container
        let wider = ContainerSize(width: base.width * 1.1, height: base.height)
        let solver = spec.make(timeout: timeout, ambiguity: false)
        let load = try Runner.seconds { try solver.prepare(layout, variant: nil) }
        let solve = try Runner.seconds { _ = try solver.solve() }
        // The first two resizes are not timed: the first adds the
        // container's edit (once per load), the second is the first at
        // an unchanged shape, where the native solver keeps what later
        // resizes reuse (Cassowary/KeptShapes.swift).
        _ = try solver.resize(to: wider)
        _ = try solver.resize(to: base)
        var count = 0
        let batch = try Runner.seconds {
            let start = DispatchTime.now().uptimeNanoseconds
            repeat {
                _ = try solver.resize(to: count % 2 == 0 ? wider : base)
                count += 1
            } while Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9 < minimumBatch || count % 2 == 1
        }
        return (load, solve, batch / Double(count))
    }

    /// The exponents between successive sizes, per family, solver and phase,
    /// in the order measured. The one that decides the flag is
    /// ``decidingExponents(_:)``'s.
    /// - Complexity: O(measurements log measurements).
    public static func exponents(_ measurements: [ScalingMeasurement]) -> [GrowthExponent] {
        var out: [GrowthExponent] = []
        for (family, solver) in groups(measurements) {
            let points = measurements.filter { $0.family == family && $0.solver == solver }.sorted { $0.size < $1.size }
            for phase in phases {
                for (a, b) in zip(points, points.dropFirst()) {
                    out.append(exponent(family, solver, phase, a, b))
                }
            }
        }
        return out
    }

    /// Per family, solver and phase, the exponent the flag is decided on:
    /// from 10^3 to 10^4 when both were measured, else from the smallest
    /// size of at least 10^3 (or the smallest) to the largest. Why not a fit
    /// over every size: small sizes are dominated by constant costs, which
    /// flatten the slope and hide growth that only large sizes show.
    /// - Complexity: O(measurements log measurements).
    public static func decidingExponents(_ measurements: [ScalingMeasurement]) -> [GrowthExponent] {
        var out: [GrowthExponent] = []
        for (family, solver) in groups(measurements) {
            let points = measurements.filter { $0.family == family && $0.solver == solver }.sorted { $0.size < $1.size }
            guard let last = points.last, points.count >= 2 else { continue }
            let decade = points.first { $0.size == 1000 }.flatMap { a in points.first { $0.size == 10000 }.map { (a, $0) } }
            let (from, to) = decade ?? ((points.first { $0.size >= 1000 && $0.size < last.size } ?? points[0]), last)
            for phase in phases { out.append(exponent(family, solver, phase, from, to)) }
        }
        return out
    }

    /// For a random family measured on several instances: each instance's
    /// own exponent over the deciding sizes (``decidingExponents(_:)``), per
    /// solver and phase, by seed. What the mean hides: how far one draw's
    /// growth strays from the family's.
    /// - Complexity: O(measurements log measurements + instances).
    public static func instanceExponents(_ measurements: [ScalingMeasurement]) -> [InstanceExponent] {
        var out: [InstanceExponent] = []
        for e in decidingExponents(measurements) {
            func at(_ size: Int) -> [InstanceMedians]? {
                measurements.first { $0.family == e.family && $0.solver == e.solver && $0.size == size }?.instances
            }
            guard let from = at(e.fromSize), let to = at(e.toSize), from.count > 1 else { continue }
            for a in from {
                guard let b = to.first(where: { $0.seed == a.seed }) else { continue }
                let ta = a.seconds(e.phase), tb = b.seconds(e.phase)
                let k = ta > 0 && tb > 0 ? log(tb / ta) / log(Double(e.toSize) / Double(e.fromSize)) : nil
                out.append(InstanceExponent(family: e.family, solver: e.solver, phase: e.phase, fromSize: e.fromSize,
                                            toSize: e.toSize, seed: a.seed, exponent: k))
            }
        }
        return out
    }

    static func exponent(_ family: ScalingFamily, _ solver: String, _ phase: Phase, _ a: ScalingMeasurement,
                         _ b: ScalingMeasurement) -> GrowthExponent {
        let ta = a.seconds(phase), tb = b.seconds(phase)
        let e = ta > 0 && tb > 0 ? log(tb / ta) / log(Double(b.size) / Double(a.size)) : nil
        let interval = e == nil ? nil : exponentInterval(phase, a, b)
        return GrowthExponent(family: family, solver: solver, phase: phase, fromSize: a.size, toSize: b.size, exponent: e,
                              flagged: (e ?? 0) > flagThreshold, low: interval?.low, high: interval?.high,
                              rounds: interval?.rounds)
    }

    /// The level of an exponent's interval: 95%.
    public static let intervalLevel = 0.95

    /// The interval of a phase's exponent from `a`'s size to `b`'s: the
    /// percentile bootstrap over the rounds, each resample drawing whole
    /// rounds with replacement and taking the exponent of the resampled
    /// medians (of a random family: of the mean of its instances' medians,
    /// as the estimate is taken).
    ///
    /// Why whole rounds: a round samples every size back to back (and every
    /// instance), so a slow spell of the machine falls on both ends of the
    /// exponent; drawing a round's samples together keeps that pairing, and
    /// the interval is the noise the rounds leave, not the drift they cancel.
    /// Why not over the instances too: the seeds are fixed, and the mean is
    /// the cost of those layouts (their spread is the instance table's). With
    /// few rounds the medians take few values and the interval is coarse:
    /// three rounds give about the range of their exponents.
    /// - Returns: nil unless both sizes kept the same number (at least two)
    ///   of rounds for the same seeds.
    /// - Complexity: O(B · instances · rounds log rounds) for B resamples (2,000).
    public static func exponentInterval(_ phase: Phase, _ a: ScalingMeasurement,
                                        _ b: ScalingMeasurement) -> (low: Double, high: Double, rounds: Int)? {
        guard let from = a.roundsBySeed, let to = b.roundsBySeed, from.map(\.seed) == to.map(\.seed) else { return nil }
        let series = (from + to).map { $0.rounds.series(phase) }
        guard let rounds = series.first?.count, rounds >= 2, series.allSatisfy({ $0.count == rounds }) else { return nil }
        let instances = from.count
        let decades = log(Double(b.size) / Double(a.size))
        var scratch = [Double](repeating: 0, count: rounds)
        func meanOfMedians(_ part: ArraySlice<[Double]>, _ indices: [Int]) -> Double {
            var sum = 0.0
            for xs in part {
                for (k, i) in indices.enumerated() { scratch[k] = xs[i] }
                scratch.sort()
                sum += TimingSummary.median(sorted: scratch)
            }
            return sum / Double(instances)
        }
        let ends = Bootstrap.interval(count: rounds, level: intervalLevel) { indices in
            let ta = meanOfMedians(series[..<instances], indices), tb = meanOfMedians(series[instances...], indices)
            return ta > 0 && tb > 0 ? log(tb / ta) / decades : nil
        }
        return ends.map { (low: $0.low, high: $0.high, rounds: rounds) }
    }

    /// (family, solver) pairs in the order first measured.
    static func groups(_ measurements: [ScalingMeasurement]) -> [(ScalingFamily, String)] {
        var seen: [(ScalingFamily, String)] = []
        for m in measurements where !seen.contains(where: { $0.0 == m.family && $0.1 == m.solver }) { seen.append((m.family, m.solver)) }
        return seen
    }

    /// The families measured, in first-seen order.
    static func families(_ measurements: [ScalingMeasurement]) -> [ScalingFamily] {
        groups(measurements).map(\.0).reduce(into: [ScalingFamily]()) { if !$0.contains($1) { $0.append($1) } }
    }
}

/// One random instance's growth exponent over the deciding sizes
/// (``FamilyScaling/instanceExponents(_:)``).
public struct InstanceExponent: Sendable, Codable, Equatable {
    public var family: ScalingFamily
    public var solver: String
    public var phase: Phase
    public var fromSize: Int
    public var toSize: Int
    public var seed: Int
    /// Nil when a time is 0 (below the clock's resolution).
    public var exponent: Double?
}

/// What `scaling --family --json` prints and `scaling.json` holds.
public struct FamilyScalingDocument: Codable, Sendable {
    public var measurements: [ScalingMeasurement]
    /// Between successive sizes.
    public var exponents: [GrowthExponent]
    /// The ones the flag is decided on (``FamilyScaling/decidingExponents(_:)``).
    public var deciding: [GrowthExponent]
    /// The order the constraints were added in (absent in documents written
    /// before the option existed, which used the file's).
    public var order: ConstraintOrder?
    /// Each random instance's own deciding exponents (absent without
    /// instances, and in documents written before they were measured).
    public var instanceExponents: [InstanceExponent]?

    public init(measurements: [ScalingMeasurement], exponents: [GrowthExponent], deciding: [GrowthExponent],
                order: ConstraintOrder? = nil, instanceExponents: [InstanceExponent]? = nil) {
        self.measurements = measurements
        self.exponents = exponents
        self.deciding = deciding
        self.order = order
        self.instanceExponents = instanceExponents
    }
}
