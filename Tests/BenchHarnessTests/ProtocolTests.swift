import BenchSchema
import BenchHarness
import ExternalSolvers
import Foundation
import LayoutFormat
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

/// The solver protocol (docs/solver-protocol.md): the strict harness, the
/// conformance checker, the adapters, command quoting.
@Suite("The solver protocol")
struct ProtocolTests {
    static let fixtures = HarnessTests.fixtures

    func layout(_ text: String) throws -> Layout {
        try #require(LayoutParser.parse(text, fileName: "t.layout").layout)
    }

    func offspec(_ mode: String) -> ExternalSolver {
        ExternalSolver(name: "offspec", command: ["python3", "\(Self.fixtures)/offspec.py", mode], timeout: 20)
    }

    static let small = "container 10 x 10\nviews a\na.left = super.left\na.top = super.top\na.width = 1\na.height = 1"

    /// The issue's table: each answer the harness used to accept silently is
    /// now a protocol error naming the answer and the field.
    @Test("out-of-spec answers are located protocol errors", arguments: [
        ("optimal", "'status' in the answer to 'solve': expected \"solved\" or \"unsatisfiable\", found \"optimal\" (a string)"),
        ("no-semantics", "'semantics' in the answer to 'hello': expected \"lexicographic\" or \"weighted\", found no such field"),
        ("weigthed", "'semantics' in the answer to 'hello': expected \"lexicographic\" or \"weighted\", found \"weigthed\" (a string)"),
        ("string-values", "'values[0]' in the answer to 'solve': expected a finite number, found \"0\" (a string)"),
        ("no-ok", "'ok' in the answer to 'hello': expected true or false, found no such field"),
        ("free-missing", "'free' in the answer to 'solve': expected an array of variable indices (the hello promised ambiguity), found no such field"),
        ("free-repeated", "'free[1]' in the answer to 'solve': expected a distinct variable index in 0..<8, found 4.0 (a number)"),
    ])
    func strictAnswers(mode: String, message: String) throws {
        let l = try layout(Self.small)
        #expect {
            _ = try offspec(mode).load(l, variant: nil)
        } throws: { error in
            guard case SolverError.protocolViolation(let solver, let violation) = error else { return false }
            #expect(solver == "offspec")
            #expect(violation.description == message)
            return "\(error)".hasPrefix("offspec: protocol error: ")
        }
    }

    @Test("an adapter that promises ambiguity: its free variables become the solution's ambiguous views")
    func freeVariables() throws {
        let solver = offspec("free-ok")
        let solution = try solver.load(try layout(Self.small), variant: nil)
        #expect(solver.capabilities.ambiguityAnalysis)
        #expect(solution.ambiguous == ["a"])
        #expect(solution.freeVariables == [4])
    }

    @Test("the timing pass asks for no free list, the check pass does: an ambiguity search is not timed")
    func timedWithoutFreeList() throws {
        let l = try layout(Self.small)
        let benchCase = BenchCase(name: "small", source: "t.layout", layout: l, text: Array(Self.small.utf8))
        var settings = RunSettings(solvers: [
            SolverSpec(name: "glpk", kind: .glpk),
            SolverSpec(name: "lazy", kind: .external(command: ["python3", "\(Self.fixtures)/offspec.py", "free-on-request"],
                                                      workingDirectory: nil)),
        ])
        settings.repetitions = 2
        settings.timeBudget = 0
        let result = Runner(settings: settings).run(benchCase)
        // The check pass read the free list (a.x free: "a" ambiguous, as the
        // fixture says; the reference disagrees, so the verdict is not pass).
        let checked = try #require(result.results.first { $0.solver == "lazy" })
        #expect(checked.ambiguous == ["a"])
        // The timing pass's answers had no free list and were accepted, at
        // the fixture's time without the search (1e-4 s, not 1e-3 s).
        let solve = try #require(result.timings.first { $0.solver == "lazy" && $0.phase == .solve })
        #expect(solve.summary.median == 1e-4)
        #expect(result.timings.contains { $0.solver == "lazy" && $0.phase == .resize && $0.summary.median == 1e-4 })
    }

    @Test("an answer without time_s leaves the phase untimed (never 0 s), and the run says so")
    func missingTime() throws {
        // In spec, and answered: only the timing is missing.
        let solver = offspec("no-time")
        let solution = try solver.load(try layout(Self.small), variant: nil)
        #expect(solution.frames.count == 2)
        #expect(solver.missedTime && solver.reportedSeconds == 0)

        let benchCase = BenchCase(name: "small", source: "t.layout", layout: try layout(Self.small), text: Array(Self.small.utf8))
        var settings = RunSettings(solvers: [
            SolverSpec(name: "glpk", kind: .glpk),
            SolverSpec(name: "untimed", kind: .external(command: ["python3", "\(Self.fixtures)/offspec.py", "no-time"], workingDirectory: nil)),
            SolverSpec(name: "timed", kind: .external(command: ["python3", "\(Self.fixtures)/offspec.py", "in-spec"], workingDirectory: nil)),
        ])
        settings.repetitions = 2
        settings.timeBudget = 0
        let result = Runner(settings: settings).run(benchCase)
        #expect(!result.timings.contains { $0.solver == "untimed" })
        #expect(result.untimed["untimed"] == [.load, .solve, .resize])
        #expect(result.timings.contains { $0.solver == "timed" && $0.phase == .load && $0.summary.median == 1e-4 })
        #expect(result.untimed["timed"] == nil)
    }

    @Test("a solver that cannot start is left out and reported, not an error on every case")
    func unavailable() throws {
        let benchCase = BenchCase(name: "small", source: "t.layout", layout: try layout(Self.small), text: Array(Self.small.utf8))
        var settings = RunSettings(solvers: [
            SolverSpec(name: "cassowary", kind: .cassowary),
            SolverSpec(name: "ghost", kind: .external(command: ["/nonexistent/adapter"], workingDirectory: nil)),
            SolverSpec(name: "future", kind: .external(command: ["python3", "\(Self.fixtures)/offspec.py", "no-ok"], workingDirectory: nil)),
        ])
        settings.repetitions = 1
        settings.timeBudget = 0
        let runner = Runner(settings: settings)
        let result = runner.run(benchCase)
        #expect(result.results.allSatisfy { $0.solver == "cassowary" && $0.verdict == .pass })
        #expect(runner.settings.solvers.map(\.name) == ["cassowary"])
        #expect(runner.unavailable.map(\.spec.name) == ["ghost", "future"])
        #expect(runner.unavailable[1].reason.contains("'ok' in the answer to 'hello'"))
        var document = RunResults(started: Date(), finished: Date(), machine: MachineInfo.current(), settings: .init(),
                                  solvers: runner.settings.solvers, problems: [], cases: [result])
        document.unavailable = runner.unavailable
        #expect(!document.hasFailures(strict: false) && document.hasFailures(strict: true))
        let written = try ResultsDocument.decode(document.document().encoded(), name: "results.json")
        #expect(written.unavailable_solvers?.map(\.name) == ["ghost", "future"])
        #expect(written.unavailable_solvers?.first?.command == ["/nonexistent/adapter"])
    }

    @Test("an adapter written from the specification alone passes check-solver")
    func minimalAdapter() throws {
        let solver = ExternalSolver(name: "minimal", command: ["python3", "\(Self.fixtures)/minimal_adapter.py"], timeout: 60)
        let checks = SolverConformance.run(solver)
        #expect(checks.count >= 14)
        // Its hello claims no ambiguity analysis: that one check is unsupported, every other passes.
        for check in checks {
            #expect(check.outcome == .pass || (check.outcome == .unsupported && check.name.contains("ambiguous views")),
                    "\(check.name): \(check.detail)")
        }
    }

    /// The kit checks truth, not only messages: a correct adapter (HiGHS, which
    /// claims an ambiguity analysis) made wrong in one way is told so, by the
    /// check that looks at what it got wrong.
    @Test("check-solver tells a wrong answer from a right one",
          arguments: [("free-empty", "answer: an ambiguous layout (ambiguous views)"),
                      ("frames-off", "load + solve"),
                      ("wrong-unsat", "answer: the rows an unsatisfiable load lists")])
    func wrongAnswers(mode: String, check name: String) throws {
        let highs = TestCorpus.root.appendingPathComponent("scripts/solvers/highs.py").path
        let solver = ExternalSolver(name: "wrong-\(mode)",
                                    command: ["python3", "\(Self.fixtures)/wrong_answers.py", mode, "python3", highs], timeout: 60)
        let checks = SolverConformance.run(solver)
        let check = try #require(checks.first { $0.name == name })
        #expect(check.outcome == .wrong, "\(check.name): \(check.outcome) \(check.detail)")
        #expect(!checks.contains { $0.outcome == .fail }, "\(checks.filter { $0.outcome == .fail })")
    }

    @Test("check-solver fails an adapter whose answers to the timing pass's requests differ")
    func timedAnswersDiffer() throws {
        let highs = TestCorpus.root.appendingPathComponent("scripts/solvers/highs.py").path
        let solver = ExternalSolver(name: "timed-off",
                                    command: ["python3", "\(Self.fixtures)/wrong_answers.py", "timed-off", "python3", highs], timeout: 60)
        let checks = SolverConformance.run(solver)
        #expect(checks.filter { $0.outcome == .fail }.map(\.name) == ["solve with \"free\": false"])
    }

    @Test("check-solver finds what is out of spec", arguments: ["optimal", "no-semantics"])
    func conformanceFailures(mode: String) throws {
        let checks = SolverConformance.run(offspec(mode))
        #expect(checks.contains { $0.outcome == .fail })
    }

    @Test("the shipped adapters pass check-solver and provenance names their package version",
          arguments: ["kiwi.py", "pycassowary.py", "z3solver.py", "highs.py"])
    func shippedAdapters(script: String) throws {
        let path = TestCorpus.root.appendingPathComponent("scripts/solvers/\(script)").path
        let solver = ExternalSolver(name: script, command: ["python3", path], timeout: 60)
        let checks = SolverConformance.run(solver)
        // Right answers everywhere; an ambiguity list only from those whose hello claims one.
        for check in checks {
            #expect(check.outcome == .pass || (check.outcome == .unsupported && check.name.contains("ambiguous views")),
                    "\(script) \(check.name): \(check.outcome) \(check.detail)")
        }
        let hello = try #require(checks.first { $0.name == "hello" })
        #expect(hello.detail.range(of: #"\d+\.\d+"#, options: .regularExpression) != nil, "\(hello.detail)")
    }

    @Test("the adapter kit keeps stray output of the solver's libraries off the protocol channel")
    func strayOutput() throws {
        let solver = ExternalSolver(name: "noisy", command: ["python3", "\(Self.fixtures)/noisy_adapter.py"], timeout: 60)
        // Without the kit's guard, the first stray line was read as the answer: a protocol error.
        let solution = try solver.load(try layout(Self.small), variant: nil)
        #expect(solution.status == .solved && solution.frame(of: "a")?.width == 1)
        #expect(try solver.solve().status == .solved)
    }

    @Test("commands split by the shell's quoting rules")
    func shellWords() throws {
        #expect(try ShellWords.split("python3 scripts/solvers/kiwi.py") == ["python3", "scripts/solvers/kiwi.py"])
        #expect(try ShellWords.split(#"python3 "/my solvers/a.py" --x"#) == ["python3", "/my solvers/a.py", "--x"])
        #expect(try ShellWords.split(#"a 'b c'"d e"f\ g"#) == ["a", "b cd ef g"])
        #expect(try ShellWords.split(#"say "\"hi\" \$x \n""#) == ["say", #""hi" $x \n"#])
        #expect(try ShellWords.split("  ") == [])
        #expect(try ShellWords.split("''") == [""])
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split("python3 'open") }
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split(#"python3 "open"#) }
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split("trailing\\") }
    }

    @Test("--solver with a path containing a space runs that adapter")
    func pathWithSpace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("my solvers \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("minimal adapter.py")
        try FileManager.default.copyItem(atPath: "\(Self.fixtures)/minimal_adapter.py", toPath: script.path)
        var registry = SolverRegistry()
        try registry.add(commandLine: "mine=python3 \"\(script.path)\"")
        let spec = try #require(try registry.select(["mine"]).first)
        guard case .external(let command, _) = spec.kind else { Issue.record("not external"); return }
        #expect(command == ["python3", script.path])
        let solution = try spec.make(timeout: 60).load(try layout(Self.small), variant: nil)
        #expect(solution.status == .solved && solution.frame(of: "a")?.width == 1)
    }
}
