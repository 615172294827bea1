import LayoutSolving
#if LAYOUT_BENCH_FAULT_INJECTION
import BenchMetrics
import BenchSchema
import Dispatch
import Foundation
import LayoutModel
#endif

/// Fault injection for the gate's demonstrations: a solver made slower on
/// purpose, to show that the gates catch a regression
/// (docs/design/gates.md#fault-injection).
///
/// Compiled in only with `-Xswiftc -DLAYOUT_BENCH_FAULT_INJECTION` (a build
/// of its own, `--scratch-path .build-fault`); otherwise ``decorate(_:)``
/// returns the solver itself. Why a decorator in the harness and not a branch
/// in the solver: the production solver carries no test code, and the
/// slowdown wraps exactly what the harness times.
enum FaultInjection {
    #if LAYOUT_BENCH_FAULT_INJECTION
    /// LAYOUT_BENCH_SLOWDOWN, read once: reading the environment on every
    /// prepare allocated and cost more than the slowdown itself on small
    /// layouts, so the injected regression was not the one asked for.
    static let slowdown: Double? = {
        guard let factor = Double(ProcessInfo.processInfo.environment["LAYOUT_BENCH_SLOWDOWN"] ?? ""), factor > 1 else { return nil }
        return factor
    }()

    /// `solver`, slowed by LAYOUT_BENCH_SLOWDOWN if it is set.
    static func decorate(_ solver: LayoutSolver) -> LayoutSolver {
        guard let slowdown else { return solver }
        return SlowedSolver(solver, factor: slowdown)
    }
    #else
    @inline(__always)
    static func decorate(_ solver: LayoutSolver) -> LayoutSolver { solver }
    #endif
}

#if LAYOUT_BENCH_FAULT_INJECTION
/// A solver whose `prepare` takes `factor` times as long as its base's (a
/// busy wait for the extra time); everything else is the base's.
final class SlowedSolver: LayoutSolver {
    let base: LayoutSolver
    let factor: Double

    init(_ base: LayoutSolver, factor: Double) {
        self.base = base
        self.factor = factor
    }

    var name: String { base.name }
    var capabilities: SolverCapabilities { base.capabilities }
    var counters: [Counter: Double] { base.counters }
    var levelStatistics: [LevelStatistics] { base.levelStatistics }
    func frameRanges() -> [FrameRange]? { base.frameRanges() }

    /// Runs `body`, then waits `factor - 1` times as long as it took.
    func slowed(_ body: () throws(SolverError) -> Void) throws(SolverError) {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            let until = DispatchTime.now().uptimeNanoseconds + UInt64(Double(elapsed) * (factor - 1))
            while DispatchTime.now().uptimeNanoseconds < until {}
        }
        try body()
    }

    func prepare(_ layout: ValidatedLayout, variant: String?) throws(SolverError) {
        try slowed { () throws(SolverError) in try base.prepare(layout, variant: variant) }
    }

    func prepare(_ system: LoweredSystem, of layout: ValidatedLayout) throws(SolverError) {
        try slowed { () throws(SolverError) in try base.prepare(system, of: layout) }
    }

    func solve() throws(SolverError) -> Solution { try base.solve() }
    func resize(to size: ContainerSize) throws(SolverError) -> Solution { try base.resize(to: size) }
    func switchVariant(to variant: String?) throws(SolverError) -> Solution { try base.switchVariant(to: variant) }
    func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> ConstraintHandle { try base.addConstraint(constraint) }
    func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) { try base.removeConstraint(handle) }
}
#endif
