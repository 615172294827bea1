import ArgumentParser
import BenchHarness
import BenchReports
import LayoutSolving

/// Every exit code the tool uses, in one place (sysexits.h values where one
/// fits). The root command's help (`layout-bench --help`) lists them from
/// ``summary``, and README's table is checked against that help by a test.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// A check did not hold (an `expect` line, a conformance verdict).
    case failure = 1
    /// `gate`: a regression.
    case regression = 2
    /// `gate`: only improvements (the baseline is stale); CI treats it as a pass.
    case improvementsOnly = 4
    /// Bad arguments (swift-argument-parser uses 64 for its own validation errors).
    case usage = 64
    /// EX_DATAERR: an input file has errors.
    case dataError = 65
    /// EX_NOINPUT: an input cannot be found or read.
    case noInput = 66
    /// EX_UNAVAILABLE: a solver that was asked for by name could not start.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error (a value that cannot be encoded).
    case software = 70
    /// EX_CANTCREAT: an output cannot be written.
    case cannotCreate = 73
    /// Interrupted by Ctrl-C (128 + SIGINT); nothing of that run is written.
    case interrupted = 130

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// What the code means, in a few words (the help text and README's table).
    var meaning: String {
        switch self {
        case .success: return "success (for run: every verdict pass, unsupported or weighted-divergence)"
        case .failure: return "a check failed: an expect line, a fail or error of a built-in solver in run (of any solver with --strict) or a case it cannot read, a disagreement in fuzz, an adapter out of spec in check-solver"
        case .regression: return "the gate found a regression"
        case .improvementsOnly: return "the gate found only improvements (no regression)"
        case .usage: return "usage error (bad arguments, unknown variant, solver or revision)"
        case .dataError: return "an input has errors (EX_DATAERR): a .layout file, an IB file that cannot be imported, or a results file, baseline or history that is not what it claims"
        case .noInput: return "an input cannot be read or does not exist (EX_NOINPUT)"
        case .unavailable: return "a solver asked for by name could not start (EX_UNAVAILABLE)"
        case .software: return "an internal error, or the gate's base revision does not build or its run failed (EX_SOFTWARE)"
        case .cannotCreate: return "an output cannot be written (EX_CANTCREAT)"
        case .interrupted: return "interrupted (Ctrl-C): results are written atomically, so earlier results stay intact"
        }
    }

    /// The codes and their meanings on one line, for the root command's help
    /// (a meaning never contains "; ", the separator).
    static var summary: String {
        "Exit codes: " + allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    /// The gate's outcome as an exit status.
    init(_ outcome: Gate.Outcome) {
        switch outcome {
        case .pass: self = .success
        case .regression: self = .regression
        case .improvementsOnly: self = .improvementsOnly
        }
    }

    /// The more severe of two statuses (input trouble beats data errors beats failures).
    static func worst(_ a: ExitStatus, _ b: ExitStatus) -> ExitStatus {
        func rank(_ s: ExitStatus) -> Int {
            switch s {
            case .success: return 0
            case .improvementsOnly: return 1
            case .failure: return 2
            case .regression: return 3
            case .dataError: return 4
            case .noInput: return 5
            case .unavailable: return 6
            case .cannotCreate: return 7
            case .software: return 8
            case .usage: return 9
            case .interrupted: return 10
            }
        }
        return rank(a) >= rank(b) ? a : b
    }
}

/// An error with a message for the user and an exit status.
struct ToolError: Error, CustomStringConvertible {
    var message: String
    var status: ExitStatus
    var description: String { message }

    init(message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// The errors of the libraries a command lets through, mapped once:
    /// a solver list that cannot be read or a name it lacks is a usage
    /// error, a solver that fails is a failed check. Nil for the argument
    /// parser's own errors, which it reports itself.
    init?(_ error: Error) {
        switch error {
        case let error as ToolError: self = error
        case let error as RegistryError: self.init(message: error.description, status: .usage)
        case let error as SolverError:
            // A solver that cannot start (its package not installed) is unavailable, not a failed check.
            if case .external(let failure) = error, case .couldNotStart = failure.reason {
                self.init(message: error.description, status: .unavailable)
            } else {
                self.init(message: error.description, status: .failure)
            }
        default: return nil
        }
    }
}
