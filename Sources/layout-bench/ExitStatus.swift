import ArgumentParser

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
            case .usage: return 5
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
}
