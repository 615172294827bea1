import ArgumentParser
import BenchGate
import Foundation

/// The `layout-bench` command: conformance and benchmarks for Auto Layout-style solvers.
@main
struct LayoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout-bench",
        abstract: "Benchmark and conformance harness for Auto Layout-style constraint solvers.",
        discussion: ExitStatus.summary,
        version: "0.1.0",
        subcommands: [RunCommand.self, FuzzCommand.self, ReportCommand.self, BaselineCommand.self, GateCommand.self, HistoryCommand.self, MergeCommand.self, CompareCommand.self, SolveCommand.self, ScalingCommand.self, CheckCommand.self, CheckSolverCommand.self, PrintCommand.self, GenerateCommand.self, ImportCommand.self]
    )

    /// The one place where a command's error becomes a message and an exit
    /// status: commands throw ``ToolError`` (or an error ``ToolError/init(_:)``
    /// maps) and never print their own errors. The argument parser's own
    /// errors (usage, `--help`, `ExitCode`) keep its handling.
    static func main() {
        // Commands that time re-execute themselves in the steady environment
        // (fixed hashing, no address randomisation): a user typing `run` gets
        // the stability CI gets, with no flags (LAYOUT_BENCH_STEADY=0 opts out).
        if let command = CommandLine.arguments.dropFirst().first, ["run", "scaling"].contains(command) {
            SteadyProcess.reexecuteIfNeeded()
        }
        if CommandLine.arguments.dropFirst().first == "history" {
            do { try HistoryCommand.forward(Array(CommandLine.arguments.dropFirst(2))) } catch {
                printError("error: \(error.message)")
                Foundation.exit(error.status.rawValue)
            }
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if let failure = ToolError(error) {
                printError("error: \(failure.message)")
                Foundation.exit(failure.status.rawValue)
            }
            exit(withError: error)
        }
    }
}
