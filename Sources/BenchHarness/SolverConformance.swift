import BenchSchema
import ExternalSolvers
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

/// `check-solver`: an external solver taken through every message of the
/// protocol (docs/solver-protocol.md) and its edge cases, on small layouts.
///
/// What counts as out of spec (a failure) is what the specification
/// requires: answers in protocol, declines where it says to decline, the
/// documented statuses. Answers are judged too (``ConformanceSession``'s
/// `answer:` checks, against the GLPK reference): a wrong answer in protocol
/// is its own outcome, out of spec with `--strict`. A missing `time_s` is a
/// warning (allowed, but then the solver is not timed).
public enum SolverConformance {
    public struct Check: Sendable {
        /// `fail`: out of spec; `wrong`: an answer in protocol that is not the
        /// right one (out of spec with `--strict`); `unsupported`: the solver
        /// lacks what the check needs (a capability its hello does not claim).
        public enum Outcome: String, Sendable { case pass, fail, warning, wrong, unsupported }
        public var name: String
        public var outcome: Outcome
        public var detail: String
    }

    /// The small layouts the checks load.
    static let basic = """
        container 200 x 100
        views a b
        a.left = super.left + 10
        a.top = super.top
        a.width = 50
        a.height = 20
        b.left = a.right + 8
        b.right = super.right - 10 @ 750
        b.width >= 40
        b.top = a.top
        b.height = a.height
        """
    static let other = """
        container 120 x auto
        views p q r
        p.left = super.left
        p.top = super.top
        p.width = 30
        p.height = 10
        q.left = p.right
        q.top = p.bottom + 4
        q.width = p.width * 2
        q.height = 12
        r.top = q.bottom
        r.left = super.left
        r.width = super.width
        r.height = 8
        super.bottom = r.bottom
        """
    static let conflicting = """
        container 100 x 100
        views a
        a.left = super.left
        a.top = super.top
        a.height = 5
        a.width = 10
        a.width = 20
        """
    /// The required rows make the container 100 wide; the edit says 300.
    static let unmeetableEdit = """
        container 300 x 100
        views a
        a.left = super.left
        a.top = super.top
        a.height = 5
        a.width = 100
        a.width = super.width
        """

    static func layout(_ text: String) -> Layout? { LayoutParser.parse(text, fileName: "check-solver").layout }

    /// Runs every check in order; the solver's process is started (and quit) here.
    /// - Complexity: a dozen small requests, each within the solver's timeout.
    public static func run(_ solver: ExternalSolver) -> [Check] {
        guard let basic = layout(basic), let other = layout(other), let conflicting = layout(conflicting),
              let unmeetable = layout(unmeetableEdit) else {
            return [Check(name: "check layouts", outcome: .fail,
                          detail: "a built-in check layout does not parse (a bug in layout-bench)")]
        }
        let session = ConformanceSession(solver: solver, basic: basic)
        guard session.hello() else { return session.checks }
        session.loadAndSolve()
        session.secondLoad(other)
        session.unsatisfiableLoad(conflicting)
        session.unsatisfiableRows(conflicting)
        session.unmeetableEdit(unmeetable)
        session.resize()
        if session.capabilities.incremental { session.addAndRemove() }
        if let ambiguous = layout(ambiguousLayout), let priorities = layout(prioritiesLayout) {
            session.ambiguousAnswer(ambiguous)
            session.solveWithoutFreeList(ambiguous)
            session.priorities(priorities)
        }
        session.unknownRequest()
        session.protocolVersion()
        session.quit()
        session.timeReport()
        return session.checks
    }
}

/// One `check-solver` session: the solver, the checks so far, and the
/// basic layout's reference answer (solved once, compared four times).
/// Each method is one named check, run in the order of ``SolverConformance/run(_:)``.
final class ConformanceSession {
    typealias Check = SolverConformance.Check
    let solver: ExternalSolver
    let basic: Layout
    let basicReference: Solution?
    private(set) var checks: [Check] = []
    private var missingTime: Set<String> = []
    /// What the solver said it can do (from its hello).
    var capabilities: SolverCapabilities { solver.capabilities }
    /// The basic layout's first answer, for the "loaded again" check.
    private var first: Solution?

    init(solver: ExternalSolver, basic: Layout) {
        self.solver = solver
        self.basic = basic
        basicReference = Self.reference(basic)
    }

    static func reference(_ l: Layout) -> Solution? { try? GLPKLayoutSolver(analyseAmbiguity: true).load(l, variant: nil) }

