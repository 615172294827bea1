import ArgumentParser
import BenchReports
import BenchSchema
import Foundation

/// Writes the reports of a results file into a directory.
enum ReportWriter {
    enum Format: String, CaseIterable {
        case html, csv, md, json
        var fileName: String {
            switch self {
            case .html: return "report.html"
            case .csv: return "results.csv"
            case .md: return "summary.md"
            case .json: return "results.json"
            }
        }
    }

    /// - Throws: ``ToolError`` with exit 73 when a file cannot be written.
    static func write(_ results: ResultsDocument, source: String, formats: [Format], to directory: String,
                      gate: GateReport? = nil) throws(ToolError) -> [String] {
        var written: [String] = []
        for format in formats {
            let path = (directory as NSString).appendingPathComponent(format.fileName)
            let text: String
            switch format {
            case .html: text = HTMLReport.render(results, gate: gate)
            case .md: text = MarkdownReport.render(results, gate: gate)
            case .csv:
                do { text = try CSVReport.render(results) } catch {
                    throw ToolError(message: "cannot write CSV: \(error)", status: .cannotCreate)
                }
            case .json:
                if URL(fileURLWithPath: source).standardized.path == URL(fileURLWithPath: path).standardized.path { continue }
                // The document as this version writes it (the same value, re-encoded).
                do { text = String(decoding: try results.encoded(), as: UTF8.self) } catch {
                    throw ToolError(message: "cannot encode the results: \(error)", status: .software)
                }
            }
            try Inputs.write(text, to: path)
            written.append(path)
        }
        return written
    }

    /// `RESULTS` or the newest run's (`Reports/latest/results.json`).
    static func resultsPath(_ given: String?) -> String {
        if let given { return given }
        return (Inputs.repositoryRoot() as NSString).appendingPathComponent("Reports/latest/results.json")
    }

    static func read(_ path: String) throws(ToolError) -> ResultsDocument {
        do { return try ResultsDocument.read(path) } catch {
            throw ToolError(message: error.description, status: FileManager.default.fileExists(atPath: path) ? .dataError : .noInput)
        }
    }
}

/// `layout-bench report RESULTS [--format html,csv,md,json] [--output DIR]`
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write HTML, CSV and Markdown reports of a run's results.json.",
        discussion: "RESULTS defaults to Reports/latest/results.json; DIR to the directory RESULTS is in."
    )

    @Argument(help: "A results.json written by `run`.")
    var results: String?

    @Option(help: "Comma-separated formats: html, csv, md, json.")
    var format = ReportFormats([.html, .csv, .md])

    @Option(help: "Output directory.")
    var output: String?

    @Option(help: "Compare with this baseline (a name under Reports/baselines/ or a path): each timing gets its change, interval and the gate's decision.")
    var baseline: String?

    @Option(help: "Compare with a previous run's results.json (a one-run baseline made in memory, the gate's statistics).")
    var compare: String?

    func validate() throws {
        if baseline != nil && compare != nil { throw ValidationError("give --baseline or --compare, not both") }
    }

    func run() throws {
        let chosen = format.formats
        let path = ReportWriter.resultsPath(results)
        let file = try ReportWriter.read(path)
        let directory = output ?? (path as NSString).deletingLastPathComponent
        var gate: GateReport?
        if let baseline {
            let stored: Baseline
            do { stored = try Baseline.read(GateCommand.baselinePath(baseline)) } catch {
                throw ToolError(message: error.description, status: error.missing ? .noInput : .dataError)
            }
            gate = Gate.compare(file, with: stored, threshold: nil, aggregateThreshold: nil, onlyCommon: false)
        }
        if let compare {
            // A previous run as a baseline of one run: its between-run
            // variation is assumed (as `baseline save` does with one file).
            guard let stored = Baseline.from([try ReportWriter.read(compare)]) else {
                throw ToolError(message: "\(compare): no cases to compare with", status: .dataError)
            }
            gate = Gate.compare(file, with: stored, threshold: nil, aggregateThreshold: nil, onlyCommon: true)
        }
        for written in try ReportWriter.write(file, source: path, formats: chosen, to: directory, gate: gate) { print("wrote \(written)") }
    }
}

/// `layout-bench baseline save NAME [RESULTS]`
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline", abstract: "Manage gate baselines (Reports/baselines/NAME.json).",
        subcommands: [Save.self])

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save",
            abstract: "Store runs' verdicts, counters and times (each run's medians) as a baseline, meant to be committed.")

        @Argument(help: "The baseline's name (letters, digits, - and _).")
        var name: String

        @Argument(help: "results.json files of separate runs of the same code (default Reports/latest/results.json); 3 or more let the gate measure the variation between runs.")
        var results: [String] = []

        @Option(help: "The baseline's per-case time threshold, e.g. 25% or 0.25.")
        var threshold = Threshold(fraction: 0.25, text: "25%")

        @Option(help: "The baseline's threshold for a solver's phase over all cases, e.g. 10%.")
        var aggregateThreshold = Threshold(fraction: 0.10, text: "10%")

        func validate() throws {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ValidationError("a baseline name uses letters, digits, - and _")
            }
        }

        func run() throws {
            let paths = results.isEmpty ? [ReportWriter.resultsPath(nil)] : results
            var files: [ResultsDocument] = []
            for path in paths { files.append(try ReportWriter.read(path)) }
            let thresholds = Baseline.Thresholds(time: threshold.fraction, aggregate: aggregateThreshold.fraction)
            guard let baseline = Baseline.from(files, thresholds: thresholds) else {
                throw ToolError(message: "no results", status: .noInput)
            }
            let target = GateCommand.baselinePath(name)
            let data: Data
            do { data = try baseline.encoded() } catch { throw ToolError(message: "\(error)", status: .cannotCreate) }
            try Inputs.write(String(decoding: data, as: UTF8.self) + "\n", to: target)
            print("saved baseline '\(name)' (\(baseline.cases.count) cases, \(files.count) run(s)) to \(target)")
            if files.count < 3 {
                printError("note: with \(files.count) run(s) the variation between runs is assumed, not measured; "
                           + "save from 3 or more runs of the same code for a gate that is both quiet and sensitive")
            }
        }
    }
}

