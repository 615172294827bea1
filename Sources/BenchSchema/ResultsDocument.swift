import BenchMetrics
import Foundation

/// A run's `results.json`: the one owner of its format (schema
/// `layout-bench/results`, version 1; docs/results-format.md#resultsjson).
///
/// The harness builds one and writes it with ``encoded()``; the reports and
/// the gate read the value (in memory after a run, from the file otherwise,
/// through ``decode(_:name:)``); `merge` decodes shards and encodes their
/// join. Why one Codable type rather than a writer and a reader: a field
/// added here is written, read and merged, and the compiler finds every
/// place that builds a document. Field names are the file's (snake case),
/// so the type reads as the format does.
///
/// Optional fields are absent from the file when nil. Non-finite numbers
/// are written as the strings `"inf"`, `"-inf"` and `"nan"` and read back.
public struct ResultsDocument: Codable, Equatable, Sendable {
    public static let schemaName = "layout-bench/results"
    public static let currentVersion = 1

    public struct Machine: Codable, Equatable, Sendable {
        public var cpu: String
        public var cores: Int
        public var memory_bytes: Double
        public var os: String
        public var swift: String
        public var glpk: String
        public var commit: String?

        public init(cpu: String, cores: Int, memory_bytes: Double, os: String, swift: String, glpk: String, commit: String?) {
            self.cpu = cpu
            self.cores = cores
            self.memory_bytes = memory_bytes
            self.os = os
            self.swift = swift
            self.glpk = glpk
            self.commit = commit
        }
    }

    /// How the run was made: what `merge` checks shards agree on, and what a
    /// reader needs to reproduce it. Every field is optional: runs made in
    /// tests and by older versions record fewer.
    public struct Settings: Codable, Equatable, Sendable {
        public var repetitions: Int?
        public var warmup: Int?
        public var time_budget_s: Double?
        public var sample_time_s: Double?
        public var scale: String?
        public var timeout_s: Double?
        /// `K/N` for a shard of a run; absent for a whole run.
        public var shard: String?
        /// The corpus paths given to `run`.
        public var paths: [String]?
        /// A digest of the case list and texts: shards of one run share it.
        public var corpus_digest: String?
        /// Every case of the corpus, in order (a shard runs some of them).
        public var corpus_cases: [String]?

        public init(repetitions: Int? = nil, warmup: Int? = nil, time_budget_s: Double? = nil, sample_time_s: Double? = nil,
                    scale: String? = nil, timeout_s: Double? = nil, shard: String? = nil, paths: [String]? = nil,
                    corpus_digest: String? = nil, corpus_cases: [String]? = nil) {
            self.repetitions = repetitions
            self.warmup = warmup
            self.time_budget_s = time_budget_s
            self.sample_time_s = sample_time_s
            self.scale = scale
            self.timeout_s = timeout_s
            self.shard = shard
            self.paths = paths
            self.corpus_digest = corpus_digest
            self.corpus_cases = corpus_cases
        }
    }

    public struct Solver: Codable, Equatable, Sendable {
        public var name: String
        /// `built-in` or `external`.
        public var kind: String
        /// The solver the others were judged against.
        public var reference: Bool
        /// External solvers: the command, its directory, the protocol version
        /// the harness spoke, and what the solver said in hello.
        public var command: [String]?
        public var working_directory: String?
        public var `protocol`: Int?
        public var hello: Hello?
        /// Where the command came from: a registry file's path, or `--solver`
        /// (absent in results written before it was recorded).
        public var registry: String?
        /// The group the reports show it in (absent in older files: "other").
        public var family: String?
        /// What every solver is, built in or not, for the reports' solver
        /// table: for an external one, its hello's words; for a built-in
        /// one, its declared capabilities (absent in older files).
        public var profile: Profile?

        /// A solver's version, semantics and capabilities.
        public struct Profile: Codable, Equatable, Sendable {
            public var version: String
            /// "lexicographic" or "weighted".
            public var semantics: String
            public var incremental: Bool
            public var edits: Bool
            public var ambiguity: Bool

            public init(version: String, semantics: String, incremental: Bool, edits: Bool, ambiguity: Bool) {
                self.version = version
                self.semantics = semantics
                self.incremental = incremental
                self.edits = edits
                self.ambiguity = ambiguity
            }

            /// "incremental, edits, ambiguity" (what it claims), or "-".
            public var capabilities: String {
                let words = [(incremental, "incremental"), (edits, "edits"), (ambiguity, "ambiguity")].filter(\.0).map(\.1)
                return words.isEmpty ? "-" : words.joined(separator: ", ")
            }
        }

