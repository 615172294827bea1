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
            let target = GateCommand.baselinePath(name, forWriting: true)
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
