import BenchReports
import BenchSchema
import Foundation

/// The timing runs of a same-machine A/B gate: a base and a head binary run
/// the same `run` command in alternating processes, ABBA order, each round
/// into its own folder (`round-K/base`, `round-K/head`), so that the rounds
/// can be compared again later (``load(_:)``).
public struct InterleavedRuns: Sendable {
    /// One of the two binaries.
    public struct Side: Sendable {
        public var binary: String
        /// Added to the steady environment of its processes (e.g. a fault injection's slowdown).
        public var environment: [String: String]

        public init(binary: String, environment: [String: String] = [:]) {
            self.binary = binary
            self.environment = environment
        }
    }

    /// Why the runs could not be completed.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// A process ended without writing its results (or was killed).
        case runFailed(side: String, round: Int, status: Int32, output: String)
        /// A folder of rounds that is not one (for ``load(_:)``).
        case notRounds(String)
        /// A results file that cannot be read.
        case unreadable(String)

        public var description: String {
            switch self {
            case .runFailed(let side, let round, let status, let output):
                return "the \(side) binary's run in round \(round) exited with status \(status) and wrote no results:\n\(output)"
            case .notRounds(let why): return why
            case .unreadable(let why): return why
            }
        }
    }

    public var base: Side
    public var head: Side
    /// The `run` arguments both get (without `--output`).
    public var arguments: [String]
    public var rounds: Int
    public var directory: String

    public init(base: Side, head: Side, arguments: [String], rounds: Int, directory: String) {
        self.base = base
        self.head = head
        self.arguments = arguments
        self.rounds = rounds
        self.directory = directory
    }

    /// The process order of round `k` (0-based): base first in even rounds,
    /// head first in odd ones (A B, B A, A B, ...).
    public static func order(round k: Int) -> [String] { k % 2 == 0 ? ["base", "head"] : ["head", "base"] }

    /// Runs every round; both binaries' processes in the steady environment.
    /// - Parameter progress: one line per process, for the user.
    /// - Throws: ``Failure/runFailed(side:round:status:output:)`` for a process that wrote no results.
    /// - Complexity: 2 · rounds processes, one after another.
    public func run(progress: (String) -> Void) throws(Failure) -> [PairedGate.Round] {
        SteadyProcess.disableAddressRandomization()
        for k in 0..<rounds {
            for side in Self.order(round: k) {
                let chosen = side == "base" ? base : head
                let output = Self.folder(directory, round: k + 1, side: side)
                try? FileManager.default.removeItem(atPath: output)
                let started = Date()
                let result = Shell.run([chosen.binary, "run"] + arguments + ["--output", output],
                                       environment: SteadyProcess.environment().merging(chosen.environment) { $1 })
                let file = (output as NSString).appendingPathComponent("results.json")
                // Exit 1 is a run with failing verdicts: its results are written and the gate compares them.
                guard result.status == 0 || result.status == 1, FileManager.default.fileExists(atPath: file) else {
                    let tail = result.output.split(separator: "\n", omittingEmptySubsequences: false).suffix(15).joined(separator: "\n")
                    throw .runFailed(side: side, round: k + 1, status: result.status, output: tail)
                }
                progress(String(format: "round %d/%d: %@ (%.1f s)", k + 1, rounds, side, Date().timeIntervalSince(started)))
            }
        }
        return try Self.load(directory)
    }

    static func folder(_ directory: String, round: Int, side: String) -> String {
        ((directory as NSString).appendingPathComponent("round-\(round)") as NSString).appendingPathComponent(side)
    }

    /// The rounds stored in `directory` (`round-1`, `round-2`, ... each with
    /// `base/results.json` and `head/results.json`).
    /// - Throws: ``Failure/notRounds(_:)`` for a folder without rounds, ``Failure/unreadable(_:)`` for a bad results file.
    public static func load(_ directory: String) throws(Failure) -> [PairedGate.Round] {
        var rounds: [PairedGate.Round] = []
        var k = 1
        while FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("round-\(k)")) {
            func read(_ side: String) throws(Failure) -> ResultsDocument {
                let path = (folder(directory, round: k, side: side) as NSString).appendingPathComponent("results.json")
                do { return try ResultsDocument.read(path) } catch { throw .unreadable(error.description) }
            }
            rounds.append(PairedGate.Round(base: try read("base"), head: try read("head")))
            k += 1
        }
        guard !rounds.isEmpty else { throw .notRounds("\(directory): no rounds (round-1/base/results.json, round-1/head/results.json, ...)") }
        return rounds
    }
}
