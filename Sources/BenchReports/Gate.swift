import Foundation

/// A stored baseline: what a run measured, reduced to what gates compare.
///
/// Schema `layout-bench/baseline`, version 1: `{"schema", "version", "created",
/// "commit", "calibration_s", "thresholds": {"time", "counter", "allocations", "cases": {GLOB: {"time", "counter"}}},
/// "cases": {CASE: {"verdicts": {"VARIANT/SOLVER": verdict}, "counters": {SOLVER: {NAME: value}},
/// "times": {"SOLVER/PHASE": {"normalized", "spread"}}}}}`.
public struct Baseline: Codable, Sendable {
    public struct Thresholds: Codable, Sendable {
        /// Relative change of a normalised time that counts (0.10 = 10%).
        public var time: Double
        /// Relative change of an exact counter that counts (0 = any change).
        public var counter: Double
        /// Relative change of an allocation count (`allocations/PHASE`) that
        /// counts; nil means ``defaultAllocations``. Never below `counter`.
        public var allocations: Double?
        /// Per-case overrides by glob (`family/*`).
        public var cases: [String: CaseThresholds]?

        /// 2%. Why not zero: in release builds, over three runs of unchanged
        /// code, every phase but `load` repeated exactly and loads moved by up
        /// to 1.2% (2 of 171; with seeded hashing by one allocation), so some
        /// allocation in a load depends on more than the code path. A real
        /// regression (one more allocation per constraint) is tens of percent.
        public static let defaultAllocations = 0.02
        /// A change of at most this many allocations is noise whatever the
        /// percentage (small counts: 2 of 100 is already 2%).
        public static let allocationSlack = 4.0

        public init(time: Double = 0.10, counter: Double = 0, allocations: Double? = nil,
                    cases: [String: CaseThresholds]? = nil) {
            self.time = time
            self.counter = counter
            self.allocations = allocations
            self.cases = cases
        }
    }

    public struct CaseThresholds: Codable, Sendable {
        public var time: Double?
        public var counter: Double?

        public init(time: Double?, counter: Double?) {
            self.time = time
            self.counter = counter
        }
    }

    public struct Time: Codable, Sendable {
        /// The fastest repetition as a ratio measured in the same run: for a
        /// solver other than the reference, divided by the reference's load + solve
        /// on the same case; for the reference (or without one), divided by the
        /// run's calibration loop.
        public var normalized: Double
        /// The run's own relative spread, (p90 - min) / min.
        public var spread: Double
        /// The median in seconds (for reading; not compared).
        public var median: Double
    }

    public struct CaseEntry: Codable, Sendable {
        public var verdicts: [String: String]
        public var counters: [String: [String: Double]]
        public var times: [String: Time]
    }

    public var schema = "layout-bench/baseline"
    public var version = 1
    public var created: String
    public var commit: String?
    public var calibration_s: Double
    public var thresholds: Thresholds
    public var cases: [String: CaseEntry]

    /// The gated view of a results file.
    public static func from(_ results: ResultsFile, thresholds: Thresholds = Thresholds()) -> Baseline {
        var cases: [String: CaseEntry] = [:]
        let calibration = results.calibration_s ?? 1
        let reference = results.referenceName
        for c in results.cases {
            var verdicts: [String: String] = [:]
            for r in c.results { verdicts["\(r.variant)/\(r.solver)"] = r.verdict }
            var times: [String: Time] = [:]
            // Why ratios to the reference: a machine that is slower for a while
            // slows every solver alike (measured: +50% on every sub-millisecond
            // case between two runs of unchanged code), and the ratio cancels it;
            // a solver that got slower does not cancel.
            let referenceTimings = c.timings.filter { $0.solver == reference && ($0.phase == "load" || $0.phase == "solve") }
            // Why the minimum: interference only ever adds time, so the fastest
            // repetition is the steadiest estimate of the code's own cost.
            let referenceTime = referenceTimings.count == 2 ? referenceTimings.map(\.min).reduce(0, +) : nil
            let referenceSpread = referenceTimings.map { $0.min > 0 ? ($0.p90 - $0.min) / $0.min : 0 }.max() ?? 0
            for t in c.timings where t.solver != "-" {
                let own = t.min > 0 ? (t.p90 - t.min) / t.min : 0
                if t.solver != reference, let referenceTime, referenceTime > 0 {
                    times["\(t.solver)/\(t.phase)"] = Time(normalized: t.min / referenceTime, spread: own + referenceSpread,
                                                           median: t.median)
                } else {
                    times["\(t.solver)/\(t.phase)"] = Time(normalized: t.min / calibration, spread: own, median: t.median)
                }
            }
            cases[c.name] = CaseEntry(verdicts: verdicts, counters: c.counters, times: times)
        }
        return Baseline(created: results.finished, commit: results.machine.commit, calibration_s: calibration,
                        thresholds: thresholds, cases: cases)
    }