        /// The family shown, "other" when none was recorded.
        public var familyName: String { family ?? "other" }

        public init(name: String, kind: String, reference: Bool, command: [String]? = nil, working_directory: String? = nil,
                    protocol: Int? = nil, hello: Hello? = nil, registry: String? = nil, family: String? = nil,
                    profile: Profile? = nil) {
            self.name = name
            self.kind = kind
            self.reference = reference
            self.command = command
            self.working_directory = working_directory
            self.protocol = `protocol`
            self.hello = hello
            self.registry = registry
            self.family = family
            self.profile = profile
        }

        /// An external solver's `hello` (docs/solver-protocol.md), its provenance.
        public struct Hello: Codable, Equatable, Sendable {
            public var name: String
            public var version: String
            public var `protocol`: Int
            public var semantics: String
            public var incremental: Bool
            public var edits: Bool
            public var max_rows: Int?
            /// Absent in files written before the protocol's ambiguity lists.
            public var ambiguity: Bool?

            public init(name: String, version: String, protocol: Int, semantics: String, incremental: Bool, edits: Bool,
                        max_rows: Int?, ambiguity: Bool?) {
                self.name = name
                self.version = version
                self.protocol = `protocol`
                self.semantics = semantics
                self.incremental = incremental
                self.edits = edits
                self.max_rows = max_rows
                self.ambiguity = ambiguity
            }
        }

