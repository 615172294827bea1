// What a run found: a result per case, variant and solver, and the timings
// of each phase.

import BenchMetrics
import BenchSchema
import BenchStatistics
import LayoutModel
import LayoutSolving

/// One case x variant x solver.
public struct VariantResult: Sendable {
    public var variant: String
    public var solver: String
    public var verdict: Verdict
    public var reasons: [String]
    public var status: Solution.Status?
    public var levels: [LevelError]
    public var ambiguous: [String]?
    public var conflict: [String]
    public var frames: [Frame]
    public var viewNames: [String]
    /// Against the layout's observed frames (`expect ... observed xcode`), default variant only.
    public var observed: ResultsDocument.Observed?

    public init(variant: String, solver: String, verdict: Verdict, reasons: [String], status: Solution.Status?, levels: [LevelError],
                ambiguous: [String]?, conflict: [String], frames: [Frame], viewNames: [String],
                observed: ResultsDocument.Observed? = nil) {
        self.variant = variant
        self.solver = solver
        self.verdict = verdict
        self.reasons = reasons
        self.status = status
        self.levels = levels
        self.ambiguous = ambiguous
        self.conflict = conflict
        self.frames = frames
        self.viewNames = viewNames
        self.observed = observed
    }
}

/// Timings of one phase of one solver on a case (seconds).
public struct PhaseTiming: Sendable {
    public var solver: String
    public var phase: Phase
    public var summary: TimingSummary
    /// Every sample, in the order taken: the mean seconds of one operation
    /// over a batch of ``iterations`` rounds.
    public var samples: [Double] = []
    /// Rounds per sample (1: each sample is one round's operations).
    public var iterations = 1
}

/// Everything a run found about one case.
public struct CaseResult: Sendable {
    public var name: String
    public var source: String
    public var views: Int
    public var constraints: Int
    public var variants: [String]
    public var results: [VariantResult]
    public var timings: [PhaseTiming]
    /// Machine-independent counts per solver (Cassowary pivots, GLPK simplex iterations).
    public var counters: [String: [Counter: Double]]
    /// Per solver, the phases left untimed because an answer in them carried
    /// no `time_s` (an external solver that does not time itself is not
    /// timed at all rather than timed as 0).
    public var untimed: [String: [Phase]] = [:]
    /// The views with an intrinsic size or baselines, in declaration order,
    /// for the reports' pictures.
    public var content: [(view: String, content: ViewContent)] = []
    /// The solver that judged this case when it is not the run's reference
    /// (a fall-back reference, ``RunSettings/fallbackReferences``); nil otherwise.
    public var judge: String?
}