    /// A baseline from several runs of the same code: per timing, the median of
    /// the normalised values and the largest spread; verdicts and counters of
    /// the last run. Why: one run's disturbance must not become the baseline.
    public static func from(_ runs: [ResultsFile], thresholds: Thresholds = Thresholds()) -> Baseline? {
        guard let last = runs.last else { return nil }
        var combined = Baseline.from(last, thresholds: thresholds)
        let all = runs.map { Baseline.from($0, thresholds: thresholds) }
        for (name, entry) in combined.cases {
            var times = entry.times
            for (key, time) in entry.times {
                let samples = all.compactMap { $0.cases[name]?.times[key] }
                let normalized = samples.map(\.normalized).sorted()
                let medians = samples.map(\.median).sorted()
                times[key] = Time(normalized: normalized[normalized.count / 2], spread: samples.map(\.spread).max() ?? time.spread,
                                  median: medians[medians.count / 2])
            }
            combined.cases[name]?.times = times
        }
        return combined
    }

    /// The JSON, keys sorted (stable diffs when committed).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    public static func read(_ path: String) throws(ResultsFile.ReadError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResultsFile.ReadError(description: "\(path): cannot read (save one with `layout-bench baseline save`)")
        }
        do {
            let baseline = try JSONDecoder().decode(Baseline.self, from: data)
            guard baseline.schema == "layout-bench/baseline", baseline.version == 1 else {
                throw ResultsFile.ReadError(description: "\(path): not a layout-bench baseline (version 1)")
            }
            return baseline
        } catch let error as ResultsFile.ReadError {
            throw error
        } catch {
            throw ResultsFile.ReadError(description: "\(path): not a layout-bench baseline (\(error))")
        }
    }
}

/// One thing that moved between a baseline and a run.
public struct GateFinding: Sendable {
    public enum Kind: String, Sendable {
        case regression, improvement
        /// Moved, but within the run's own spread, or too small to time.
        case noise
        /// A case the baseline does not have (an error unless lenient).
        case new
        /// A case of the baseline the run does not have.
        case missing
    }

    public var kind: Kind
    public var metric: String
    public var subject: String
    public var baseline: String
    public var current: String
    public var change: Double?
}

/// Compares a run with a baseline, package-benchmark style.
public enum Gate {
    public enum Outcome: Int32, Sendable {
        /// Nothing regressed.
        case pass = 0
        case error = 1
        case regression = 2
        /// Only improvements: the baseline is stale.
        case improvementsOnly = 4
    }

    /// Times below this are too short to gate: timer, allocator and scheduler
    /// effects dominate them (measured: ±70% between runs of unchanged code).
    public static let timeFloor = 200e-6

    /// The reference's own times are gated only above this: each includes two
    /// hand-offs to the GLPK thread, whose wake-up latency varies by ~0.1 ms
    /// (measured: its 0.2–0.5 ms timings move ±40% between runs of unchanged code).
    public static let referenceTimeFloor = 2e-3

    static func glob(_ name: String, _ pattern: String) -> Bool {
        let n = Array(name), g = Array(pattern)
        func go(_ i: Int, _ j: Int) -> Bool {
            if j == g.count { return i == n.count }
            if g[j] == "*" { return go(i, j + 1) || (i < n.count && go(i + 1, j)) }
            return i < n.count && (g[j] == "?" || g[j] == n[i]) && go(i + 1, j + 1)
        }
        return go(0, 0)
    }

    static let goodVerdicts: Set<String> = ["pass", "unsupported", "weighted-divergence"]