        /// One line of provenance: "kiwi 1.5.1, protocol 1, weighted; python3 ../scripts/solvers/kiwi.py".
        public var provenance: String {
            guard let command else { return kind }
            var words: [String] = []
            if let hello {
                words.append("\(hello.name) \(hello.version), protocol \(hello.protocol), \(hello.semantics)"
                             + (hello.max_rows.map { ", max_rows \($0)" } ?? ""))
            }
            words.append(command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " "))
            if let registry { words.append("from \(registry)") }
            return words.joined(separator: "; ")
        }
    }

    /// A solver of the registry that could not start, and why.
    public struct UnavailableSolver: Codable, Equatable, Sendable {
        public var name: String
        public var command: [String]
        public var reason: String

        public init(name: String, command: [String], reason: String) {
            self.name = name
            self.command = command
            self.reason = reason
        }
    }

    /// A case that could not be read or built.
    public struct Problem: Codable, Equatable, Sendable {
        public var `case`: String
        public var message: String

        public init(case: String, message: String) {
            self.case = `case`
            self.message = message
        }
    }

    public struct Level: Codable, Equatable, Sendable {
        public var priority: Double
        public var error: Double

        public init(priority: Double, error: Double) {
            self.priority = priority
            self.error = error
        }
    }

    /// One case x variant x solver.
    public struct Result: Codable, Equatable, Sendable {
        public var variant: String
        public var solver: String
        public var verdict: Verdict
        public var reasons: [String]
        /// The solution's status; absent when the solver gave none (an error).
        public var status: String?
        public var levels: [Level]
        /// Views whose frames are not unique; absent when the solver does not say.
        public var ambiguous: [String]?
        public var conflict: [String]
        /// View name -> [x, y, width, height].
        public var frames: [String: [Double]]
        /// How this answer compares with frames another engine was observed to
        /// give (`expect ... observed xcode`); absent for layouts without them.
        public var observed: Observed?

        public init(variant: String, solver: String, verdict: Verdict, reasons: [String], status: String?, levels: [Level],
                    ambiguous: [String]?, conflict: [String], frames: [String: [Double]]) {
            self.variant = variant
            self.solver = solver
            self.verdict = verdict
            self.reasons = reasons
            self.status = status
            self.levels = levels
            self.ambiguous = ambiguous
            self.conflict = conflict
            self.frames = frames
        }
    }

    /// A solver's answer against observed frames (Xcode's, stored in an IB file).
    public struct Observed: Codable, Equatable, Sendable {
        /// Who observed them (`xcode`).
        public var source: String
        public var matched: Int
        public var total: Int
        /// The views that differ beyond their tolerance, in the layout's order.
        public var differences: [Difference]

        public init(source: String, matched: Int, total: Int, differences: [Difference]) {
            self.source = source
            self.matched = matched
            self.total = total
            self.differences = differences
        }

        public struct Difference: Codable, Equatable, Sendable {
            public var view: String
            public var expected: [Double]
            /// The solver's frame; absent when it gave none.
            public var got: [Double]?
            /// Why the harness thinks they differ: ``ObservedCause``'s raw value.
            public var cause: String
            /// What the cause rests on, where one fact does (`broken-constraint`: the
            /// constraint the stored frames break, and by how much); absent otherwise.
            public var evidence: String?

            public init(view: String, expected: [Double], got: [Double]?, cause: String, evidence: String? = nil) {
                self.view = view
                self.expected = expected
                self.got = got
                self.cause = cause
                self.evidence = evidence
            }
        }
    }

    /// One solver's phase on a case: seconds per operation.
    public struct Timing: Codable, Equatable, Sendable {
        public var solver: String
        public var phase: Phase
        public var min: Double
        public var median: Double
        /// The 95% bootstrap interval of the median (absent below enough samples, and in older files).
        public var median_ci: [Double]?
        /// Absent below 10 samples (it would be the maximum).
        public var p90: Double?
        public var max: Double
        public var n: Int
        /// Rounds per sample (absent in older files: 1).
        public var iterations: Int?
        /// Every sample: mean seconds of one operation over a batch (absent in older files).
        public var samples: [Double]?

        public init(solver: String, phase: Phase, min: Double, median: Double, median_ci: [Double]?, p90: Double?, max: Double,
                    n: Int, iterations: Int?, samples: [Double]?) {
            self.solver = solver
            self.phase = phase
            self.min = min
            self.median = median
            self.median_ci = median_ci
            self.p90 = p90
            self.max = max
            self.n = n
            self.iterations = iterations
            self.samples = samples
        }
    }

    public struct Case: Codable, Equatable, Sendable {
        public var name: String
        public var source: String
        public var views: Int
        public var constraints: Int
        public var variants: [String]
        public var results: [Result]
        public var timings: [Timing]
        /// Per solver, its counters on this case.
        public var counters: [String: [Counter: Double]]
        /// Per solver, the phases not timed (its answers lacked `time_s`); absent when none.
        public var untimed: [String: [Phase]]?
        /// Views with an intrinsic size or baselines (absent when none has).
        public var content: [String: Content]?
        /// The solver that judged this case when it was not the run's
        /// reference (a fall-back reference beyond the reference's limits);
        /// absent otherwise.
        public var reference: String?

        public init(name: String, source: String, views: Int, constraints: Int, variants: [String], results: [Result],
                    timings: [Timing], counters: [String: [Counter: Double]], untimed: [String: [Phase]]? = nil,
                    content: [String: Content]? = nil, reference: String? = nil) {
            self.name = name
            self.source = source
            self.views = views
            self.constraints = constraints
            self.variants = variants
            self.results = results
            self.timings = timings
            self.counters = counters
            self.untimed = untimed
            self.content = content
            self.reference = reference
        }
    }

    /// A view's intrinsic size (nil on an axis without one) and baselines.
    public struct Content: Codable, Equatable, Sendable {
        public var intrinsic: [Double?]?
        public var baselines: [Double]?

        public init(intrinsic: [Double?]?, baselines: [Double]?) {
            self.intrinsic = intrinsic
            self.baselines = baselines
        }
    }

    /// Seconds of one call of the run's yardstick (a fixed workload sampled
    /// throughout the timing pass): how fast the machine was during the run.
    public struct Yardstick: Codable, Equatable, Sendable {
        public var median: Double
        public var n: Int
        public var samples: [Double]

        public init(median: Double, n: Int, samples: [Double]) {
            self.median = median
            self.n = n
            self.samples = samples
        }
    }

    public var schema: String = ResultsDocument.schemaName
    public var version: Int = ResultsDocument.currentVersion
    /// ISO 8601.
    public var started: String
    public var finished: String
    public var machine: Machine
    /// Absent in files written by tests and very old runs.
    public var settings: Settings?
    public var solvers: [Solver]
    /// Absent in files written before the protocol's provenance was recorded.
    public var unavailable_solvers: [UnavailableSolver]?
    /// The peak resident memory of the run's process (built-in solvers run in it).
    public var peak_rss_bytes: Int?
    public var yardstick: Yardstick?
    public var problems: [Problem]
    public var cases: [Case]
    /// Verdict counts per solver; derived from ``cases`` (``recountedSummary()``).
    public var summary: [String: [Verdict: Int]]?
    /// The shard files a `merge` joined, in the order given.
    public var merged_from: [String]?

    public init(started: String, finished: String, machine: Machine, settings: Settings?, solvers: [Solver],
                unavailable_solvers: [UnavailableSolver]?, peak_rss_bytes: Int?, yardstick: Yardstick?, problems: [Problem],
                cases: [Case]) {
        self.started = started
        self.finished = finished
        self.machine = machine
        self.settings = settings
        self.solvers = solvers
        self.unavailable_solvers = unavailable_solvers
        self.peak_rss_bytes = peak_rss_bytes
        self.yardstick = yardstick
        self.problems = problems
        self.cases = cases
        self.summary = recountedSummary()
    }

    /// Verdict counts per solver over ``cases``, every verdict listed.
    public func recountedSummary() -> [String: [Verdict: Int]] {
        let none = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0, 0) })
        var summary: [String: [Verdict: Int]] = [:]
        for solver in solvers { summary[solver.name] = none }
        for c in cases {
            for r in c.results { summary[r.solver, default: none][r.verdict, default: 0] += 1 }
        }
        return summary
    }

    /// Why a file could not be read as results.
    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// Reads and checks a results file.
    /// - Throws: ``ReadError`` naming the file and what is wrong.
    public static func read(_ path: String) throws(ReadError) -> ResultsDocument {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(description: "\(path): cannot read") }
        return try decode(data, name: path)
    }

    /// Decodes a results document, refusing other schemas and versions.
    ///
    /// Why the schema and version are read first, on their own: a file of
    /// another version may not decode as this one, and "version 2; this
    /// layout-bench reads version 1" says what to do, where a missing key
    /// deep in the file would not.
    /// - Throws: ``ReadError`` naming `name` and what is wrong.
    public static func decode(_ data: Data, name: String) throws(ReadError) -> ResultsDocument {
        struct Header: Decodable {
            var schema: String?
            var version: Int?
        }
        let header: Header
        do { header = try decoder().decode(Header.self, from: data) } catch {
            throw ReadError(description: "\(name): not a JSON object (\(error))")
        }
        guard header.schema == schemaName else {
            throw ReadError(description: "\(name): not a layout-bench results document (schema \(header.schema.map { "'\($0)'" } ?? "missing"); expected '\(schemaName)')")
        }
        guard header.version == currentVersion else {
            throw ReadError(description: "\(name): results version \(header.version.map(String.init) ?? "missing"); this layout-bench reads version \(currentVersion)")
        }
        do {
            return try decoder().decode(ResultsDocument.self, from: data)
        } catch {
            throw ReadError(description: "\(name): not a valid layout-bench results document: \(Self.describe(error))")
        }
    }

    /// The document as written: one line, keys sorted, slashes unescaped.
    /// Why sorted keys: output must not depend on dictionary order. Why one
    /// line: pretty-printing put every sample on a line of its own and
    /// more than doubled the file (evidence:
    /// docs/measurements.md#m-front-end-costs); people read the reports, or
    /// the file through `jq`.
    /// - Throws: `EncodingError` (not expected: every value is encodable).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Writes the document atomically (a temporary file renamed into place),
    /// so an interrupted run never leaves a half-written results file.
    /// - Throws: the file system's error.
    public func write(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoded().write(to: url, options: .atomic)
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// A decoding error as a path and a reason ("cases[2].results[0].verdict: ...").
    static func describe(_ error: Error) -> String {
        func path(_ keys: [CodingKey]) -> String {
            var out = ""
            for key in keys {
                if let index = key.intValue { out += "[\(index)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return out.isEmpty ? "the document" : out
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// The reference solver's name, if the run had one.
    public var referenceName: String? { solvers.first { $0.reference }?.name }

    /// Median load + solve of a solver on a case (seconds), if timed.
    public static func loadSolve(_ c: Case, _ solver: String) -> Double? {
        guard let load = c.timings.first(where: { $0.solver == solver && $0.phase == .load })?.median,
              let solve = c.timings.first(where: { $0.solver == solver && $0.phase == .solve })?.median else { return nil }
        return load + solve
    }
}

extension ResultsDocument {
    /// Per solver (in the document's order), its answers against observed frames
    /// summed over the cases: views matched, views observed, cases, differences by cause.
    /// Solvers with no observed frames are left out.
    public func observedTallies() -> [(solver: String, matched: Int, total: Int, screens: Int, causes: [String: Int])] {
        solvers.compactMap { spec in
            var matched = 0, total = 0, screens = 0
            var causes: [String: Int] = [:]
            for c in cases {
                for r in c.results where r.solver == spec.name {
                    guard let o = r.observed else { continue }
                    matched += o.matched
                    total += o.total
                    screens += 1
                    for d in o.differences { causes[d.cause, default: 0] += 1 }
                }
            }
            return total > 0 ? (spec.name, matched, total, screens, causes) : nil
        }
    }
}
