import CGLPK

/// What can go wrong inside the reference solver, GLPK's codes mapped to cases.
public enum GLPKError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Input that would make GLPK abort (checked in Swift before any call).
    case invalidInput(String)
    /// `glp_simplex` returned a non-zero code.
    case simplexFailed(code: Int32, meaning: String)
    /// The LP is unbounded where it cannot be (a level's error sum).
    case unbounded(String)
    /// No optimal solution where one must exist (status as GLPK named it).
    case unexpectedStatus(String)

    public var description: String {
        switch self {
        case .invalidInput(let why): return "invalid LP input: \(why)"
        case .simplexFailed(let code, let meaning): return "glp_simplex failed (\(code)): \(meaning)"
        case .unbounded(let what): return "unbounded LP: \(what)"
        case .unexpectedStatus(let status): return "unexpected LP status: \(status)"
        }
    }

    /// The meaning of a `glp_simplex` return code (GLPK manual, section 2.8.1).
    static func meaning(ofSimplexCode code: Int32) -> String {
        switch code {
        case GLP_EBADB: return "invalid initial basis"
        case GLP_ESING: return "singular basis matrix"
        case GLP_ECOND: return "ill-conditioned basis matrix"
        case GLP_EBOUND: return "incorrect bounds"
        case GLP_EFAIL: return "solver failure"
        case GLP_EOBJLL: return "objective lower limit reached"
        case GLP_EOBJUL: return "objective upper limit reached"
        case GLP_EITLIM: return "iteration limit exceeded"
        case GLP_ETMLIM: return "time limit exceeded"
        case GLP_ENOPFS: return "no primal feasible solution"
        case GLP_ENODFS: return "no dual feasible solution"
        default: return "unknown code"
        }
    }

    /// GLPK's name for a solution status.
    static func name(ofStatus status: Int32) -> String {
        switch status {
        case GLP_OPT: return "optimal"
        case GLP_FEAS: return "feasible"
        case GLP_INFEAS: return "infeasible"
        case GLP_NOFEAS: return "no feasible solution"
        case GLP_UNBND: return "unbounded"
        case GLP_UNDEF: return "undefined"
        default: return "status \(status)"
        }
    }
}