    /// Every finding, regressions first.
    /// - Parameter threshold: overrides the baseline's time threshold when given.
    public static func compare(_ results: ResultsFile, with baseline: Baseline, threshold: Double?) -> [GateFinding]
    {
        var findings: [GateFinding] = []
        let current = Baseline.from(results)
        // The reference's drift: the median change of all its timings above the
        // floor. Its times are divided by it, so a machine that is slower today
        // does not read as a regression (the reference's own code is GLPK's; a
        // slower wrapper still shows, as every other solver's ratio improving).
        let reference = results.referenceName ?? ""
        var drifts: [Double] = []
        for (name, now) in current.cases {
            for (key, time) in now.times where key.hasPrefix(reference + "/") && time.median >= referenceTimeFloor {
                if let old = baseline.cases[name]?.times[key], old.normalized > 0, old.median >= referenceTimeFloor {
                    drifts.append(time.normalized / old.normalized)
                }
            }
        }
        let drift = drifts.isEmpty ? 1 : drifts.sorted()[drifts.count / 2]
        for (name, now) in current.cases.sorted(by: { $0.key < $1.key }) {
            guard let before = baseline.cases[name] else {
                findings.append(GateFinding(kind: .new, metric: "case", subject: name, baseline: "-", current: "present", change: nil))
                continue
            }
            var timeThreshold = threshold ?? baseline.thresholds.time
            var counterThreshold = baseline.thresholds.counter
            for (pattern, t) in (baseline.thresholds.cases ?? [:]).sorted(by: { $0.key < $1.key }) where glob(name, pattern) {
                if threshold == nil, let time = t.time { timeThreshold = time }
                if let counter = t.counter { counterThreshold = counter }
            }
            // (1) Verdicts: exact.
            for (key, verdict) in now.verdicts.sorted(by: { $0.key < $1.key }) {
                guard let old = before.verdicts[key], old != verdict else { continue }
                let worse = goodVerdicts.contains(old) && !goodVerdicts.contains(verdict)
                let better = !goodVerdicts.contains(old) && goodVerdicts.contains(verdict)
                findings.append(GateFinding(kind: worse ? .regression : better ? .improvement : .noise, metric: "verdict",
                                            subject: "\(name) \(key)", baseline: old, current: verdict, change: nil))
            }
            // (1) Counters: exact or near-exact.
            for (solver, counters) in now.counters.sorted(by: { $0.key < $1.key }) {
                for (counter, value) in counters.sorted(by: { $0.key < $1.key }) {
                    guard let old = before.counters[solver]?[counter], old != value else { continue }
                    let change = old == 0 ? (value > 0 ? 1 : 0) : value / old - 1
                    let isAllocation = counter.hasPrefix("allocations/")
                    let tolerance = isAllocation
                        ? max(counterThreshold, baseline.thresholds.allocations ?? Baseline.Thresholds.defaultAllocations) : counterThreshold
                    let slack = isAllocation && abs(value - old) <= Baseline.Thresholds.allocationSlack
                    let kind: GateFinding.Kind = abs(change) <= tolerance || slack ? .noise : change > 0 ? .regression : .improvement
                    findings.append(GateFinding(kind: kind, metric: counter, subject: "\(name) \(solver)",
                                                baseline: String(format: "%g", old), current: String(format: "%g", value), change: change))
                }
            }
            // (2) Times normalised by the calibration loop, against the spread.
            for (key, time) in now.times.sorted(by: { $0.key < $1.key }) {
                guard let old = before.times[key], old.normalized > 0 else { continue }
                let change = time.normalized / old.normalized / (key.hasPrefix(reference + "/") ? drift : 1) - 1
                let spread = max(time.spread, old.spread)
                let kind: GateFinding.Kind
                let floor = key.hasPrefix(reference + "/") ? referenceTimeFloor : timeFloor
                if max(time.median, old.median) < floor || abs(change) <= spread || abs(change) <= timeThreshold {
                    kind = .noise
                } else {
                    kind = change > 0 ? .regression : .improvement
                }
                if abs(change) > min(timeThreshold, 0.05) || kind != .noise {
                    findings.append(GateFinding(kind: kind, metric: "time/\(key.split(separator: "/").last.map(String.init) ?? key)",
                                                subject: "\(name) \(key.split(separator: "/").first.map(String.init) ?? key)",
                                                baseline: String(format: "%.3g s", old.median), current: String(format: "%.3g s", time.median),
                                                change: change))
                }
            }
        }
        for name in baseline.cases.keys.sorted() where current.cases[name] == nil {
            findings.append(GateFinding(kind: .missing, metric: "case", subject: name, baseline: "present", current: "-", change: nil))
        }
        let order: [GateFinding.Kind] = [.regression, .new, .missing, .improvement, .noise]
        return findings.sorted { (order.firstIndex(of: $0.kind) ?? 9, $0.subject) < (order.firstIndex(of: $1.kind) ?? 9, $1.subject) }
    }

    /// The exit outcome: regressions (or cases missing from the baseline,
    /// unless lenient) -> 2; only improvements -> 4; else 0.
    public static func outcome(_ findings: [GateFinding], lenient: Bool) -> Outcome {
        if findings.contains(where: { $0.kind == .regression || (!lenient && $0.kind == .new) }) { return .regression }
        if findings.contains(where: { $0.kind == .improvement }) { return .improvementsOnly }
        return .pass
    }
}
