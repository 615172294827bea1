import ArgumentParser
import Foundation

/// `layout-bench history ...`: runs the sibling program `layout-bench-history`
/// (built next to this one), which owns the SQLite history. Why apart: see
/// `Sources/layout-bench-history/HistoryTool.swift`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Record runs in an SQLite history, draw the trend dashboard, find the commit of a step.",
        discussion: """
            history add [RESULTS...] [--history PATH]          record results.json files (default Reports/latest/results.json)
            history report [--history PATH] [--output PAGE] [--case GLOB]   the trend dashboard (Reports/history.html)
            history bisect --case C --solver S --phase P      the commits around the largest step of one timing
            `layout-bench history help SUBCOMMAND` for each one's options. The history defaults to Reports/history.sqlite.
            """)

    // No arguments declared here: `LayoutBench.main` hands `history ...` to the
    // program before parsing. Why: a passthrough argument anywhere in the
    // command tree made every `layout-bench` start ask each command whether it
    // has one, a cost paid by every process (evidence:
    // docs/measurements.md#m-front-end-costs).

    /// The sibling program's path.
    static func program() throws(ToolError) -> String {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let sibling = own.deletingLastPathComponent().appendingPathComponent("layout-bench-history").path
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw ToolError(message: "\(sibling) is missing: build it with `swift build -c release --product layout-bench-history` "
                            + "(scripts/layout-bench builds both)", status: .noInput)
        }
        return sibling
    }

    func run() throws { try Self.forward([]) }

    /// Replaces this process with the history program, given `arguments` (those after `history`).
    /// - Throws: ``ToolError`` when the program is missing or cannot be executed.
    static func forward(_ arguments: [String]) throws(ToolError) {
        let program = try Self.program()
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(program, argv)
        throw ToolError(message: "cannot run \(program): \(String(cString: strerror(errno)))", status: .software)
    }

    /// Records a results file (for `run --record`), as `history add` does.
    /// - Throws: ``ToolError`` with the program's status when it fails.
    static func record(_ results: String, history: String?) throws(ToolError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try program())
        process.arguments = ["add", results] + (history.map { ["--history", $0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            throw ToolError(message: "cannot run layout-bench-history: \(error)", status: .software)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError(message: "the run's results are in \(results), but recording them failed (above)",
                            status: ExitStatus(rawValue: process.terminationStatus) ?? .software)
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