    func pass(_ name: String, _ detail: String = "") { checks.append(Check(name: name, outcome: .pass, detail: detail)) }
    func fail(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .fail, detail: detail)) }
    func warn(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .warning, detail: detail)) }
    func wrong(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .wrong, detail: detail)) }
    func unsupported(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .unsupported, detail: detail)) }

    /// One check; any error it throws is its failure.
    func step(_ name: String, _ body: () throws -> Void) {
        solver.resetReportedSeconds()
        do { try body() } catch { fail(name, "\(error)") }
        if solver.missedTime { missingTime.insert(name) }
    }

    /// The solver's answer against the reference's, as `run` judges it.
    func judge(_ name: String, _ l: Layout, _ solution: Solution, reference expected: Solution?) {
        guard let system = try? l.lowered(variant: nil) else { return }
        let (verdict, reasons) = CrossCheck.judge(solution, reference: expected, system: system, expectations: [],
                                                  semantics: capabilities.prioritySemantics)
        switch verdict {
        case .pass: pass(name, "agrees with the reference")
        case .weightedDivergence: pass(name, "a weighted divergence from the reference: \(reasons.first ?? "")")
        default: wrong(name, "disagrees with the reference: \(reasons.first ?? verdict.rawValue)")
        }
    }

    /// `hello`: the process starts and introduces itself. False: nothing else can be checked.
    func hello() -> Bool {
        do throws(SolverError) {
            try solver.start()
            guard let hello = solver.hello else { throw SolverError.notLoaded }
            pass("hello", "\(hello.name) \(hello.version), protocol \(hello.protocolVersion), \(hello.semantics.rawValue)"
                 + (hello.incremental ? ", incremental" : "") + (hello.edits ? ", edits" : "")
                 + (hello.maxRows.map { ", max_rows \($0)" } ?? ""))
        } catch {
            fail("hello", "\(error)")
            return false
        }
        return true
    }

    /// `load` + `solve` of the basic layout, judged.
    func loadAndSolve() {
        step("load + solve") {
            let solution = try solver.load(basic, variant: nil)
            first = solution
            judge("load + solve", basic, solution, reference: basicReference)
        }
    }

    /// A second `load` replaces the first, and loading the first again gives its first answer.
    func secondLoad(_ other: Layout) {
        step("a second load replaces the first") {
            let solution = try solver.load(other, variant: nil)
            judge("a second load replaces the first", other, solution, reference: Self.reference(other))
            let again = try solver.load(basic, variant: nil)
            if let first, let difference = CrossCheck.sameAnswer(again, first, reference: basicReference) {
                fail("the first problem loaded again", "differs from its first answer (state kept across loads?): \(difference)")
            } else {
                pass("the first problem loaded again", "the same answer as the first time")
            }
        }
    }

    /// Conflicting required rows: status `unsatisfiable` with the rows refused.
    func unsatisfiableLoad(_ conflicting: Layout) {
        step("unsatisfiable load") {
            let solution = try solver.load(conflicting, variant: nil)
            if solution.status != .unsatisfiable {
                fail("unsatisfiable load", "status \(solution.status.rawValue) after a load whose required rows conflict (expected unsatisfiable)")
            } else if solution.conflict.isEmpty {
                fail("unsatisfiable load", "status unsatisfiable, but load's 'unsatisfiable' listed no row")
            } else {
                pass("unsatisfiable load", "rows refused: " + solution.conflict.map(\.description).joined(separator: "; "))
            }
        }
    }

    /// An edit the required rows cannot meet: `unsatisfiable`, required rows kept.
    func unmeetableEdit(_ unmeetable: Layout) {
        step("unmeetable edit") {
            let solution = try solver.load(unmeetable, variant: nil)
            let width = solution.frame(of: "super")?.width ?? .nan
            if solution.status != .unsatisfiable {
                fail("unmeetable edit", "status \(solution.status.rawValue) for a container width (edit 300) the required rows fix at 100 (expected unsatisfiable)")
            } else if width.isNaN || abs(width - 100) >= abs(width - 300) {
                fail("unmeetable edit", "super.width = \(width): the edit overrode required rows (expected 100)")
            } else if abs(width - 100) > Tolerance.crossCheck.absolute {
                // Required rows kept, but the value is off: a wrong answer, not a broken rule.
                wrong("unmeetable edit", "super.width = \(width), expected 100")
            } else {
                pass("unmeetable edit", "unsatisfiable, required rows kept (super.width = 100)")
            }
        }
    }

    /// A resize (suggest, or a reload without edits) equals a fresh load at the new size.
    func resize() {
        step("resize") {
            _ = try solver.load(basic, variant: nil)
            let resized = try solver.resize(to: ContainerSize(width: 320, height: 100))
            var moved = basic
            moved.container = ContainerSize(width: 320, height: 100)
            let fresh = try ExternalSolver(name: solver.name, command: solver.command, timeout: solver.timeout,
                                           workingDirectory: solver.workingDirectory).load(moved, variant: nil)
            if let difference = CrossCheck.sameAnswer(resized, fresh, reference: Self.reference(moved)) {
                fail("resize", "\(capabilities.editVariables ? "suggest" : "reload") differs from a fresh load: \(difference)")
            } else {
                pass("resize", capabilities.editVariables ? "suggest matches a fresh load at the new size"
                     : "no edits: resized by reloading")
            }
        }
    }

    /// `add` + `remove` leaves the answer unchanged; removes of removed,
    /// unknown and earlier loads' handles are declined without harm.
    func addAndRemove() {
        step("add + remove") {
            let before = try solver.load(basic, variant: nil)
            let probe = LayoutConstraint(ItemAttribute("a", .width), .lessThanOrEqual, nil, constant: 1000, identifier: "probe")
            let handle = try solver.addConstraint(probe)
            guard let theirs = solver.adapterHandle(of: handle) else { throw SolverError.staleHandle(handle) }
            try solver.removeConstraint(handle)
            let after = try solver.solve()
            if let difference = CrossCheck.sameAnswer(after, before, reference: basicReference) {
                fail("add + remove", "the answer changed: \(difference)")
            } else {
                pass("add + remove", "handle \(theirs); the answer is unchanged")
            }
            try expectDecline(handle: Double(theirs), name: "remove of a removed handle",
                              complaint: "answered ok (expected \"ok\": false and an error)")
            try expectDecline(handle: 2_000_000_000, name: "remove of an unknown handle",
                              complaint: "answered ok for a handle it never gave (expected \"ok\": false)")
            // A handle of the previous load.
            let old = try solver.addConstraint(probe)
            guard let oldNumber = solver.adapterHandle(of: old) else { throw SolverError.staleHandle(old) }
            _ = try solver.load(basic, variant: nil)
            try expectDecline(handle: Double(oldNumber), name: "remove of a handle of an earlier load",
                              complaint: "answered ok (handles end with their load)")
            let still = try solver.solve()
            if let difference = CrossCheck.sameAnswer(still, before, reference: basicReference) {
                fail("solve after declined requests", "the answer changed: \(difference)")
            }
        }
    }

    /// A `remove` of `handle` that the solver must decline.
    private func expectDecline(handle: Double, name: String, complaint: String) throws {
        let remove = JSONValue.object([("op", .string("remove")), ("handle", .number(handle))])
        if try solver.request(remove, operation: "remove") == nil {
            fail(name, complaint)
        } else {
            pass(name, "declined")
        }
    }

    /// An unknown `op` is declined, and the solver keeps serving.
    func unknownRequest() {
        step("unknown request") {
            if try solver.request(.object([("op", .string("frobnicate"))]), operation: "frobnicate") == nil {
                fail("unknown request", "answered ok to {\"op\": \"frobnicate\"} (expected \"ok\": false)")
            } else {
                pass("unknown request", "declined, and kept serving")
            }
            // Still serving: the next request is answered (its body is checked elsewhere).
            _ = try solver.request(.object([("op", .string("solve"))]), operation: "solve")
        }
    }

    /// A `hello` for a future protocol version is declined.
    func protocolVersion() {
        step("protocol version") {
            let future = JSONValue.object([("op", .string("hello")), ("protocol", .number(999))])
            if try solver.request(future, operation: "hello", hello: false) == nil {
                fail("protocol version", "answered ok to hello for protocol 999 (expected \"ok\": false: it speaks 1)")
            } else {
                pass("protocol version", "declined protocol 999")
            }
        }
    }

    /// `quit`: the process exits with status 0 within 3 s.
    func quit() {
        step("quit") {
            try solver.start()
            if let status = solver.quit(within: 3) {
                if status == 0 { pass("quit", "exited with status 0") } else { fail("quit", "exited with status \(status) (expected 0)") }
            } else {
                fail("quit", "still running 3 s after quit (killed)")
            }
        }
    }

    /// Whether every answer carried `time_s` (a warning if not: such phases go untimed).
    func timeReport() {
        if missingTime.isEmpty {
            pass("time_s", "on every answer")
        } else {
            warn("time_s", "missing in: " + missingTime.sorted().joined(separator: ", ") + " (allowed; such phases are not timed by run)")
        }
    }
}
