import BenchSchema
import CassowaryLayout
import BenchStatistics
import ExternalSolvers
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

/// Progress of a run, for the CLI's progress bar.
public struct RunProgress: Sendable {
    public var done: Int
    public var total: Int
    public var current: String
}

/// Runs the cases through the solvers: a check pass (the verdicts) then a
/// timing pass (warm-ups, repetitions, solvers interleaved per repetition so
/// machine drift spreads evenly over them).
public final class Runner {
    /// The settings; after ``run(_:progress:)`` its solvers are those that
    /// started (see ``unavailable``).
    public private(set) var settings: RunSettings
    /// The run's solvers: external ones live for the whole run (one process each).
    let pool: SolverPool
    /// What each external solver said in `hello`, by name (its provenance).
    public private(set) var hellos: [String: SolverHello] = [:]
    /// External solvers that could not start or said hello out of protocol,
    /// with the reason: left out of the run, reported, not fatal.
    public private(set) var unavailable: [(spec: SolverSpec, reason: String)] = []

    public init(settings: RunSettings) {
        self.settings = settings
        pool = SolverPool(timeout: settings.timeout)
    }

    /// Starts every external solver once and keeps those that answer hello
    /// in protocol. Why before the cases: a solver missing on this machine
    /// (its Python package not installed) is one line in the summary, not an
    /// error verdict on every case.
    func startExternals() {
        var available: [SolverSpec] = []
        for spec in settings.solvers {
            guard spec.isExternal else { available.append(spec); continue }
            guard let external = externalInstance(spec) else { continue }
            do throws(SolverError) {
                try external.start()
                if let hello = external.hello { hellos[spec.name] = hello }
                available.append(spec)
            } catch {
                pool.forget(spec)
                unavailable.append((spec, "\(error)"))
            }
        }
        settings.solvers = available
    }

    /// The solver of `spec`: external solvers once per run (one process
    /// each), built-in ones fresh.
    func instance(_ spec: SolverSpec, ambiguity: Bool = true) -> LayoutSolver { pool.instance(spec, ambiguity: ambiguity) }

    /// The run's instance of an external solver, made on first use; nil for a built-in one.
    func externalInstance(_ spec: SolverSpec) -> ExternalSolver? { pool.external(spec) }

    /// Wall-clock seconds of `body` (monotonic clock).
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
    }

    /// Seconds of one ``yardstick()`` call, one value per sample round of
    /// the last timing pass (each sample a batch, like a solver's).
    public internal(set) var yardstickSamples: [Double] = []

    /// Runs every case: the check pass case by case (`progress` before
    /// each), then one timing pass over all of them (`progress` per sample
    /// round, named `timing`).
    public func run(_ cases: [BenchCase], progress: (RunProgress) -> Void = { _ in }) -> [CaseResult] {
        startExternals()
        var checked: [CheckedCase] = []
        for (i, benchCase) in cases.enumerated() {
            progress(RunProgress(done: i, total: cases.count, current: benchCase.name))
            checked.append(check(benchCase))
        }
        let timed = time(checked) { round, rounds in
            progress(RunProgress(done: round, total: rounds, current: "timing (all cases interleaved)"))
        }
        progress(RunProgress(done: cases.count, total: cases.count, current: ""))
        return zip(checked, timed).map { c, t in
            var result = c.result
            result.timings = t.timings
            result.untimed = t.untimed
            for (solver, figures) in t.allocations { result.counters[solver, default: [:]].merge(figures) { $1 } }
            return result
        }
    }

    /// Checks and times one case.
    public func run(_ benchCase: BenchCase) -> CaseResult {
        run([benchCase])[0]
    }
}
