import ArgumentParser
import BenchReports
import BenchSchema
import Foundation

/// `layout-bench compare`: two results files, case by case, times excepted.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two results.json files: verdicts, answers and counters, case by case (not times).",
        discussion: """
            Without --answers (a refactoring): verdicts, reasons, statuses, ambiguity lists, conflicts, \
            levels, frames and counters must be identical; allocation counts may differ by the gate's \
            allocation slack (they vary by a few between processes of unchanged code). With --answers \
            (a change of algorithm): verdicts, reasons, statuses, ambiguity lists and conflicts identical, \
            levels and the frames of determined views within 1e-9 relative, the frames of ambiguous views \
            counted when they move, counters not compared. Prints each difference and a tally. \
            Exits 0 without a difference, 1 with one, 65 for a file that is not a results document, \
            66 for one that cannot be read.
            """
    )

    @Argument(help: "The results.json before.")
    var before: String

    @Argument(help: "The results.json after.")
    var after: String

    @Flag(help: "Compare answers within rounding (a change of algorithm), not bits.")
    var answers = false

    func run() throws {
        var documents: [ResultsDocument] = []
        for file in [before, after] {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw ToolError(message: "cannot read \(file)", status: .noInput)
            }
            do { documents.append(try ResultsDocument.read(file)) } catch {
                throw ToolError(message: error.description, status: .dataError)
            }
        }
        let comparison = ResultsComparison(documents[0], documents[1], mode: answers ? .answers : .bits)
        for line in comparison.differences { print(line) }
        print(comparison.summary)
        if !comparison.differences.isEmpty { throw ExitStatus.failure.exitCode }
    }
}
