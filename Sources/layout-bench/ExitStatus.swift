import ArgumentParser
import BenchHarness
import LayoutSolving

/// Every exit code the tool uses, in one place (sysexits.h values where one fits).
enum ExitStatus: Int32 {
    case success = 0
    /// A check did not hold (an `expect` line, a conformance verdict).
    case failure = 1
    /// Bad arguments (swift-argument-parser uses 64 for its own validation errors).
    case usage = 64
    /// EX_DATAERR: an input file has errors.
    case dataError = 65
    /// EX_NOINPUT: an input cannot be found or read.
    case noInput = 66
    /// EX_SOFTWARE: an internal error (a value that cannot be encoded).
    case software = 70
    /// EX_CANTCREAT: an output cannot be written.
    case cannotCreate = 73

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The more severe of two statuses (input trouble beats data errors beats failures).
    static func worst(_ a: ExitStatus, _ b: ExitStatus) -> ExitStatus {
        func rank(_ s: ExitStatus) -> Int {
            switch s {
            case .success: return 0
            case .failure: return 1
            case .dataError: return 2
            case .noInput: return 3
            case .cannotCreate: return 4
            case .software: return 5
            case .usage: return 6
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
        case let error as SolverError: self.init(message: error.description, status: .failure)
        default: return nil
        }
    }
}
