import ArgumentParser
import BenchHarness
import BenchSchema
import BenchReports
import Foundation
import LayoutSolving

/// `layout-bench run`: the main job.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Cross-check and time the solvers over the corpus.",
        discussion: """
            Every case (corpus files and generated families) x variant x solver is judged against the \
            GLPK reference and the file's expect lines, then timed (parse, load, solve, resize sweep, \
            variant switch, add + remove). Writes results.json, report.html, results.csv and summary.md \
            to --output (default Reports/<timestamp>/, with Reports/latest pointing at it). Exit codes: 0 every verdict pass / unsupported / \
            weighted-divergence (external solvers' fails and errors are reported but count only with --strict); \
            130 interrupted (Ctrl-C; nothing of that run is written, earlier results stay intact); \
            1 a fail or error of a built-in solver, or a case that cannot be read; 64 usage; 66 no input; \
            73 the results cannot be written.
            """
    )

    @Argument(help: "Files or directories (default: the repository's Corpus/).")
    var paths: [String] = []

    @Option(help: "Comma-separated solvers; 'all' for every registered one, NAME@VERSION for a pinned version (default: every built-in and registered solver not marked opt-in).")
    var solvers: SolverNames?

    @Option(name: .customLong("solver"), help: "An external solver NAME=COMMAND (repeatable).")
    var externalSolvers: [String] = []

    @Option(name: .customLong("solvers-file"), help: "A solvers.json registry to use (repeatable); one inside a case folder is read only this way.")
    var solversFiles: [String] = []

    @Option(help: ArgumentHelp("The solver the others are judged against (one of --solvers).",
                               discussion: "GLPK by default. Another LP reference, e.g. highs, judges the cases over GLPK's limits."))
    var reference: String?

    @Option(help: "Only cases whose name matches this glob (repeatable).")
    var filter: [String] = []

    @Option(help: "Skip cases whose name matches this glob (repeatable).")
    var skip: [String] = []

    /// `--scale`: a size of the generated families, or none of them.
    enum ScaleOption: String, CaseIterable, ExpressibleByArgument {
        case small, medium, large, none

        /// The families' scale; nil for `none`.
        var scale: Scale? { Scale(rawValue: rawValue) }
    }

    @Option(help: "Generated families: small, medium, large, or none (default: small on the default corpus, none when PATHS are given).")
    var scale: ScaleOption?

    /// `run FILE` means that file: the generated families join only the default corpus unless asked for.
    var effectiveScale: ScaleOption { scale ?? (paths.isEmpty ? .small : .none) }

    @Option(help: "The least number of samples per phase (each sample a batch of at least --sample-time).")
    var repetitions = 10

    @Option(help: "Untimed warm-up rounds per solver and case (at least 1 is run: it sizes the batches).")
    var warmup = 1

    @Option(help: "Seconds of timing per case, shared by its solvers: samples are taken until it is spent.")
    var timeBudget = 0.05

    @Option(help: "The least seconds of one sample: shorter phases are repeated within a sample.")
    var sampleTime = 0.001

    @Option(help: "Seconds an external solver may take for one operation.")
    var timeout = 30.0

    @Option(help: "Run shard K of N (K/N, K in 1...N): cases i with i mod N == K - 1.")
    var shard: Shard?

    @Option(help: "Directory for the run's files (default Reports/<timestamp>/).")
    var output: String?

    @Flag(help: "No progress bar or lines.")
    var noProgress = false

    @Flag(help: "Print only the summary line.")
    var quiet = false

    @Flag(help: "Let external solvers' failures and errors fail the run too (exit 1).")
    var strict = false

    @Flag(help: ArgumentHelp("Also judge every solver against itself on transformed cases: constraints reordered, views renamed, lengths doubled, mirrored, a required constraint duplicated, priorities relabelled.",
                             discussion: "An answer that changes where the transformation says it cannot gets the verdict metamorphic, its reason naming the relation (order-dependent, not scale-invariant, ...) and the pair of variants. Cases over 5,000 constraints are left out."))
    var metamorphic = false

    @Flag(help: "List the cases the run would take (after --filter, --skip, --shard) and stop.")
    var list = false

    @Flag(help: "Record the run in the history (see `layout-bench history`).")
    var record = false

    @Option(help: "The history database for --record (default Reports/history.sqlite).")
    var history: String?

    func validate() throws {
        guard (1...10_000).contains(repetitions) else { throw ValidationError("--repetitions must be in 1...10000") }
        guard (0...1000).contains(warmup) else { throw ValidationError("--warmup must be in 0...1000") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
        guard timeBudget >= 0, timeBudget <= 3600 else { throw ValidationError("--time-budget must be in 0...3600 seconds") }
        guard sampleTime >= 0, sampleTime <= 10 else { throw ValidationError("--sample-time must be in 0...10 seconds") }
    }

    func run() throws {
        let started = Date()
        let targets = try self.targets()
        let (registry, chosen) = try chooseSolvers(for: targets)

        // Cases.
        var selection = CaseSelection(paths: targets, scale: effectiveScale.scale)
        selection.filter = filter
        selection.skip = skip
        selection.shard = shard
        let selected = selection.select()
        if list {
            // What --filter / --skip / --shard select, one name a line; nothing is run.
            writeStandardOutput(selected.cases.map { $0.name + "\n" }.joined())
            return
        }
        if selected.cases.isEmpty && selected.problems.isEmpty {
            throw ToolError(message: "no cases to run (check PATHS, --filter and --skip)", status: .noInput)
        }

        // Output directory.
        let root = Inputs.repositoryRoot() as NSString
        let stamp = ISO8601DateFormatter.string(from: started, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime])
            .replacingOccurrences(of: ":", with: "-")
        let directory = output ?? (root as NSString).appendingPathComponent("Reports/\(stamp)")
        let interrupt = Self.reportInterrupts(latest: (root as NSString).appendingPathComponent("Reports/latest/results.json"))
        defer { interrupt.cancel() }

        // Run.
        var settings = RunSettings(solvers: chosen)
        settings.repetitions = repetitions
        settings.warmup = warmup
        settings.timeBudget = timeBudget
        settings.sampleTime = sampleTime
        settings.timeout = timeout
        settings.reference = reference ?? settings.reference
        settings.metamorphic = metamorphic
        let runner = Runner(settings: settings)
        let bar = ProgressDisplay(enabled: !noProgress && !quiet)
        let results = runner.run(selected.cases) { bar.show($0) }
        bar.finish()

        var run = RunResults(
            started: started, finished: Date(), machine: MachineInfo.current(),
            settings: ResultsDocument.Settings(repetitions: repetitions, warmup: warmup, time_budget_s: timeBudget,
                                               sample_time_s: sampleTime, scale: effectiveScale.rawValue, timeout_s: timeout,
                                               shard: shard?.description, paths: targets, corpus_digest: selected.corpusDigest,
                                               corpus_cases: selected.corpusNames),
            solvers: runner.settings.solvers, problems: selected.problems, cases: results, yardstick: runner.yardstickSamples)
        run.hellos = runner.hellos
        run.origins = registry.origins
        run.reference = settings.reference
        run.unavailable = runner.unavailable
        _ = try write(run, to: directory, stamp: output == nil ? stamp : nil, root: root as String)
        if run.hasFailures(strict: strict) { throw ExitStatus.failure.exitCode }
    }

    /// The paths given, or the repository's Corpus/.
    /// - Throws: exit 66 when no path is given and there is no Corpus/.
    func targets() throws -> [String] {
        if !paths.isEmpty { return paths }
        guard let corpus = Inputs.defaultCorpus() else {
            throw ToolError(message: "no Corpus/ directory here or next to the binary; pass PATHS", status: .noInput)
        }
        return [corpus]
    }

    /// Solvers: built-ins, the registries the user chose (--solvers-file,
    /// ./solvers.json, the tool's own), the command line; never a registry
    /// inside a case folder (a corpus holds tests, not programs to run).
    /// Notes what was not read or not run, and where each command comes from.
    /// - Throws: exit 64 for an unknown name, a malformed registry or a --reference not run.
    func chooseSolvers(for targets: [String]) throws -> (registry: SolverRegistry, chosen: [SolverSpec]) {
        let registry = try Inputs.registry(solversFiles: solversFiles, commandLine: externalSolvers)
        for ignored in SolverRegistry.ignoredRegistries(in: targets, read: Array(Set(registry.origins.values))) where !quiet {
            printError("note: \(ignored) was not read (a corpus's registry runs only when chosen: --solvers-file \(ignored))")
        }
        for name in externalSolvers.compactMap({ $0.split(separator: "=").first.map(String.init) })
        where solvers.map({ !$0.names.contains(name) }) ?? false {
            printError("note: --solver \(name)=... is not run: it is not named in --solvers")
        }
        let chosen: [SolverSpec]
        do {
            chosen = try solvers.map { names throws(RegistryError) in try registry.select(names.names) } ?? registry.defaults
        } catch {
            throw ToolError(message: "\(error)", status: .usage)
        }
        if !quiet && !list {
            // Where each solver's command comes from, before any is started.
            let groups = Dictionary(grouping: chosen.map(\.name)) { registry.origins[$0] ?? "built in" }
            printError("layout-bench run: solvers: " + groups.keys.sorted().map { "\(groups[$0, default: []].joined(separator: ", ")) (\($0))" }
                .joined(separator: "; "))
        }
        if !list { Inputs.prepare(chosen, quiet: quiet) }
        if let reference, !chosen.contains(where: { $0.name == reference }) {
            throw ToolError(message: "--reference \(reference) is not one of the solvers run (\(chosen.map(\.name).joined(separator: ", ")))",
                            status: .usage)
        }
        return (registry, chosen)
    }

    /// Ctrl-C: results are written only at the end, atomically, so an
    /// interrupted run leaves the last complete results as they were; say
    /// so and where they are, and exit 130. (Child solvers see their stdin close and exit.)
    static func reportInterrupts(latest: String) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            let last = FileManager.default.fileExists(atPath: latest) ? "the last complete results are \(latest)"
                : "there are no earlier complete results"
            FileHandle.standardError.write(Data("\nlayout-bench run: interrupted; this run wrote no results (\(last))\n".utf8))
            Foundation.exit(ExitStatus.interrupted.rawValue)
        }
        interrupt.resume()
        return interrupt
    }

    /// Writes results.json and the reports into `directory`, points
    /// Reports/latest at `stamp` (a run into the default folder), prints the
    /// summary and records the run in the history when asked.
    /// - Throws: exit 73 when the results cannot be written.
    func write(_ run: RunResults, to directory: String, stamp: String?, root: String) throws -> URL {
        // The document is made once: written to results.json and handed to
        // the reports in memory (they never re-read the file).
        let document = run.document()
        let file = URL(fileURLWithPath: directory).appendingPathComponent("results.json")
        do {
            try document.write(to: file)
        } catch {
            throw ToolError(message: "cannot write \(file.path): \(error.localizedDescription)", status: .cannotCreate)
        }
        // The reports, next to the results.
        _ = try ReportWriter.write(document, source: file.path, formats: [.html, .csv, .md], to: directory)
        if let stamp {
            // Reports/latest -> the newest run (relative, so the checkout can move).
            let latest = (root as NSString).appendingPathComponent("Reports/latest")
            try? FileManager.default.removeItem(atPath: latest)
            try? FileManager.default.createSymbolicLink(atPath: latest, withDestinationPath: stamp)
        }
        print(Summary.text(run, document, file: file.path, quiet: quiet, strict: strict), terminator: "")
        if record {
            let said = try HistoryCommand.record(file.path, history: history)
            if !quiet { printError("layout-bench run: \(said)") }
        }
        return file
    }
}

/// A progress bar on a terminal, plain lines otherwise (stderr).
final class ProgressDisplay {
    let enabled: Bool
    let terminal = isatty(2) == 1

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ p: RunProgress) {
        guard enabled, p.done < p.total else { return }
        if terminal {
            let width = 30
            let filled = p.total == 0 ? 0 : width * p.done / p.total
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            let name = p.current.count > 40 ? String(p.current.prefix(37)) + "..." : p.current
            FileHandle.standardError.write(Data("\r[\(bar)] \(p.done + 1)/\(p.total) \(name)\u{1B}[K".utf8))
        } else {
            FileHandle.standardError.write(Data("[\(p.done + 1)/\(p.total)] \(p.current)\n".utf8))
        }
    }

    func finish() {
        if enabled && terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
