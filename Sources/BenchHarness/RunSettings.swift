import BenchSchema
import LayoutModel
import LayoutSolving

/// What a run does.
public struct RunSettings: Sendable {
    public var solvers: [SolverSpec]
    /// The least number of samples per phase (each a batch, see ``sampleTime``).
    public var repetitions = 10
    /// Untimed rounds per solver before sampling (at least one is always run:
    /// it also sizes the batches).
    public var warmup = 1
    /// Seconds of sampling per case, shared by its solvers: samples are taken
    /// until this is spent (and at least ``repetitions`` of them), at most
    /// ``maxSamples``.
    public var timeBudget = 0.05
    /// The least duration of one sample: a phase shorter than this is run
    /// this many times over in one sample, criterion style.
    public var sampleTime = 1e-3
    /// The most samples per phase (bounds the results' size).
    public var maxSamples = 200
    /// Seconds per external-solver operation.
    public var timeout = 30.0
    /// The widths of the resize sweep.
    public var sweep: [Double] = [320, 375, 414, 768, 1024]
    /// The solver every other one is judged against (`run --reference`): GLPK
    /// unless told otherwise. Another LP reference (HiGHS, whose solves grow
    /// about linearly) can judge the cases over GLPK's limits.
    public var reference = "glpk"
    /// The reference's spec, if it is among the solvers.
    public var referenceSpec: SolverSpec? { solvers.first { $0.name == reference } }
    /// Who judges a case the reference cannot (over its judging limit), in
    /// order, if they are among the solvers: HiGHS, whose solves grow about
    /// linearly and which the families' judging limits let judge every size.
    /// Why automatic: a large run that lists HiGHS should be judged where it
    /// can be, without the user knowing GLPK's limits (`--reference highs`
    /// still makes HiGHS judge everything).
    public var fallbackReferences = ["highs"]
    /// Also solve each case's metamorphic transformations (``Metamorphic``)
    /// and judge every solver against its own answer (`run --metamorphic`).
    public var metamorphic = false

    public init(solvers: [SolverSpec]) { self.solvers = solvers }
}
