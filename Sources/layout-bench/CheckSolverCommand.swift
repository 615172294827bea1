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
            handles, an unknown request, an unknown protocol version, quit; and judges answers against the \
            GLPK reference (frames, the rows an unsatisfiable load lists, an ambiguous layout, priorities \
            that weights trade): ok, WRONG (a wrong answer in protocol) or unsupported (a capability the \
            hello does not claim). Prints one line per check. \
            Give the command after --, as words (`check-solver -- python3 "my dir/adapter.py"`), or \
            name registered solvers with --registered (each --solvers-file, solvers.json in the working \
            directory, or the tool's own Corpus/solvers.json). Exit codes: 0 in spec (warnings and, \
            without --strict, wrong answers allowed); 1 something is out of spec (with --strict, also a \
            wrong answer); 64 usage; 69 the adapter could not start.
            """
    )

    @Option(help: "A solver of the registry (solvers.json) to check (repeatable).")
    var registered: [String] = []

    @Flag(help: "Check every external solver of the registry.")
    var all = false

    @Option(name: .customLong("solvers-file"), help: "A solvers.json registry to use (repeatable); besides ./solvers.json and the tool's Corpus/solvers.json.")
    var solversFiles: [String] = []

    @Flag(help: "Wrong answers are out of spec too (exit 1).")
    var strict = false

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
            Inputs.prepare(specs)
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
                let mark = switch check.outcome {
                case .pass: "ok   "
                case .fail: "FAIL "
                case .warning: "warn "
                case .wrong: "WRONG"
                case .unsupported: "unsup"
                }
                print("  \(mark)  \(check.name)" + (check.detail.isEmpty ? "" : ": \(check.detail)"))
            }
            let count = { (outcome: SolverConformance.Check.Outcome) in checks.filter { $0.outcome == outcome }.count }
            let failed = count(.fail) + (strict ? count(.wrong) : 0)
            var tally = ["\(checks.count) checks: " + (failed == 0 ? "in spec" : "\(failed) out of spec")]
            if count(.wrong) > 0 { tally.append("\(count(.wrong)) wrong answer(s)" + (strict ? "" : " (out of spec with --strict)")) }
            if count(.unsupported) > 0 { tally.append("\(count(.unsupported)) unsupported") }
            if count(.warning) > 0 { tally.append("\(count(.warning)) warning(s)") }
            print("  " + tally.joined(separator: ", "))
            outOfSpec += failed
        }
        if outOfSpec > 0 { throw ExitStatus.failure.exitCode }
    }
}
