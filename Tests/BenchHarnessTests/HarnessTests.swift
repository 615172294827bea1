import BenchHarness
import BenchMetrics
import BenchSchema
import ExternalSolvers
import Foundation
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

@Suite("The harness")
struct HarnessTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    func layout(_ text: String) throws -> Layout {
        try #require(LayoutParser.parse(text, fileName: "t.layout").layout)
    }

    func solution(_ frames: [Frame], status: Solution.Status = .solved, levels: [LevelError] = [],
                  ambiguous: [String]? = []) -> Solution {
        Solution(variant: "default", status: status, viewNames: ["super", "a"], frames: frames, levels: levels,
                 ambiguous: ambiguous, conflict: [])
    }

    // MARK: Cross-check rules

    @Test("the cross-check rules: status, required constraints, levels, determined frames, expectations")
    func crossCheck() throws {
        let l = try layout("container 100 x 100\nviews a\na.left = super.left\na.top = super.top\na.width = 10 @ 500\na.height = 10")
        let system = try l.lowered()
        let container = Frame(x: 0, y: 0, width: 100, height: 100)
        let right = solution([container, Frame(x: 0, y: 0, width: 10, height: 10)], levels: [LevelError(priority: Priority(500), error: 0)])
        #expect(CrossCheck.judge(right, reference: right, system: system, expectations: [], semantics: .lexicographic).verdict == .pass)

        let unsat = solution([container, Frame(x: 0, y: 0, width: 10, height: 10)], status: .unsatisfiable)
        let (v1, r1) = CrossCheck.judge(unsat, reference: right, system: system, expectations: [], semantics: .weighted)
        #expect(v1 == .fail && r1.first == "status unsatisfiable, reference solved")

        let broken = solution([container, Frame(x: 3, y: 0, width: 10, height: 10)], levels: right.levels)
        let (v2, r2) = CrossCheck.judge(broken, reference: right, system: system, expectations: [], semantics: .weighted)
        #expect(v2 == .fail && r2.first?.hasPrefix("a required constraint is violated by 3") == true)

        let traded = solution([container, Frame(x: 0, y: 0, width: 12, height: 10)], levels: [LevelError(priority: Priority(500), error: 2)])
        #expect(CrossCheck.judge(traded, reference: right, system: system, expectations: [], semantics: .lexicographic).verdict == .fail)
        let (v3, r3) = CrossCheck.judge(traded, reference: right, system: system, expectations: [], semantics: .weighted)
        #expect(v3 == .weightedDivergence)
        #expect(r3 == ["level 500 error 2, reference 0", "1 determined frame value(s) differ, e.g. a.width = 12, reference 10"])

        // A frame the reference calls ambiguous may differ.
        var free = right
        free.ambiguous = ["a"]
        var elsewhere = solution([container, Frame(x: 0, y: 0, width: 10, height: 10)], levels: right.levels)
        elsewhere.ambiguous = nil  // a solver without the analysis
        #expect(CrossCheck.judge(elsewhere, reference: free, system: system, expectations: [], semantics: .lexicographic).verdict == .pass)
        elsewhere.ambiguous = ["a"]
        #expect(CrossCheck.judge(elsewhere, reference: free, system: system, expectations: [], semantics: .lexicographic).verdict == .pass)
        // A solver that answers must name the same views.
        elsewhere.ambiguous = []
        let (v5, r5) = CrossCheck.judge(elsewhere, reference: free, system: system, expectations: [], semantics: .lexicographic)
        #expect(v5 == .fail && r5 == ["ambiguous views differ from the reference: not a"])

        let expectation = Expectation(.frame(view: "a", Frame(x: 0, y: 0, width: 11, height: 10)), location: nil)
        let (v4, r4) = CrossCheck.judge(right, reference: right, system: system, expectations: [expectation], semantics: .lexicographic)
        #expect(v4 == .fail && r4 == ["a: expected 0 0 11 10, got 0 0 10 10"])
    }

    @Test("check results carry the line they checked, in order, equal by content, and can be given another line")
    func checkResults() throws {
        let frame = Frame(x: 0, y: 0, width: 10, height: 10)
        let lines = [Expectation(.frame(view: "a", frame)), Expectation(.frame(view: "a", Frame(x: 1, y: 0, width: 10, height: 10))),
                     Expectation(.ambiguous(views: [])), Expectation(.unsatisfiable)]
        let results = solution([Frame(x: 0, y: 0, width: 100, height: 100), frame]).check(lines)
        #expect(results.map(\.expectation) == lines)
        #expect(results.map(\.verdict) == [.passed, .failed, .passed, .failed])
        #expect(MemoryLayout<ExpectationResult>.stride <= 32)  // 40 before: 200,000 of them at R = 10^5
        #expect(results[1].reason == "a: expected \(Frame(x: 1, y: 0, width: 10, height: 10)), got \(frame)")
        // Equal by content: the same verdicts from another check of equal lines.
        let again = solution([Frame(x: 0, y: 0, width: 100, height: 100), frame]).check(lines.map { $0 })
        #expect(again == results && Set(again) == Set(results))
        var moved = results[0]
        moved.expectation = lines[3]
        #expect(moved.expectation == lines[3] && results[0].expectation == lines[0] && moved != results[0])
    }

    @Test("globs: * and ?")
    func globs() {
        #expect(Glob.matches("seed/emoji-playground", "seed/*"))
        #expect(Glob.matches("family/alternating-grid-r10", "*grid-r?0"))
        #expect(!Glob.matches("family/alternating-grid-r100", "*grid-r?0"))
        #expect(Glob.matches("a", "*") && !Glob.matches("a", "b*"))
        #expect(Glob.matches("", "") && Glob.matches("", "**") && !Glob.matches("", "?") && !Glob.matches("a", ""))
        // A name that almost matches many stars: one pass, not a backtracking blow-up.
        #expect(!Glob.matches(String(repeating: "a", count: 2_000), String(repeating: "a*", count: 40) + "b"))
    }

    @Test("the one glob matcher agrees with a backtracking reference on random names and patterns")
    func globAgreesWithBacktracking() {
        func reference(_ n: ArraySlice<Character>, _ g: ArraySlice<Character>) -> Bool {
            guard let p = g.first else { return n.isEmpty }
            if p == "*" { return reference(n, g.dropFirst()) || (!n.isEmpty && reference(n.dropFirst(), g)) }
            guard let c = n.first, p == "?" || p == c else { return false }
            return reference(n.dropFirst(), g.dropFirst())
        }
        var rng = SplitMix64(seed: 20)
        let nameAlphabet: [Character] = ["a", "b", "/"], patternAlphabet: [Character] = ["a", "b", "/", "*", "?"]
        for _ in 0..<3_000 {
            let name = String((0..<Int.random(in: 0...7, using: &rng)).map { _ in nameAlphabet.randomElement(using: &rng) ?? "a" })
            let pattern = String((0..<Int.random(in: 0...6, using: &rng)).map { _ in patternAlphabet.randomElement(using: &rng) ?? "*" })
            #expect(Glob.matches(name, pattern) == reference(ArraySlice(name), ArraySlice(pattern)), "\(name) ~ \(pattern)")
        }
    }

    @Test("the registry: solvers.json, NAME=COMMAND, unknown names")
    func registry() throws {
        var registry = SolverRegistry()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("solvers-\(UUID().uuidString).json")
        try Data(#"{"solvers": [{"name": "mine", "command": ["python3", "mine.py"]}]}"#.utf8).write(to: file)
        try registry.load(registry: file.path)
        try registry.add(commandLine: "other=./run --fast")
        #expect(registry.solvers.map(\.name) == ["cassowary", "glpk", "mine", "other"])
        #expect(registry.solvers[3].kind == .external(command: ["./run", "--fast"], workingDirectory: nil))
        #expect(throws: RegistryError.self) { try registry.select(["cassowary", "nope"]) }
        #expect(throws: RegistryError.self) { try registry.add(commandLine: "glpk=evil") }
        #expect(throws: RegistryError.self) { try registry.add(commandLine: "no-equals") }
        try Data("{\"solvers\": 3}".utf8).write(to: file)
        #expect(throws: RegistryError.self) { try registry.load(registry: file.path) }
    }

    @Test("the one registry rule: --solvers-file, ./solvers.json, the tool's own, a clash an error; a corpus folder's registry is not read")
    func registryRule() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let tool = dir.appendingPathComponent("tool.json"), chosen = dir.appendingPathComponent("chosen.json")
        let corpus = dir.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        try Data(#"{"solvers": [{"name": "kiwi", "command": ["python3", "kiwi.py"]}, {"name": "mine", "command": ["tool-mine"]}]}"#.utf8).write(to: tool)
        try Data(#"{"solvers": [{"name": "mine", "command": ["chosen-mine"]}]}"#.utf8).write(to: chosen)
        try Data(#"{"solvers": [{"name": "evil", "command": ["sh", "-c", "touch PWNED"]}]}"#.utf8).write(to: corpus.appendingPathComponent("solvers.json"))
        // A name two files define is an error that names both (which one runs would be a guess).
        do {
            _ = try SolverRegistry.discover(solversFiles: [chosen.path], workingDirectory: dir.appendingPathComponent("none.json").path,
                                            tool: tool.path, commandLine: [])
            Issue.record("expected a clash")
        } catch {
            #expect(error.description == "'mine' is defined in both \(chosen.path) and \(tool.path); remove or rename one")
        }
        try Data(#"{"solvers": [{"name": "a", "command": ["x"]}, {"name": "a", "command": ["y"]}]}"#.utf8).write(to: corpus.appendingPathComponent("twice.json"))
        #expect(throws: RegistryError.self) {
            try SolverRegistry.discover(solversFiles: [corpus.appendingPathComponent("twice.json").path], tool: nil, commandLine: [])
        }
        try Data(#"{"solvers": [{"name": "mine2", "command": ["chosen-mine"]}]}"#.utf8).write(to: chosen)
        let registry = try SolverRegistry.discover(solversFiles: [chosen.path], workingDirectory: dir.appendingPathComponent("none.json").path,
                                                   tool: tool.path, commandLine: ["cli=./x", "mine=./override"])
        #expect(registry.solvers.map(\.name) == ["cassowary", "glpk", "mine2", "kiwi", "mine", "cli"])
        #expect(registry.solvers[2].kind == .external(command: ["chosen-mine"], workingDirectory: dir.path))
        // NAME=COMMAND on the command line replaces a registered definition, on purpose.
        #expect(registry.solvers[4].kind == .external(command: ["./override"], workingDirectory: nil))
        #expect(registry.origins["kiwi"] == tool.path && registry.origins["mine2"] == chosen.path && registry.origins["cli"] == "--solver")
        // The corpus folder's registry: not read, and named for a notice.
        #expect(!registry.solvers.contains { $0.name == "evil" })
        #expect(SolverRegistry.ignoredRegistries(in: [corpus.path], read: [tool.path]) == [corpus.appendingPathComponent("solvers.json").path])
        #expect(SolverRegistry.ignoredRegistries(in: [corpus.path], read: [corpus.appendingPathComponent("solvers.json").path]).isEmpty)
        #expect(throws: RegistryError.self) {
            try SolverRegistry.discover(solversFiles: [dir.appendingPathComponent("missing.json").path], tool: nil, commandLine: [])
        }
        do {
            _ = try registry.select(["nope"])
            Issue.record("expected an unknown solver")
        } catch {
            #expect(error.description.contains("solvers are registered in the tool's Corpus/solvers.json"), "\(error)")
        }
    }

    @Test("opt-in solvers run only when named or with 'all'; NAME@VERSION uses the entry's versioned command; bad entries and versions are refused")
    func optInAndVersions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("solvers.json")
        try Data(#"""
            {"solvers": [{"name": "kiwi", "family": "Cassowary", "command": ["python3", "kiwi.py"], "versioned": ["python3", "v.py", "kiwisolver", "{version}", "--", "kiwi.py"]},
                         {"name": "slow", "command": ["slow"], "default": false}]}
            """#.utf8).write(to: file)
        var registry = SolverRegistry()
        try registry.load(registry: file.path)
        #expect(registry.defaults.map(\.name) == ["cassowary", "glpk", "kiwi"])
        #expect(try registry.select(["all"]).map(\.name) == ["cassowary", "glpk", "kiwi", "slow"])
        #expect(try registry.select(["glpk", "all", "kiwi"]).map(\.name) == ["glpk", "cassowary", "kiwi", "slow"])
        let pinned = try registry.solver(named: "kiwi@1.3.2")
        #expect(pinned.name == "kiwi@1.3.2" && pinned.needsPreparation && pinned.optIn)
        // A pinned version is in its base's family; an entry without one has none ("other" in reports).
        let slow = try registry.solver(named: "slow")
        #expect(pinned.family == "Cassowary" && slow.family == nil)
        #expect(pinned.kind == .external(command: ["python3", "v.py", "kiwisolver", "1.3.2", "--", "kiwi.py"], workingDirectory: dir.path))
        #expect(SolverPreparation.prepare(try registry.solver(named: "kiwi")) == nil)  // nothing to prepare
        for bad in ["slow@1.0", "nope@1.0", "kiwi@", "kiwi@1.0;rm", "kiwi@../x", "kiwi@ 1"] {
            #expect(throws: RegistryError.self, "\(bad)") { try registry.solver(named: bad) }
        }
        for entry in [#"{"name": "a@b", "command": ["x"]}"#, #"{"name": "all", "command": ["x"]}"#,
                      #"{"name": "v", "command": ["x"], "versioned": ["x", "1.0"]}"#, #"{"name": "f", "command": ["x"], "family": ""}"#] {
            try Data(#"{"solvers": ["#.utf8 + Data(entry.utf8) + Data("]}".utf8)).write(to: file)
            var fresh = SolverRegistry()
            #expect(throws: RegistryError.self, "\(entry)") { try fresh.load(registry: file.path) }
        }
    }

    @Test("against Xcode's frames: a tie decided by floating-point noise still matches; an ambiguous view's miss is undetermined")
    func observedFrames() throws {
        let text = "container 100 x 100\nviews a b\na.left = super.left + 10.5\na.top = super.top\na.width = 10\na.height = 10\n"
            + "b.top = super.top\nb.width = 10\nb.height = 10\n"
            + "expect a = 10 0 10 10 observed xcode within 0.5\nexpect b = 50 0 10 10 observed xcode within 0.5\n"
        let layout = try #require(LayoutParser.parse(text, fileName: "o.layout").layout)
        let observations = layout.observations(for: nil)
        func result(_ a: Frame, _ b: Frame) -> VariantResult {
            VariantResult(variant: "default", solver: "x", verdict: .pass, reasons: [], status: .solved, levels: [], ambiguous: ["b"],
                          conflict: [], frames: [a, b], viewNames: ["a", "b"], observed: nil)
        }
        // The reference happens to put the free view b where Xcode did.
        let reference = Solution(variant: "default", status: .solved, viewNames: ["a", "b"],
                                 frames: [Frame(x: 10.5, y: 0, width: 10, height: 10), Frame(x: 50, y: 0, width: 10, height: 10)],
                                 levels: [], ambiguous: ["b"], conflict: [])
        // a: 1e-14 past the half-point tie (GLOP's answers look like this): the same answer as 10.5, so a match.
        let noisy = Runner.observed(result(Frame(x: 10.500000000000014, y: 0, width: 10, height: 10), Frame(x: 0, y: 0, width: 10, height: 10)),
                                    observations, layout: layout, reference: reference)
        #expect(noisy.matched == 1 && noisy.total == 2)
        // b: another point of its face; the cause is the import's open freedom, not the solver.
        #expect(noisy.differences.map(\.view) == ["b"] && noisy.differences.first?.cause == ObservedCause.undetermined.rawValue)
        // A real miss of a determined view is still one.
        let off = Runner.observed(result(Frame(x: 11.1, y: 0, width: 10, height: 10), Frame(x: 50, y: 0, width: 10, height: 10)),
                                  observations, layout: layout, reference: reference)
        #expect(off.matched == 1 && off.differences.map(\.view) == ["a"] && off.differences.first?.cause == ObservedCause.solver.rawValue)
    }

    @Test("stored frames that break the file's own required constraint: every difference on the screen is broken-constraint, with the constraint named")
    func brokenConstraintFrames() throws {
        // Xcode stored b 30 wide though the file says 40 (constraint Wd3-Ab-x9Q);
        // c sits after b, so it is off by the same 10 points.
        func layout(_ bWidth: String) throws -> Layout {
            let text = "container 100 x 100\nviews a b c\na.left = super.left\na.top = super.top\na.width = 10\na.height = 10\n"
                + "b.left = a.right\nb.top = super.top\nb.width = \(bWidth) # Wd3-Ab-x9Q\nb.height = 10\n"
                + "c.left = b.right\nc.top = super.top\nc.width = 10 # cW1-aa-111\nc.height = 10\n"
                + "expect a = 0 0 10 10 observed xcode within 0.5\nexpect b = 10 0 30 10 observed xcode within 0.5\n"
                + "expect c = 40 0 10 10 observed xcode within 0.5\n"
            return try #require(LayoutParser.parse(text, fileName: "s.layout").layout)
        }
        let stale = try layout("40")
        // The answer the constraints give (any solver's).
        let frames = [Frame(x: 0, y: 0, width: 10, height: 10), Frame(x: 10, y: 0, width: 40, height: 10), Frame(x: 50, y: 0, width: 10, height: 10)]
        let solved = Solution(variant: "default", status: .solved, viewNames: ["a", "b", "c"], frames: frames, levels: [], ambiguous: [], conflict: [])
        let r = VariantResult(variant: "default", solver: "glpk", verdict: .pass, reasons: [], status: .solved, levels: [], ambiguous: [],
                              conflict: [], frames: frames, viewNames: ["a", "b", "c"], observed: nil)
        let observed = Runner.observed(r, stale.observations(for: nil), layout: stale, reference: solved)
        #expect(observed.matched == 1)
        #expect(observed.differences.map(\.cause) == [ObservedCause.brokenConstraint.rawValue, ObservedCause.brokenConstraint.rawValue])
        #expect(observed.differences.first?.evidence == "the stored frames break constraint Wd3-Ab-x9Q by 10 pt")
        // The same frames with a constraint they keep: an ordinary difference, no evidence.
        let kept = try layout("30 @ 1000")
        #expect(StaleFrames.evidence(kept, kept.observations(for: nil)) == nil)
        // Only the file's own constraints (Interface Builder ids) count: an importer's row may be the wrong one.
        let generated = try layout("40")
        var renamed = generated
        renamed.constraints = renamed.constraints.map { c in var c = c; if c.identifier == "Wd3-Ab-x9Q" { c.identifier = "b: stack spacing" }; return c }
        #expect(StaleFrames.evidence(renamed, renamed.observations(for: nil)) == nil)
    }

    @Test("preparing a pinned version: the command runs once with LAYOUT_BENCH_PREPARE=1; a failure returns the end of its standard error")
    func preparation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prepare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let marker = dir.appendingPathComponent("prepared")
        var ok = SolverSpec(name: "x@1", kind: .external(command: ["sh", "-c", "[ \"$LAYOUT_BENCH_PREPARE\" = 1 ] && touch prepared"],
                                                          workingDirectory: dir.path))
        ok.needsPreparation = true
        #expect(SolverPreparation.prepare(ok) == nil)
        #expect(FileManager.default.fileExists(atPath: marker.path))
        var failing = SolverSpec(name: "x@2", kind: .external(command: ["sh", "-c", "echo no wheel for this Python >&2; exit 3"], workingDirectory: nil))
        failing.needsPreparation = true
        #expect(SolverPreparation.prepare(failing) == "preparing x@2 failed (exit 3): no wheel for this Python")
        var hung = SolverSpec(name: "x@3", kind: .external(command: ["sleep", "30"], workingDirectory: nil))
        hung.needsPreparation = true
        #expect(SolverPreparation.prepare(hung, timeout: 0.5)?.contains("stopped after") == true)
    }

    /// Issue 42: a soft constraint beside a variant made unsatisfiable by a
    /// `when` constraint. The reference failed it ("variant switch differs
    /// from a fresh solve: title.width = 200 incrementally, 120 fresh"): an
    /// unsatisfiable answer's frames were compared. Every built-in solver,
    /// every incremental path (switch, resize, add + remove), both orders of
    /// the variants.
    @Test("an unsatisfiable variant beside a soft constraint passes for every built-in solver and incremental path",
          arguments: ["header.height = 400", "title.top = super.bottom", "ok.width = 400"])
    func unsatisfiableVariant(conflict: String) throws {
        let url = TestCorpus.root.appendingPathComponent("Corpus/content/first-screen.layout")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "when landscape: ok.width = 400",
                                                                                     with: "when landscape: \(conflict)")
        // Also with the unsatisfiable variant first (the switch goes the other
        // way); its expect lines are dropped, the reference judges alone.
        let reordered = text.replacingOccurrences(of: "container 375 x 667\nvariant landscape 667 x 375 traits landscape",
                                                  with: "container 667 x 375 traits landscape\nvariant portrait 375 x 667")
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("expect") }.joined(separator: "\n")
        #expect(reordered != text)
        for source in [text, reordered] {
            let layout = try self.layout(source)
            let benchCase = BenchCase(name: "first-screen", source: "test", layout: layout, text: Array(source.utf8))
            var settings = RunSettings(solvers: [SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)])
            settings.repetitions = 1
            settings.timeBudget = 0
            let result = try #require(Runner(settings: settings).run([benchCase]).first)
            #expect(result.results.count == 4)
            #expect(result.results.contains { $0.status == .unsatisfiable })
            for r in result.results {
                #expect(r.verdict == .pass, "\(conflict) \(r.solver) [\(r.variant)]: \(r.reasons)")
            }
        }
    }

    // MARK: External solvers

    func misbehaving(_ mode: String, timeout: Double = 2) -> ExternalSolver {
        ExternalSolver(name: mode, command: ["python3", "\(Self.fixtures)/misbehave.py", mode], timeout: timeout)
    }

    @Test("a solver that crashes, hangs, answers junk, floods or exits is reported, and the caller goes on",
          arguments: ["crash", "hang", "junk", "flood", "silent-exit"])
    func isolation(mode: String) throws {
        let l = try layout("container 10 x 10\nviews a\na.width = 1")
        // The flood needs time to pass the line limit; the others must not wait that long.
        let solver = misbehaving(mode, timeout: mode == "flood" ? 20 : 1.5)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try solver.load(l, variant: nil)
            Issue.record("\(mode): expected an error")
        } catch {
            let text = "\(error)"
            switch mode {
            case "crash": #expect(text.contains("exited with status 139") && text.contains("segmentation fault (simulated)"), "\(text)")
            case "hang": #expect(text.contains("timed out after 1.5 s during 'load'"), "\(text)")
            case "junk":
                #expect(text.contains("junk: protocol error: the answer to 'load': expected one JSON object on one line, "
                                      + "found \"this is not json {\""), "\(text)")
            case "flood": #expect(text.contains("flooded its output"), "\(text)")
            default: #expect(text.contains("exited with status 0"), "\(text)")
            }
            // The failure is typed: a caller can tell a crash from a timeout
            // without reading the message.
            let reason: ExternalFailure.Reason? = if case SolverError.external(let f) = error { f.reason } else { nil }
            switch (mode, reason) {
            case ("crash", .exited(139, _)?), ("silent-exit", .exited(0, _)?), ("hang", .timedOut(1.5, "load")?),
                 ("flood", .flooded?): break
            case ("junk", nil): #expect(error == .protocolViolation(solver: "junk", .init(
                operation: "load", field: "", expected: "one JSON object on one line", found: "\"this is not json {\"")),
                "\(error)")
            default: Issue.record("\(mode): \(String(describing: reason))")
            }
        }
        #expect(clock.now - start < .seconds(20))
    }

    @Test("a solver that stops reading is reported, never a SIGPIPE or a blocked write",
          arguments: ["deaf", "no-read"])
    func stopsReading(mode: String) throws {
        // 3,000 views make a load request of well over the 64 KiB a pipe buffers,
        // so a child that does not read blocks a plain write for ever.
        let names = (0..<3000).map { "view\($0)" }
        let source = "container 10 x 10\nviews " + names.joined(separator: " ") + "\n"
            + names.map { "\($0).width = 1" }.joined(separator: "\n")
        let l = try layout(source)
        let solver = misbehaving(mode, timeout: 1.5)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try solver.load(l, variant: nil)
            Issue.record("\(mode): expected an error")
        } catch {
            let text = "\(error)"
            if mode == "deaf" { #expect(text.contains("exited with status"), "\(text)") }
            else { #expect(text.contains("timed out after 1.5 s during 'load'"), "\(text)") }
        }
        #expect(clock.now - start < .seconds(20))
    }

    @Test("a solver that closes its output and lives on is reported and killed, not waited for")
    func mute() throws {
        let solver = misbehaving("mute", timeout: 30)
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            _ = try solver.load(try layout("container 10 x 10\nviews a\na.width = 1"), variant: nil)
        } throws: { error in
            "\(error)".contains("exited with status")
        }
        // Well before the 30 s timeout: the closed output is the signal.
        #expect(clock.now - start < .seconds(10))
    }

    @Test("start-up is not held to the operation timeout: a child slow to start still gets its load")
    func slowStart() throws {
        let solver = misbehaving("slow-start", timeout: 1)
        // It sleeps 2.5 s before hello, then exits on load: the error must be the
        // exit (the load was sent), not a timeout during hello.
        #expect {
            _ = try solver.load(try layout("container 10 x 10\nviews a\na.width = 1"), variant: nil)
        } throws: { error in
            "\(error)".contains("exited with status 0") && !"\(error)".contains("timed out")
        }
    }

    @Test("a command that does not exist is an error, not a crash")
    func missingCommand() throws {
        let solver = ExternalSolver(name: "ghost", command: ["/nonexistent/solver"], timeout: 2)
        #expect {
            try solver.load(try layout("container 1 x 1"), variant: nil)
        } throws: { error in
            guard case SolverError.external(let failure) = error, case .couldNotStart = failure.reason else { return false }
            return failure.solver == "ghost"
        }
    }

    @Test("kiwi through the protocol: the same frames as the reference on a seed layout")
    func kiwi() throws {
        let script = TestCorpus.root.appendingPathComponent("scripts/solvers/kiwi.py").path
        let solver = ExternalSolver(name: "kiwi", command: ["python3", script], timeout: 120)
        let l = try #require(LayoutParser.parseFile(atPath: TestCorpus.path("seed/emoji-playground.layout")).result.layout)
        let solution = try solver.load(l, variant: nil)
        #expect(solver.capabilities.prioritySemantics == .weighted && solver.capabilities.incremental)
        #expect(solution.check(l.expectations).allSatisfy { $0.verdict != .failed })
        let resized = try solver.resize(to: ContainerSize(width: 500, height: 300))
        #expect(resized.frame(of: "super") == Frame(x: 0, y: 0, width: 500, height: 300))
        let handle = try solver.addConstraint(LayoutConstraint(ItemAttribute("red", .width), .lessThanOrEqual, nil, constant: 1e7))
        try solver.removeConstraint(handle)
    }

    // MARK: Runs

    @Test("the allocation counter sees allocations made inside shared libraries")
    func allocationCounter() throws {
        try #require(Allocations.counting)
        // 1,000 class instances: each one a swift_allocObject -> malloc inside libswiftCore.
        // At least 1,000: the count is process-wide and other tests run meanwhile
        // (exact repeatability is checked in a process of its own, by the CLI tests).
        final class Box { var value: Int; init(_ value: Int) { self.value = value } }
        var boxes: [Box] = []
        boxes.reserveCapacity(1000)
        let counted = Allocations.made {
            for i in 0..<1000 { boxes.append(Box(i)) }
        }
        #expect((counted ?? 0) >= 1000)
        #expect(boxes.count == 1000)
    }

    /// A small grid over `reference`'s timing limit (10) and within its judging limit (1,000).
    static func overTimingLimit(_ name: String, reference: String) throws -> BenchCase {
        var over = BenchCase(name: name, source: "AlternatingGrid.layout(rows: 3)", layout: try AlternatingGrid.layout(rows: 3),
                             text: [], limits: [reference: 10])
        over.referenceJudgeLimits = [reference: 1_000]
        return over
    }

    /// The least timing: one sample, no warm-up, no budget.
    static func quickSettings(_ solvers: [SolverSpec]) -> RunSettings {
        var settings = RunSettings(solvers: solvers)
        settings.repetitions = 1
        settings.warmup = 0
        settings.timeBudget = 0
        return settings
    }

    @Test("over its timing limit but within its judging limit, the reference judges (one solve per variant) and is not timed")
    func referenceJudgesOverItsTimingLimit() throws {
        let judged = try Self.overTimingLimit("family/judged", reference: "glpk")
        var unjudged = judged
        unjudged.name = "family/unjudged"
        unjudged.referenceJudgeLimits = [:]
        let settings = Self.quickSettings([SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)])
        let results = Runner(settings: settings).run([judged, unjudged])
        let glpk = try #require(results[0].results.first { $0.solver == "glpk" })
        #expect(glpk.verdict == .pass && glpk.reasons.contains { $0.hasPrefix("judged only") }, "\(glpk.reasons)")
        #expect(glpk.ambiguous == [])  // the reference's own analysis ran
        #expect(!results[0].timings.contains { $0.solver == "glpk" })
        #expect(results[0].timings.contains { $0.solver == "cassowary" && $0.phase == .solve })
        // Without a judging limit the reference does not run at all, and the
        // native solver is judged by the expect lines alone.
        #expect(results[1].results.first { $0.solver == "glpk" }?.verdict == .unsupported)
        #expect(results[1].results.first { $0.solver == "cassowary" }?.verdict == .pass)
    }

    @Test("run --reference: another solver judges, GLPK included, over its own timing limit too")
    func anotherReference() throws {
        let over = try Self.overTimingLimit("family/over", reference: "cassowary")
        var settings = Self.quickSettings([SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)])
        settings.reference = "cassowary"
        let results = Runner(settings: settings).run([over])
        let native = try #require(results[0].results.first { $0.solver == "cassowary" })
        let glpk = try #require(results[0].results.first { $0.solver == "glpk" })
        // The reference over its timing limit: judged only, by the expect lines, with its own ambiguity analysis.
        #expect(native.verdict == .pass && native.reasons.contains { $0.hasPrefix("judged only") }, "\(native.reasons)")
        #expect(native.ambiguous == [])
        // GLPK is judged against it (the cross-check ran: pass, not unsupported) and timed.
        #expect(glpk.verdict == .pass, "\(glpk.reasons)")
        #expect(results[0].timings.contains { $0.solver == "glpk" && $0.phase == .solve })
        #expect(!results[0].timings.contains { $0.solver == "cassowary" })
        // The results file names the reference.
        var document = RunResults(started: Date(), finished: Date(), machine: MachineInfo.current(), settings: .init(),
                                  solvers: settings.solvers, problems: [], cases: results)
        document.reference = settings.reference
        let written = try ResultsDocument.decode(document.document().encoded(), name: "results.json")
        #expect(written.solvers.map { [$0.name, $0.kind, String($0.reference), $0.familyName] }
                == [["glpk", "built-in", "false", "LP"], ["cassowary", "built-in", "true", "Cassowary"]])
        // A built-in solver's profile is its declared capabilities.
        #expect(written.solvers[1].profile?.capabilities == "incremental, edits, ambiguity")
        #expect(written.solvers[0].profile?.semantics == "lexicographic")
        #expect(written.referenceName == "cassowary")
    }

    @Test("beyond the reference's judging limit, a fall-back reference of the run judges, and the case names it")
    func fallbackReference() throws {
        var over = BenchCase(name: "family/fallback", source: "AlternatingGrid.layout(rows: 3)", layout: try AlternatingGrid.layout(rows: 3),
                             text: [], limits: ["glpk": 10])
        over.referenceJudgeLimits = [:]
        var settings = Self.quickSettings([SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)])
        // Without a fall-back among the solvers: nobody judges but the expect lines.
        let alone = Runner(settings: settings).run([over])
        #expect(alone[0].judge == nil)
        #expect(alone[0].results.first { $0.solver == "glpk" }?.verdict == .unsupported)
        settings.fallbackReferences = ["cassowary"]
        let results = Runner(settings: settings).run([over])
        #expect(results[0].judge == "cassowary")
        #expect(results[0].results.first { $0.solver == "glpk" }?.verdict == .unsupported)
        let native = try #require(results[0].results.first { $0.solver == "cassowary" })
        // Judged by its own fresh solves with ambiguity analysis: the reference's list is there.
        #expect(native.verdict == .pass && native.ambiguous == [], "\(native.reasons)")
        var document = RunResults(started: Date(), finished: Date(), machine: MachineInfo.current(), settings: .init(),
                                  solvers: settings.solvers, problems: [], cases: results)
        document.reference = settings.reference
        let written = try ResultsDocument.decode(document.document().encoded(), name: "results.json")
        #expect(written.cases[0].reference == "cassowary" && written.referenceName == "glpk")
    }

    @Test("a run: every case x variant x solver judged, phases timed, a crashing solver isolated")
    func run() throws {
        let files = ["seed/emoji-playground.layout", "conformance/kiwi-unsatisfiable.layout", "seed/readable-constraints.layout"]
        let (cases, problems) = CaseCollector.files(files.map(TestCorpus.path))
        #expect(problems.isEmpty && cases.map(\.name) == ["seed/emoji-playground", "conformance/kiwi-unsatisfiable",
                                                        "seed/readable-constraints"])
        var settings = RunSettings(solvers: [
            SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk),
            SolverSpec(name: "crashy", kind: .external(command: ["python3", "\(Self.fixtures)/misbehave.py", "crash"],
                                                       workingDirectory: nil)),
        ])
        settings.repetitions = 2
        settings.warmup = 0
        settings.timeBudget = 0  // the least: `repetitions` samples
        // 0.1 s, not less: a round here takes about a millisecond, and the
        // batching asserted below must hold on a loaded machine too (at 0.02 s
        // it failed once beside a full run and a callgrind profile).
        settings.sampleTime = 0.1
        var seen: [String] = []
        let results = Runner(settings: settings).run(cases) { seen.append($0.current) }
        // The check pass case by case, then the timing pass (all cases interleaved), per sample round.
        #expect(seen.filter { !$0.hasPrefix("timing") } == ["seed/emoji-playground", "conformance/kiwi-unsatisfiable",
                                                             "seed/readable-constraints", ""])
        #expect(seen.filter { $0.hasPrefix("timing") }.count == 2)
        for c in results {
            for r in c.results where r.solver != "crashy" { #expect(r.verdict == .pass, "\(c.name) \(r.variant) \(r.solver): \(r.reasons)") }
            #expect(c.results.filter { $0.solver == "crashy" }.allSatisfy { $0.verdict == .error })
        }
        #expect(results[2].results.filter { $0.solver == "glpk" }.map(\.variant) == ["default", "landscape", "ipad", "ipadLandscape"])
        let phases = Set(results[2].timings.filter { $0.solver == "cassowary" }.map(\.phase))
        #expect(phases == Set(Phase.solverPhases))
        // At least 2 samples (each a batch of rounds; a round resizes to each of
        // the 5 widths and a sample's value is the mean per resize).
        let resize = try #require(results[2].timings.first { $0.solver == "cassowary" && $0.phase == .resize })
        #expect(resize.summary.count == 2 && resize.samples.count == 2)
        // A round of this small layout takes well under 100 ms: batched.
        #expect(resize.iterations > 1)
        #expect(!results[2].timings.contains { $0.solver == "glpk" && $0.phase == .addRemove })  // unsupported, not timed
        // Allocations per phase for the in-process solvers (this test process
        // links the counter too), none for the external one.
        #expect(Allocations.counting)
        let cassowaryCounts = results[2].counters["cassowary"] ?? [:]
        for phase in Phase.solverPhases {
            let counter = try #require(phase.allocationCounter)
            #expect(cassowaryCounts[counter] != nil, "\(phase): \(cassowaryCounts)")
        }
        #expect((cassowaryCounts[.allocationsLoad] ?? 0) > 0 && (results[2].counters["glpk"]?[.allocationsLoad] ?? 0) > 0)
        // The solvers' own counters, through the protocol (this layout needs no pivot).
        #expect(cassowaryCounts[.pivots] == 0 && (results[2].counters["glpk"]?[.simplexIterations] ?? 0) > 0)
        #expect(results.allSatisfy { c in !(c.counters["crashy"] ?? [:]).keys.contains { $0.isAllocationCount } })

        let document = RunResults(started: Date(), finished: Date(), machine: MachineInfo.current(), settings: .init(),
                                  solvers: settings.solvers, problems: problems, cases: results)
        #expect(!document.hasFailures(strict: false))
        #expect(document.hasFailures(strict: true))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)/results.json")
        try document.write(to: url)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        #expect(object?["schema"] as? String == "layout-bench/results" && (object?["version"] as? Int) == 1)
        #expect((object?["cases"] as? [Any])?.count == 3)
    }

    @Test("generated families: sizes per scale, solver limits, expected frames that hold")
    func families() throws {
        let small = CaseCollector.generated(.small)
        #expect(small.map(\.name) == ["family/alternating-grid-r10", "family/alternating-grid-r100", "family/equal-row-n10",
                                      "family/equal-row-n100", "family/self-sizing-rows-r10", "family/self-sizing-rows-r100",
                                      "family/random-feasible-n10", "family/random-feasible-n100"])
        #expect(small.allSatisfy { $0.limits["kiwi"] == 1_000 && $0.limits["glpk"] == 10_000 })
        let row = try #require(small.first { $0.name == "family/equal-row-n10" })
        let solution = try CassowaryLayoutSolverFactory.make().load(row.layout, variant: nil)
        #expect(solution.check(row.layout.expectations).allSatisfy { $0.verdict != .failed })
    }
}

/// The native solver, through the registry (so this test target needs no other import).
enum CassowaryLayoutSolverFactory {
    static func make() -> LayoutSolver { SolverSpec(name: "cassowary", kind: .cassowary).make(timeout: 1) }
}

@Suite("Random layouts: the native solver agrees with the reference")
struct RandomAgreementTests {
    /// Seeds 1...2000 cycle through feasible, infeasible, ambiguous and numeric
    /// layouts; every variant of each must agree (ill-conditioned differences,
    /// within the reference's own accuracy, are allowed and counted).
    @Test("2000 seeded random layouts, cassowary vs glpk", arguments: [UInt64(1), 501, 1001, 1501])
    func agreement(from seed: UInt64) {
        let solvers = [SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)]
        var illConditioned = 0
        for s in seed..<(seed + 500) {
            let layout = RandomLayoutGenerator.layout(seed: s, views: 5)
            for finding in Agreement.check(layout, solvers: solvers) {
                #expect(finding.outcome != .disagree, "seed \(s) [\(finding.variant)]: \(finding.reasons)")
                if finding.outcome == .illConditioned { illConditioned += 1 }
            }
        }
        // Only the numeric family may be ill-conditioned, and rarely.
        #expect(illConditioned < 25)
    }

    @Test("the generator's kinds: infeasible layouts really are, feasible ones really are not")
    func kinds() throws {
        let glpk = SolverSpec(name: "glpk", kind: .glpk)
        for s in UInt64(1)...40 {
            let layout = RandomLayoutGenerator.layout(seed: s, views: 5)
            let solution = try glpk.make(timeout: 10).load(layout, variant: nil)
            switch RandomLayoutGenerator.kind(forSeed: s) {
            case .infeasible: #expect(solution.status == .unsatisfiable, "seed \(s)")
            case .feasible, .numeric: #expect(solution.status == .solved, "seed \(s)")
            case .ambiguous: #expect(solution.status == .solved, "seed \(s)")
            case .hostile: Issue.record("seed \(s): hostile is not in the seed cycle")
            }
        }
    }
}

@Suite("Numerics at the edges")
struct NumericsTests {
    static let solvers = [SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)]

    static let cases: [(String, String)] = [
        ("constants at 1e7", """
            container 2e7 x 1e7
            views a b
            a.left = super.left + 1e7
            a.width = 5e6
            b.left = a.right + 1234567.5
            b.width = 1e3 @ 500
            b.right <= super.right
            a.top = super.top
            b.top = a.bottom - 9999999
            a.height = 9999997
            b.height = 0.001
            """),
        ("multipliers 1e-4 and 1e4", """
            container 1000 x 1000
            views a b c
            a.left = super.left
            b.left = super.left
            c.left = super.left
            a.top = super.top
            b.top = super.top
            c.top = super.top
            a.width = 500
            b.width = a.width * 0.0001
            c.width = b.width * 10000 - 1
            a.height = c.width / 4 @ 750
            b.height = a.height * 0.0001 + 3
            c.height >= b.height * 10000 @ 250
            """),
        ("near-parallel inequalities", """
            container 1000 x 1000
            views a b
            a.left = super.left
            b.left = super.left
            a.top = super.top
            b.top = super.top
            a.height = 10
            b.height = 10
            a.width >= b.width * 1.000000001 + 10
            a.width <= b.width * 1.000000002 + 10.000001
            b.width = 300 @ 500
            a.width = 900 @ 250
            """),
        ("nearly redundant equalities", """
            container 1000 x 1000
            views a b
            a.left = super.left
            b.left = super.left
            a.top = super.top
            b.top = super.top
            a.height = 10
            b.height = 10
            b.width = 250
            a.width = b.width + 10
            a.width = b.width * 1.0000000001 + 10
            a.width = b.width * 0.9999999999 + 10.00000005
            """),
    ]

    @Test("the native solver and the reference agree, or differ only within the reference's accuracy", arguments: 0..<4)
    func edge(index: Int) throws {
        let (name, text) = Self.cases[index]
        let layout = try #require(LayoutParser.parse(text, fileName: "\(name).layout").layout)
        for finding in Agreement.check(layout, solvers: Self.solvers) {
            #expect(finding.outcome != .disagree, "\(name) [\(finding.variant)]: \(finding.reasons)")
        }
    }
}