/// `layout-bench gate --baseline NAME [RESULTS] [--threshold 25%]`
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Compare a run with a baseline: exit 0 no regression, 2 regression, 4 only improvements.",
        discussion: """
            Verdicts, machine-independent counters and allocation counts gate exactly. A time regresses when \
            the interval of its ratio now/baseline (the run's and the baseline's intervals of the median, \
            widened by the variation between runs that the baseline's runs show) lies above 1 and the change \
            is larger than the threshold; each solver's phase is also compared over all cases (geometric \
            mean, --aggregate-threshold). Prints every comparison that moved, with baseline, now, change, \
            interval and threshold; writes gate.md next to RESULTS (or --markdown) and gate.html beside it \
            (the report with every timing's change, interval and decision). Exit codes: 0 no \
            regression, 2 regression, 4 only improvements (the baseline is stale), 64 usage, 65 a file that \
            is not results or a baseline, 66 a file that cannot be read, 73 gate.md or gate.html cannot be written.
            """
    )

    @Option(help: "The baseline's name (Reports/baselines/NAME.json) or a path to one.")
    var baseline: String

    @Argument(help: "A results.json (default Reports/latest/results.json).")
    var results: String?

    @Option(help: "Per-case time threshold, e.g. 25% or 0.25 (default: the baseline's).")
    var threshold: Threshold?

    @Option(help: "Threshold of a solver's phase over all cases, e.g. 10% (default: the baseline's).")
    var aggregateThreshold: Threshold?

    @Flag(help: "Cases missing from the baseline are reported, not regressions.")
    var lenient = false

    @Flag(help: "Gate only the cases both have (a run on a subset): the others are listed, never regressions.")
    var onlyCommon = false

    @Option(help: "Where to write the Markdown (default gate.md next to RESULTS).")
    var markdown: String?

    static func baselinePath(_ name: String) -> String {
        if name.hasSuffix(".json") || name.contains("/") { return name }
        return (Inputs.repositoryRoot() as NSString).appendingPathComponent("Reports/baselines/\(name).json")
    }

    func run() throws {
        let path = ReportWriter.resultsPath(results)
        let outcome: Gate.Outcome
        let file = try ReportWriter.read(path)
        let stored: Baseline
        do { stored = try Baseline.read(Self.baselinePath(baseline)) } catch {
            throw ToolError(message: error.description, status: error.missing ? .noInput : .dataError)
        }
        let report = Gate.compare(file, with: stored, threshold: threshold?.fraction,
                                  aggregateThreshold: aggregateThreshold?.fraction, onlyCommon: onlyCommon)
        outcome = report.outcome(lenient: lenient || onlyCommon)
        print(Self.table(report, outcome: outcome, baseline: baseline), terminator: "")
        let target = markdown ?? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("gate.md")
        try Inputs.write(MarkdownReport.render(file, gate: report), to: target)
        // The same comparison in the HTML report, timing by timing, next to the Markdown.
        let page = ((target as NSString).deletingLastPathComponent as NSString).appendingPathComponent("gate.html")
        try Inputs.write(HTMLReport.render(file, gate: report), to: page)
        if outcome != .pass { throw ExitCode(outcome.rawValue) }
    }

    static func table(_ report: GateReport, outcome: Gate.Outcome, baseline: String) -> String {
        let findings = report.findings
        let moved = findings.filter { $0.kind != .noise }
        let compared = findings.filter { $0.interval != nil }.count
        var out = "gate against '\(baseline)': "
        switch outcome {
        case .pass: out += "no regression"
        case .regression: out += "REGRESSION"
        case .improvementsOnly: out += "only improvements (the baseline is stale: save a new one)"
        }
        out += " (\(moved.count) moved, \(findings.count - moved.count) within the noise; \(compared) times compared at "
            + String(format: "%.0f%%", report.confidence * 100) + " confidence against a baseline of \(report.baselineRuns) run(s))\n"
        if let drift = report.drift {
            out += "machine drift (the yardstick, now against the baseline): " + GateText.change(drift.estimate)
                + " " + GateText.interval(drift) + (report.driftCorrected ? ", divided out of every time" : ", within the dead band: not corrected") + "\n"
        }
        guard !moved.isEmpty else { return out }
        var rows = [["", "metric", "case", "baseline", "now", "change", "interval", "threshold"]]
        for f in moved {
            rows.append([f.kind.rawValue, f.metric, f.subject, f.baseline, f.current, f.change.map(GateText.change) ?? "",
                         f.interval.map(GateText.interval) ?? "", f.threshold.map { String(format: "%.0f%%", $0 * 100) } ?? ""])
        }
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            out += row.enumerated().map { c, s in s + String(repeating: " ", count: widths[c] - s.count) }.joined(separator: "  ") + "\n"
        }
        return out
    }
}
