import ArgumentParser
import BenchReports
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
    static func write(_ results: ResultsFile, source: String, formats: [Format], to directory: String,
                      findings: [GateFinding]? = nil) throws(ToolError) -> [String] {
        var written: [String] = []
        for format in formats {
            let path = (directory as NSString).appendingPathComponent(format.fileName)
            let text: String
            switch format {
            case .html: text = HTMLReport.render(results)
            case .md: text = MarkdownReport.render(results, findings: findings)
            case .csv:
                do { text = try CSVReport.render(results) } catch {
                    throw ToolError(message: "cannot write CSV: \(error)", status: .cannotCreate)
                }
            case .json:
                if URL(fileURLWithPath: source).standardized.path == URL(fileURLWithPath: path).standardized.path { continue }
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw ToolError(message: "cannot read \(source)", status: .noInput)
                }
                text = String(decoding: data, as: UTF8.self)
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

    static func read(_ path: String) throws(ToolError) -> ResultsFile {
        do { return try ResultsFile.read(path) } catch {
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
    var format = "html,csv,md"

    @Option(help: "Output directory.")
    var output: String?

    func run() throws {
        let formats = format.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var chosen: [ReportWriter.Format] = []
        for name in formats {
            guard let f = ReportWriter.Format(rawValue: name) else {
                throw ValidationError("unknown format '\(name)'; use html, csv, md or json")
            }
            chosen.append(f)
        }
        let path = ReportWriter.resultsPath(results)
        do throws(ToolError) {
            let file = try ReportWriter.read(path)
            let directory = output ?? (path as NSString).deletingLastPathComponent
            for written in try ReportWriter.write(file, source: path, formats: chosen, to: directory) { print("wrote \(written)") }
        } catch {
            printError("error: \(error.message)")
            throw error.status.exitCode
        }
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
            abstract: "Store a run's verdicts, counters and calibrated times as a baseline, meant to be committed.")

        @Argument(help: "The baseline's name (letters, digits, - and _).")
        var name: String

        @Argument(help: "results.json files of runs of the same code (default Reports/latest/results.json); with several, each timing is the median over them.")
        var results: [String] = []

        @Option(help: "Default time threshold of the baseline, e.g. 10% or 0.1.")
        var threshold: String = "10%"

        func validate() throws {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ValidationError("a baseline name uses letters, digits, - and _")
            }
            guard GateCommand.parseThreshold(threshold) != nil else { throw ValidationError("bad --threshold '\(threshold)'") }
        }

        func run() throws {
            let paths = results.isEmpty ? [ReportWriter.resultsPath(nil)] : results
            do throws(ToolError) {
                var files: [ResultsFile] = []
                for path in paths { files.append(try ReportWriter.read(path)) }
                guard let baseline = Baseline.from(files, thresholds: .init(time: GateCommand.parseThreshold(threshold) ?? 0.1)) else {
                    throw ToolError(message: "no results", status: .noInput)
                }
                let target = GateCommand.baselinePath(name)
                let data: Data
                do { data = try baseline.encoded() } catch { throw ToolError(message: "\(error)", status: .cannotCreate) }
                try Inputs.write(String(decoding: data, as: UTF8.self) + "\n", to: target)
                print("saved baseline '\(name)' (\(baseline.cases.count) cases, \(files.count) run(s)) to \(target)")
            } catch {
                printError("error: \(error.message)")
                throw error.status.exitCode
            }
        }
    }
}

/// `layout-bench gate --baseline NAME [RESULTS] [--threshold 10%]`
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Compare a run with a baseline: exit 0 no regression, 2 regression, 4 only improvements, 1 error.",
        discussion: """
            Verdicts and machine-independent counters (Cassowary pivots, GLPK iterations) gate exactly. \
            Times gate as ratios measured in the same run (a solver's median over the reference's \
            load + solve on the same case; the reference's over the run's calibration loop), and a \
            change within the runs' own spread (p90 - min over min) or under 0.2 ms is noise. \
            Writes gate.md next to RESULTS (or --markdown).
            """
    )

    @Option(help: "The baseline's name (Reports/baselines/NAME.json) or a path to one.")
    var baseline: String

    @Argument(help: "A results.json (default Reports/latest/results.json).")
    var results: String?

    @Option(help: "Time threshold, e.g. 10% or 0.1 (default: the baseline's).")
    var threshold: String?

    @Flag(help: "Cases missing from the baseline are reported, not regressions.")
    var lenient = false

    @Option(help: "Where to write the Markdown (default gate.md next to RESULTS).")
    var markdown: String?

    static func parseThreshold(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%"), let v = Double(trimmed.dropLast()), v.isFinite, v >= 0 { return v / 100 }
        if let v = Double(trimmed), v.isFinite, v >= 0 { return v }
        return nil
    }

    static func baselinePath(_ name: String) -> String {
        if name.hasSuffix(".json") || name.contains("/") { return name }
        return (Inputs.repositoryRoot() as NSString).appendingPathComponent("Reports/baselines/\(name).json")
    }

    func validate() throws {
        if let threshold, GateCommand.parseThreshold(threshold) == nil { throw ValidationError("bad --threshold '\(threshold)'") }
    }

    func run() throws {
        let path = ReportWriter.resultsPath(results)
        let outcome: Gate.Outcome
        do throws(ToolError) {
            let file = try ReportWriter.read(path)
            let stored: Baseline
            do { stored = try Baseline.read(Self.baselinePath(baseline)) } catch {
                throw ToolError(message: error.description, status: .failure)
            }
            let findings = Gate.compare(file, with: stored, threshold: threshold.flatMap(Self.parseThreshold))
            outcome = Gate.outcome(findings, lenient: lenient)
            print(Self.table(findings, outcome: outcome, baseline: baseline))
            let target = markdown ?? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("gate.md")
            try Inputs.write(MarkdownReport.render(file, findings: findings), to: target)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        if outcome != .pass { throw ExitCode(outcome.rawValue) }
    }

    static func table(_ findings: [GateFinding], outcome: Gate.Outcome, baseline: String) -> String {
        let moved = findings.filter { $0.kind != .noise }
        var out = "gate against '\(baseline)': "
        switch outcome {
        case .pass: out += "no regression"
        case .regression: out += "REGRESSION"
        case .improvementsOnly: out += "only improvements (the baseline is stale: save a new one)"
        case .error: out += "error"
        }
        out += " (\(moved.count) moved, \(findings.count - moved.count) within the noise)\n"
        guard !moved.isEmpty else { return out }
        var rows = [["", "metric", "case", "baseline", "now", "change"]]
        for f in moved {
            rows.append([f.kind.rawValue, f.metric, f.subject, f.baseline, f.current,
                         f.change.map { String(format: "%+.1f%%", $0 * 100) } ?? ""])
        }
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            out += row.enumerated().map { c, s in s + String(repeating: " ", count: widths[c] - s.count) }.joined(separator: "  ") + "\n"
        }
        return out
    }
}
