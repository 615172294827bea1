import AllocationCounter
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
        // One malloc arena for every thread. Why: the parse of a large file
        // reads chunks on threads of their own (LayoutFormat's
        // ParallelLines.swift), and glibc gives each thread an arena of its
        // own whose freed memory the main thread never reuses: the solver's
        // load then grew the process by as much again (peak at 10^5 grid
        // rows 399 MB against 382 MB with one arena,
        // docs/measurements.md#m-2026-11-27-parallel-parse). The other
        // threads allocate little, so they do not contend for the one lock.
        _ = lb_use_one_malloc_arena()
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
