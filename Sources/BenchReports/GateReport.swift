// What a gate found: one finding per thing compared (verdict, counter, time,
// a solver's mean over cases) and the report that holds them with the drift.

import BenchStatistics

/// One thing compared between a baseline and a run.
public struct GateFinding: Sendable {
    public enum Kind: String, Sendable {
        case regression, improvement
        /// Compared and within the noise: not significant, or smaller than the threshold.
        case noise
        /// A case the baseline does not have (a regression unless lenient).
        case new
        /// A case of the baseline the run does not have (reported only).
        case missing
        /// A regression the commit makes on purpose (``Acknowledgments``): reported, not failing.
        case acknowledged
    }

    public var kind: Kind
    /// `verdict`, a counter's name, `time/PHASE` (one case) or `time/PHASE, all cases` (a solver's aggregate).
    public var metric: String
    public var subject: String
    public var baseline: String
    public var current: String
    /// now / baseline - 1 (for times: of the medians, after any drift correction).
    public var change: Double?
    /// For times: the interval of now / baseline - 1 at the gate's confidence.
    public var interval: Interval?
    /// For times: the threshold the change was held to.
    public var threshold: Double?

    public init(kind: Kind, metric: String, subject: String, baseline: String, current: String, change: Double?,
                interval: Interval? = nil, threshold: Double? = nil) {
        self.kind = kind
        self.metric = metric
        self.subject = subject
        self.baseline = baseline
        self.current = current
        self.change = change
        self.interval = interval
        self.threshold = threshold
    }
}

/// What a gate found: every comparison, and the machine drift it measured.
public struct GateReport: Sendable {
    /// Regressions first, then new and missing cases, improvements, noise.
    public var findings: [GateFinding]
    /// How much slower the machine was than in the baseline's runs (the
    /// yardstick's now / baseline - 1), with its interval.
    public var drift: Interval?
    /// Whether ``drift`` was divided out of every time (both files have a yardstick).
    public var driftCorrected: Bool
    public var confidence: Double
    /// How many runs the baseline was made from.
    public var baselineRuns: Int

    public func outcome(lenient: Bool) -> Gate.Outcome { Gate.outcome(findings, lenient: lenient) }

    public init(findings: [GateFinding], drift: Interval? = nil, driftCorrected: Bool = false, confidence: Double, baselineRuns: Int) {
        self.findings = findings
        self.drift = drift
        self.driftCorrected = driftCorrected
        self.confidence = confidence
        self.baselineRuns = baselineRuns
    }
}
