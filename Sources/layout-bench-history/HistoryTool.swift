import ArgumentParser
import BenchHistory
import BenchMetrics
import BenchSchema
import Foundation

/// `layout-bench history add|report|bisect` (`layout-bench` runs this
/// program for it): every recorded run in SQLite.
///
/// Why a program of its own: GRDB brings hundreds of protocol conformances,
/// and the Swift runtime scans every conformance record of a binary on a
/// dynamic cast it has not cached; linked into `layout-bench`, it added that
/// scan to every small `solve` (evidence: docs/measurements.md#m-history).
@main
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout-bench history",
        abstract: "Record runs in an SQLite history, draw the trend dashboard, find the commit of a step.",
        discussion: """
            The history (default Reports/history.sqlite, --history PATH) keeps one row per run (commit, date, \
            machine, yardstick, solver versions, settings) and per case x variant x solver x phase (median, \
            interval, n), verdicts and counters. `run --record` adds a run as it finishes. Exit codes: 0 done, \
            64 usage, 65 a file that is not a history (or not results; it is left untouched), 66 a file that \
            cannot be read, 73 the page cannot be written.
            """,
        subcommands: [Add.self, Report.self, Bisect.self])

    struct Location: ParsableArguments {
        @Option(help: "The history database (default Reports/history.sqlite).")
        var history: String?

        var path: String { history ?? HistoryCommand.defaultPath }
    }

    static var defaultPath: String { (Tool.repositoryRoot() as NSString).appendingPathComponent("Reports/history.sqlite") }

    /// Errors become a message and an exit status here, as in `layout-bench`.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ToolError {
            FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
            Foundation.exit(failure.status)
        } catch {
            exit(withError: error)
        }
    }

    /// Opens a history, mapping its refusals to exit codes.
    static func open(_ path: String) throws(ToolError) -> HistoryStore {
        do { return try HistoryStore(path: path) } catch {
            switch error {
            case .database: throw ToolError(message: error.description, status: .cannotCreate)
            default: throw ToolError(message: error.description, status: .dataError)
            }
        }
    }

    /// Records one results document; its commit's date orders it (from git when the commit is known here).
    static func record(_ document: ResultsDocument, source: String, in store: HistoryStore) throws(ToolError) -> Int64? {
        var commitTime: String?
        if let commit = document.machine.commit {
            commitTime = Self.git(["show", "-s", "--format=%cI", commit])
        }
        do { return try store.add(document, source: source, commitTime: commitTime) } catch {
            throw ToolError(message: error.description, status: .cannotCreate)
        }
    }

    static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", Tool.repositoryRoot()] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record results.json files (a run recorded before is skipped).")

        @Argument(help: "results.json files (default Reports/latest/results.json).")
        var results: [String] = []

        @OptionGroup var location: Location

        func run() throws {
            let store = try HistoryCommand.open(location.path)
            for path in results.isEmpty ? [Tool.latestResults()] : results {
                let document = try Tool.read(path)
                let id = try HistoryCommand.record(document, source: path, in: store)
                print(id.map { "recorded \(path) as run \($0) in \(location.path)" } ?? "\(path): recorded before; skipped")
            }
        }
    }

    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the trend dashboard (one static HTML page).")

        @OptionGroup var location: Location

        @Option(help: "The page (default Reports/history.html).")
        var output: String?

        @Option(help: "Also plot each case whose name matches this glob, per solver and phase (repeatable).")
        var `case`: [String] = []

        func run() throws {
            let store = try HistoryCommand.open(location.path)
            let runs: [HistoryStore.RunInfo]
            let timings: [HistoryStore.Point]
            let rates: [(run: Int64, solver: String, passing: Int, total: Int)]
            let allocations: [(run: Int64, solver: String, total: Double)]
            do {
                runs = try store.runs()
                timings = try store.timings()
                rates = try store.passRates()
                allocations = try store.counterTotals(Counter.allocationsLoad.rawValue)
            } catch { throw ToolError(message: error.description, status: .dataError) }
            let index = Dictionary(runs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
            let families = Set(timings.map { "\($0.solver)\u{0}\($0.phase)" }).sorted()
            var series: [HistorySeries] = []
            for family in families {
                let parts = family.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2 else { continue }
                series.append(HistorySeries.make(solver: parts[0], phase: parts[1], runs: runs, timings: timings))
                let cases = Set(timings.filter { $0.solver == parts[0] && $0.phase == parts[1] }.map(\.caseName))
                for name in cases.sorted() where self.case.contains(where: { Glob.matches(name, $0) }) {
                    series.append(HistorySeries.make(solver: parts[0], phase: parts[1], caseName: name, runs: runs, timings: timings))
                }
            }
            var passRates: [String: [(Int, Double)]] = [:]
            for r in rates where r.total > 0 { if let i = index[r.run] { passRates[r.solver, default: []].append((i, Double(r.passing) / Double(r.total))) } }
            var allocationLines: [String: [(Int, Double)]] = [:]
            for a in allocations { if let i = index[a.run] { allocationLines[a.solver, default: []].append((i, a.total)) } }
            let page = HistoryReport.render(runs: runs, series: series, passRates: passRates, allocations: allocationLines)
            let target = output ?? (Tool.repositoryRoot() as NSString).appendingPathComponent("Reports/history.html")
            try Tool.write(page, to: target)
            let steps = series.flatMap { s in s.steps.map { (s, $0) } }
            print("wrote \(target): \(runs.count) run(s), \(series.count) series, \(steps.count) step(s)")
            for (s, step) in steps {
                print(String(format: "  step %+.1f%% in %@ %@%@ between %@ and %@", step.change * 100, s.solver, s.phase,
                             s.caseName.map { " \($0)" } ?? "", step.before.commit ?? "?", step.after.commit ?? "?"))
            }
        }
    }

    struct Bisect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name the first commit of the largest step in one case's time (from recorded runs).",
            discussion: "Prints the step, the last recorded commit before it and the first after; where git knows commits in between that were not recorded, lists them with the command that records each.")

        @OptionGroup var location: Location

        @Option(help: "The case (its name in the results, e.g. family/alternating-grid-r100).")
        var `case`: String

        @Option(help: "The solver.")
        var solver: String

        @Option(help: "The phase: parse, load, solve, resize, switch, add+remove.")
        var phase: String

        func validate() throws {
            guard Phase(rawValue: phase) != nil else { throw ValidationError("unknown phase '\(phase)'; one of \(Phase.allCases.map(\.rawValue).joined(separator: ", "))") }
        }

        func run() throws {
            let store = try HistoryCommand.open(location.path)
            let runs: [HistoryStore.RunInfo]
            let timings: [HistoryStore.Point]
            do {
                runs = try store.runs()
                timings = try store.timings(solver: solver, phase: phase, caseName: self.case)
            } catch { throw ToolError(message: error.description, status: .dataError) }
            guard !timings.isEmpty else {
                throw ToolError(message: "no recorded timing of \(self.case) \(solver) \(phase) in \(location.path)", status: .noInput)
            }
            let series = HistorySeries.make(solver: solver, phase: phase, caseName: self.case, runs: runs, timings: timings)
            guard let step = series.steps.max(by: { abs(Foundation.log($0.levelAfter / $0.levelBefore)) < abs(Foundation.log($1.levelAfter / $1.levelBefore)) }) else {
                print("no step in \(series.points.count) recorded run(s) of \(self.case) \(solver) \(phase)")
                return
            }
            print(String(format: "step %+.1f%% in %@ %@ %@ (%@ -> %@)", step.change * 100, self.case, solver, phase,
                         HistoryReport.seconds(step.levelBefore), HistoryReport.seconds(step.levelAfter)))
            print("last recorded before: \(step.before.commit ?? "?") (\(step.before.commitTime))")
            print("first recorded after: \(step.after.commit ?? "?") (\(step.after.commitTime))")
            guard let a = step.before.commit, let b = step.after.commit,
                  let between = HistoryCommand.git(["rev-list", "--reverse", "\(a)..\(b)"])?.split(separator: "\n").map(String.init) else {
                print("first commit of the step: \(step.after.commit ?? "?") (git cannot list the commits in between here)")
                return
            }
            let missing = between.filter { $0 != b }
            if missing.isEmpty {
                print("first commit of the step: \(b) (no commit in between)")
            } else {
                print("the step is in one of \(missing.count + 1) commits; not recorded yet (record each, then bisect again):")
                for commit in missing {
                    print("  git checkout \(commit) && scripts/layout-bench run --record --solvers \(solver) --filter '\(self.case)'")
                }
            }
        }
    }
}
