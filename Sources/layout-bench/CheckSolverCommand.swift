import ArgumentParser
import BenchHarness
import ExternalSolvers
import Foundation

/// `layout-bench check-solver`: an external solver's adapter against the
/// protocol specification (docs/solver-protocol.md).
struct CheckSolverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-solver",
        abstract: "Check an external solver's adapter against the protocol specification.",
        discussion: """
            Runs the adapter through every message of the protocol (docs/solver-protocol.md) on small \
            layouts, with the edge cases: a second load in the same process, an unsatisfiable load, an \
            edit the required rows cannot meet, resize, add and remove, removes of stale and unknown \
            handles, an unknown request, an unknown protocol version, quit. Prints one line per check. \
            Give the command after --, as words (`check-solver -- python3 "my dir/adapter.py"`), or \
            name registered solvers with --registered (each --solvers-file, solvers.json in the working \
            directory, or the tool's own Corpus/solvers.json). Exit codes: 0 in spec (warnings allowed: \
            a wrong answer, no time_s); 1 something is out of spec; 64 usage.
            """
    )

    @Option(help: "A solver of the registry (solvers.json) to check (repeatable).")
    var registered: [String] = []

    @Flag(help: "Check every external solver of the registry.")
    var all = false

    @Option(name: .customLong("solvers-file"), help: "A solvers.json registry to use (repeatable); besides ./solvers.json and the tool's Corpus/solvers.json.")
    var solversFiles: [String] = []

    @Option(help: "Seconds the adapter may take for one answer.")
    var timeout = 30.0

    @Argument(parsing: .postTerminator, help: "The adapter's command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
        guard !command.isEmpty || !registered.isEmpty || all else {
            throw ValidationError("give the adapter's command after --, or --registered NAME, or --all")
        }
    }

    func run() throws {
        var solvers: [ExternalSolver] = []
        if !command.isEmpty {
            // Named after its script (`python3 x.py` is "x.py"), else its program.
            let word = command.first { $0.contains("/") || $0.contains(".") } ?? command[0]
            let spec = SolverSpec(name: (word as NSString).lastPathComponent, kind: .external(command: command, workingDirectory: nil))
            if let solver = spec.makeExternal(timeout: timeout) { solvers.append(solver) }
        }
        if !registered.isEmpty || all {
            let specs: [SolverSpec]
            do {
                let registry = try Inputs.registry(solversFiles: solversFiles)
                specs = all ? registry.solvers.filter(\.isExternal) : try registry.select(registered)
            } catch {
                throw ToolError(message: "\(error)", status: .usage)
            }
            for spec in specs {
                guard let solver = spec.makeExternal(timeout: timeout) else {
                    throw ToolError(message: "'\(spec.name)' is a built-in solver, not an external one", status: .usage)
                }
                solvers.append(solver)
            }
        }
        var outOfSpec = 0
        for solver in solvers {
            print("check-solver: \(solver.name) (\(solver.command.joined(separator: " ")))")
            let checks = SolverConformance.run(solver)
            for check in checks {
                let mark = check.outcome == .pass ? "ok  " : check.outcome == .fail ? "FAIL" : "warn"
                print("  \(mark)  \(check.name)" + (check.detail.isEmpty ? "" : ": \(check.detail)"))
            }
            let failed = checks.filter { $0.outcome == .fail }.count
            let warned = checks.filter { $0.outcome == .warning }.count
            print("  \(checks.count) checks: \(failed == 0 ? "in spec" : "\(failed) out of spec")"
                  + (warned > 0 ? ", \(warned) warning(s)" : ""))
            outOfSpec += failed
        }
        if outOfSpec > 0 { throw ExitStatus.failure.exitCode }
    }
}
