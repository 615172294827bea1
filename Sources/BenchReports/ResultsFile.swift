import BenchSchema
import Foundation

/// A `results.json` as the reports and gates read it (schema
/// `layout-bench/results`, version 1; see the README).
public struct ResultsFile: Decodable, Sendable {
    public struct Machine: Decodable, Sendable {
        public var cpu: String
        public var cores: Int
        public var memory_bytes: Double
        public var os: String
        public var swift: String
        public var glpk: String
        public var commit: String?
    }

    public struct Solver: Decodable, Sendable {
        public var name: String
        public var kind: String
        public var reference: Bool
        /// External solvers: the command, its directory, and what it said in hello.
        public var command: [String]?
        public var working_directory: String?
        public var hello: Hello?

        /// An external solver's `hello` (docs/solver-protocol.md), its provenance.
        public struct Hello: Decodable, Sendable {
            public var name: String
            public var version: String
            public var `protocol`: Int
            public var semantics: String
            public var incremental: Bool
            public var edits: Bool
            public var max_rows: Int?
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
            return words.joined(separator: "; ")
        }
    }

    /// A solver of the registry that could not start, and why.
    public struct UnavailableSolver: Decodable, Sendable {
        public var name: String
        public var command: [String]
        public var reason: String
    }

    public struct Problem: Decodable, Sendable {
        public var `case`: String
        public var message: String
    }

    public struct Level: Decodable, Sendable {
        public var priority: Double
        public var error: Double
    }

    public struct Result: Decodable, Sendable {
        public var variant: String
        public var solver: String
        public var verdict: Verdict
        public var reasons: [String]
        public var status: String?
        public var levels: [Level]
        public var ambiguous: [String]?
        public var conflict: [String]
        /// View name -> [x, y, width, height].
        public var frames: [String: [Double]]
    }

    public struct Timing: Decodable, Sendable {
        public var solver: String
        public var phase: Phase
        public var min: Double
        public var median: Double
        /// The 95% bootstrap interval of the median (absent in older files).
        public var median_ci: [Double]?
        /// Absent below 10 samples (it would be the maximum).
        public var p90: Double?
        public var max: Double
        public var n: Int
        /// Rounds per sample (absent in older files: 1).
        public var iterations: Int?
        /// Every sample: mean seconds of one operation over a batch (absent in older files).
        public var samples: [Double]?
    }

    public struct Case: Decodable, Sendable {
        public var name: String
        public var source: String
        public var views: Int
        public var constraints: Int
        public var variants: [String]
        public var results: [Result]
        public var timings: [Timing]
        public var counters: [String: [String: Double]]
        /// Per solver, the phases not timed (its answers lacked `time_s`).
        public var untimed: [String: [Phase]]?
        /// Views with an intrinsic size or baselines (absent when none has).
        public var content: [String: Content]?
    }

    /// A view's intrinsic size (nil on an axis without one) and baselines.
    public struct Content: Decodable, Sendable {
        public var intrinsic: [Double?]?
        public var baselines: [Double]?
    }

    public var schema: String
    public var version: Int
    public var started: String
    public var finished: String
    public var machine: Machine
    public var solvers: [Solver]
    /// Absent in files written before the protocol's provenance was recorded.
    public var unavailable_solvers: [UnavailableSolver]?
    public var problems: [Problem]
    public var cases: [Case]
    /// Seconds of one call of the run's yardstick (a fixed workload sampled
    /// throughout the timing pass): how fast the machine was during the run.
    public struct Yardstick: Decodable, Sendable {
        public var median: Double
        public var n: Int
        public var samples: [Double]
    }

    public var yardstick: Yardstick?

    /// Why a file could not be read as results.
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads and checks a results file.
    /// - Throws: ``ReadError`` naming the file and what is wrong.
    public static func read(_ path: String) throws(ReadError) -> ResultsFile {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(description: "\(path): cannot read") }
        return try decode(data, name: path)
    }

    public static func decode(_ data: Data, name: String) throws(ReadError) -> ResultsFile {
        let file: ResultsFile
        do {
            file = try JSONDecoder().decode(ResultsFile.self, from: data)
        } catch {
            throw ReadError(description: "\(name): not a layout-bench results document (\(error))")
        }
        guard file.schema == "layout-bench/results", file.version == 1 else {
            throw ReadError(description: "\(name): schema \(file.schema) version \(file.version); expected layout-bench/results 1")
        }
        return file
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

/// A duration for people: µs below a millisecond, ms below a second, else s.
public func formatSeconds(_ x: Double) -> String {
    x < 1e-3 ? String(format: "%.1f µs", x * 1e6) : x < 1 ? String(format: "%.2f ms", x * 1e3) : String(format: "%.2f s", x)
}

/// Escapes text for HTML text and attribute values: `& < > " '`.
/// Why our own: Plot leaves attribute values and entity-like text as they are.
public func escapeHTML(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
