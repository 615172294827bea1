import BenchSchema
import BenchHarness
import ExternalSolvers
import CassowaryLayout
import Foundation
import GLPKReference
import LayoutFormat
import LayoutGenerators
import LayoutTestSupport
import LayoutModel
import LayoutSolving
import Testing

/// The inputs of issue 13 that crashed a solver, aborted the process or got a
/// solver blamed for the harness's own probe, replayed; and the guards that
/// fixed them.
@Suite("Hardening")
struct HardeningTests {
    static let hostile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile")

    static func parse(_ name: String) -> ParseResult {
        LayoutParser.parseFile(atPath: hostile.appendingPathComponent(name).path).0
    }

    @Test("numbers beyond the accepted range are located errors, for every front end")
    func refused() throws {
        let multiplier = Self.parse("huge-multiplier.layout")
        #expect(multiplier.layout == nil)
        let error = try #require(multiplier.diagnostics.first { $0.severity == .error })
        #expect(error.location?.line == 7 && error.location?.column == 22)
        #expect(error.message.contains("multiplier 1e+280 is outside the range the solvers accept"))
        let integer = Self.parse("big-integer.layout")
        #expect(integer.diagnostics.first { $0.severity == .error }?.location?.line == 7)
        // The model API skips the parser: the same check stops it at the solver.
        let built = Layout(container: ContainerSize(width: 100, height: 100), views: [ViewDeclaration(name: "a")],
                           constraints: [LayoutConstraint(ItemAttribute("a", .height), .equal, ItemAttribute("a", .width), multiplier: 1e280)])
        for solver in [CassowaryLayoutSolver() as LayoutSolver, GLPKLayoutSolver()] {
            #expect(throws: SolverError.self) { _ = try solver.load(built, variant: nil) }
        }
    }

    @Test("nearly parallel rows (multipliers within 1e-6 on the same attributes) are a located warning; other pairs are not")
    func nearlyParallel() throws {
        // Hostile seed 18: GLPK called this unsatisfiable; exactly, v4.trailing <= -10 satisfies both.
        let text = """
        container 100 x 100
        views v4 v6 a b
        v6.trailing <= v4.trailing
        v6.trailing = v4.trailing * 1.0000001 + 1e-06
        a.width = a.height * 2
        b.width = b.height * 2
        a.left = b.left * 2.000001
        a.left = b.left * 2.5
        """
        let result = LayoutParser.parse(text, fileName: "p.layout")
        let layout = try #require(result.layout)
        let warnings = result.diagnostics.filter { if case .nearlyParallel = $0.kind { true } else { false } }
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.severity == .warning && warning.location?.line == 4 && warning.location?.column == 29)
        #expect(warning.notes.first?.location?.line == 3)
        #expect(warning.message.contains("multiplier 1.0000001 is within 1e-6 of another constraint's (1)"))
        #expect(layout.validate().contains { $0.kind.limitsPrecision })
        // Built in code (no locations): the same warning.
        let built = Layout(container: ContainerSize(width: 100, height: 100), views: [ViewDeclaration(name: "a"), ViewDeclaration(name: "b")],
                           constraints: [LayoutConstraint(ItemAttribute("a", .width), .equal, ItemAttribute("b", .width), multiplier: -3),
                                         LayoutConstraint(ItemAttribute("a", .width), .lessThanOrEqual, ItemAttribute("b", .width),
                                                          multiplier: -3.000000001)])
        #expect(built.validate().filter { $0.kind.limitsPrecision }.count == 1)
        // A grid's aspect ratios and the corpus: none.
        let grid = try AlternatingGrid.layout(rows: 50)
        #expect(!grid.validate().contains { $0.kind.limitsPrecision })
    }

    @Test("numbers beyond the precise range are warnings; a resize beyond the accepted range is refused")
    func warned() throws {
        let wide = Self.parse("wide-1e8.layout")
        let layout = try #require(wide.layout)
        #expect(wide.diagnostics.contains { $0.severity == .warning && $0.message.contains("beyond the range the solvers answer to full precision") })
        let solver = CassowaryLayoutSolver()
        _ = try solver.load(layout, variant: nil)
        #expect(throws: SolverError.self) { _ = try solver.resize(to: ContainerSize(width: 1e12, height: 300)) }
        #expect(throws: SolverError.self) { _ = try solver.resize(to: ContainerSize(width: .nan, height: 300)) }
    }

    @Test("rows that differ below the tolerance: no trap in the conflict search, both solvers agree")
    func toleranceEdge() throws {
        // Before: cassowary called the rows a conflict by an absolute 1e-7
        // test, and the conflict search indexed past its candidates (signal 4).
        let layout = try #require(Self.parse("tolerance-edge.layout").layout)
        let cassowary = try CassowaryLayoutSolver().load(layout, variant: nil)
        let glpk = try GLPKLayoutSolver().load(layout, variant: nil)
        #expect(cassowary.status == .solved && glpk.status == .solved)
        #expect(CrossCheck.sameAnswer(cassowary, glpk, reference: glpk) == nil)
    }

    @Test("a layout wider than the old probe: the run passes (the probe comes from a solution, within the accepted range)",
          arguments: ["wide-1e8.layout", "wide-9e8.layout", "wide-1e9.layout"])
    func derivedProbe(file: String) throws {
        let (cases, problems) = CaseCollector.files([Self.hostile.appendingPathComponent(file).path])
        #expect(problems.isEmpty)
        var settings = RunSettings(solvers: [SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)])
        settings.repetitions = 1
        settings.timeBudget = 0
        let result = try #require(Runner(settings: settings).run(cases).first)
        for r in result.results { #expect(r.verdict == .pass, "\(r.solver): \(r.reasons)") }
        #expect(result.timings.contains { $0.solver == "cassowary" && $0.phase == .addRemove })
    }

    @Test("near-parallel rows: no pivot on what is left of them (1e-9), so the container keeps its fraction")
    func nearParallelPivot() throws {
        // Before: cassowary answered "unsatisfiable" with a width of 1 for 0.5
        // (and 3 for 3.4): the artificial objective's 1e-9 entered the basis.
        let (cases, problems) = CaseCollector.files([Self.hostile.appendingPathComponent("near-parallel-pivot.layout").path])
        #expect(problems.isEmpty)
        var settings = RunSettings(solvers: [SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)])
        settings.repetitions = 1
        settings.timeBudget = 0
        let result = try #require(Runner(settings: settings).run(cases).first)
        #expect(result.results.count == 4)
        for r in result.results { #expect(r.verdict == .pass, "\(r.solver) [\(r.variant)]: \(r.reasons)") }
    }

    @Test("near-parallel rows in the precise range: no subject or entering symbol on a 1e-9 residue, so both solvers agree",
          arguments: ["subject-threshold-seed11042.layout", "improvement-threshold-seed95413.layout"])
    func nearParallelThresholds(file: String) throws {
        // Before: cassowary answered "unsatisfiable" (a satisfiable required row called a conflict).
        try Self.bothSolveAndAgree(file)
    }

    /// Every variant of fixture `file` is solved by both built-in solvers, with the same answer.
    static func bothSolveAndAgree(_ file: String) throws {
        let layout = try #require(parse(file).layout)
        for variant in layout.allVariants {
            let cassowary = try CassowaryLayoutSolver().load(layout, variant: variant.name)
            let glpk = try GLPKLayoutSolver().load(layout, variant: variant.name)
            #expect(cassowary.status == .solved && glpk.status == .solved, "\(file) [\(variant.name)]")
            #expect(CrossCheck.sameAnswer(cassowary, glpk, reference: glpk) == nil, "\(file) [\(variant.name)]")
        }
    }

    @Test("a cold GLPK load of a fuzz variant that a warm switch solved (it said 'no feasible solution'): both solvers agree",
          arguments: ["glpk-cold-load-seed431971.layout", "glpk-cold-load-seed735334.layout"])
    func glpkColdLoad(file: String) throws {
        // Before the level faces were fixed by bounds, the dense level rows
        // with their slack made this cold load of `resized` infeasible to GLPK.
        try Self.bothSolveAndAgree(file)
    }

    @Test("the native simplex answers near-parallel rows with constants to 1e9 without cycling")
    func nativeCycling() throws {
        let layout = try #require(Self.parse("cycling-seed1433.layout").layout)
        for variant in layout.allVariants {
            let solution = try CassowaryLayoutSolver().load(layout, variant: variant.name)
            #expect(solution.status == .solved)
        }
    }

    /// A hostile layout checked by glpk (the reference) and cassowary, its
    /// disagreements explained by z3, as `fuzz --arbiter z3` does.
    static func arbitrated(hostileSeed seed: UInt64) -> (Layout, [Agreement.Finding], [Agreement.Explained]) {
        let layout = RandomLayoutGenerator.layout(seed: seed, views: 6, kind: .hostile)
        let solvers = [SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)]
        let script = TestCorpus.root.appendingPathComponent("scripts/solvers/z3solver.py").path
        let z3 = SolverSpec(name: "z3", kind: .external(command: ["python3", script], workingDirectory: nil))
        let pool = SolverPool(timeout: 60)
        let findings = Agreement.check(layout, solvers: solvers, pool: pool)
        return (layout, findings, Agreement.explain(layout, findings: findings, solvers: solvers, arbiter: z3, pool: pool))
    }

    @Test("fuzz --arbiter: an exact solver explains a disagreement (hostile seed 1031: the exact optimum needs a width of 1e18)")
    func arbitration() throws {
        // v6.width = v5.width + 999000000 (required) against v6.width = v5.width * 1.000000001 + 5000000
        // (required too): v5.width = 994000000 / 1e-9, where doubles cannot follow.
        let (layout, findings, explained) = Self.arbitrated(hostileSeed: 1031)
        let disagreements = findings.filter { $0.outcome == .disagree }
        #expect(!disagreements.isEmpty)
        #expect(explained.count == disagreements.count)
        for e in explained {
            guard case .exactBeyondRange(let magnitude) = e.explanation else {
                Issue.record("\(e.finding.variant): \(e.explanation)")
                continue
            }
            #expect((magnitude ?? 0) > 1e15)
            #expect(!e.precise)
        }
        // The saved reproduction carries the explanation.
        let text = Agreement.reproduction(layout, seed: 1031, kind: .hostile, findings: findings, explanations: explained)
        #expect(text.hasPrefix("# layout-bench fuzz: seed 1031 (hostile)\n"))
        #expect(text.contains("# explained: cassowary [default]: exact optimum beyond the accepted range: |value| = "))
    }

    @Test("hostile seed 13681: an optimum that needs a value beyond the range, reached exactly through the external rows' DAG")
    func beyondRangeThroughASum() throws {
        // v4.bottom = v3.centerY * 100000 @ 552 with v3.centerY near 1e9: every
        // view is free, and the exact optimum puts v4.bottom at 1e14. In solved
        // form cassowary had to reach it by a weak step past its 1e9 limit and
        // left level 552 at 1e14 (a finding the arbiter explained as beyond the
        // range). With external rows kept as a DAG, v4's row names v3 directly
        // and its value follows without a step: level 552 is met exactly, and
        // there is no cassowary finding left to explain.
        let (layout, findings, _) = Self.arbitrated(hostileSeed: 13681)
        #expect(!findings.contains { $0.solver == "cassowary" && $0.outcome == .disagree })
        let solution = try CassowaryLayoutSolver().load(layout, variant: nil)
        #expect(solution.levels.allSatisfy { $0.error == 0 }, "\(solution.levels)")
    }

    @Test("fuzz --arbiter: the reference's own decline is its own class, not 'both wrong' (hostile seed 158)")
    func referenceDeclined() throws {
        // GLPK stops with "solver failure" even after scaling and a fresh
        // basis; z3 answers. The finding is the reference's: nothing else was compared.
        let (_, all, explained) = Self.arbitrated(hostileSeed: 158)
        let findings = all.filter { $0.outcome == .disagree }
        #expect(!findings.isEmpty && findings.allSatisfy { $0.solver == "glpk" })
        #expect(explained.count == findings.count)
        for e in explained {
            guard case .referenceDeclined(let why) = e.explanation else {
                Issue.record("\(e.finding.variant): \(e.explanation)")
                continue
            }
            #expect(why.contains("numerical trouble"))
        }
    }

    /// The free components of `layout` in `variant` by GLPK's basis shortcut,
    /// by its per-variable LPs and by z3 (exact, over the rationals).
    static func freeComponents(_ layout: Layout, variant: String) throws -> (shortcut: Set<String>, lps: Set<String>, exact: Set<String>)? {
        let fast = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
        let slow = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
        slow.basisShortcut = false
        guard (try? fast.load(layout, variant: variant)) != nil, (try? slow.load(layout, variant: variant)) != nil else { return nil }
        let script = TestCorpus.root.appendingPathComponent("scripts/solvers/z3solver.py").path
        let exact = try ExternalSolver(name: "z3", command: ["python3", script], timeout: 120).load(layout, variant: variant)
        let names = ["super"] + layout.views.map(\.name)
        let exactFree = (exact.freeVariables ?? []).compactMap { FrameVariable(index: $0) }.map { "\(names[$0.view]).\($0.component)" }
        return (Set(fast.ranges.map { "\($0.view).\($0.component)" }), Set(slow.ranges.map { "\($0.view).\($0.component)" }),
                Set(exactFree))
    }

    /// Of 3,000 hostile seeds, these are where GLPK's basis shortcut and its
    /// per-variable LPs name different free components (the ambiguous views
    /// are the same). z3 sides with the shortcut: the LPs' extra component is
    /// a range 0 wide (887, 1475, 2096: GLPK contradicts itself) or a
    /// half-line (359, 1997, 2135): moves that the LPs' 1e-7 tolerances allow
    /// across rows parallel to 1e-7, which the exact face does not. All six
    /// are in the imprecise band (constants beyond 1e7).
    @Test("shortcut vs per-variable LPs by component: the exact solver sides with the shortcut",
          arguments: [359, 887, 1475, 1997, 2096, 2135] as [UInt64])
    func shortcutArbitrated(seed: UInt64) throws {
        let layout = RandomLayoutGenerator.layout(seed: seed, views: 6, kind: .hostile)
        for variant in layout.allVariants {
            let free = try #require(try Self.freeComponents(layout, variant: variant.name))
            #expect(free.shortcut == free.exact, "[\(variant.name)] shortcut \(free.shortcut.symmetricDifference(free.exact).sorted())")
            #expect(free.lps != free.exact)
        }
    }

    /// Seed 2927 is the one of the 3,000 where the shortcut is not exact:
    /// with `v4.centerX = v3.right * 1.0000001 + 5000000.000001 @ 516` above
    /// `v4.centerX = v3.right + 5000000 @ 269`, the exact answer fixes
    /// `v3.right` at -10 (so `v3.width` is determined) and leaves `v4.x`
    /// free; both GLPK methods call `v3.width` free, and the shortcut also
    /// misses `v4.x` (the per-variable LPs find it). The layout is in the
    /// imprecise band (a constant of 1e8), where the format warns that answers
    /// may differ from the exact ones; pinned here so that a change shows.
    @Test("GLPK's basis shortcut: a rounding entry of the tableau does not pin a column (fuzz seed 648784, the campaign's one disagreement)")
    func shortcutRoundoff() throws {
        let layout = try #require(Self.parse("glpk-shortcut-roundoff-seed648784.layout").layout)
        #expect(layout == RandomLayoutGenerator.layout(seed: 648784, views: 6, kind: nil))
        for variant in layout.allVariants {
            let free = try #require(try Self.freeComponents(layout, variant: variant.name))
            #expect(free.shortcut == ["v4.x", "v4.y", "v5.x"], "[\(variant.name)]")
            #expect(free.lps == free.exact && free.shortcut == free.exact, "[\(variant.name)]")
        }
        // And the run's judge agrees with cassowary, which had it right.
        let solution = try GLPKLayoutSolver().load(layout, variant: "resized")
        #expect(solution.ambiguous == ["v4", "v5"])
    }

    @Test("shortcut vs exact on hostile seed 2927: the one deviation, in the imprecise band")
    func shortcutDeviation() throws {
        let layout = RandomLayoutGenerator.layout(seed: 2927, views: 6, kind: .hostile)
        #expect(layout.validate().contains { if case .numberBeyondPreciseRange = $0.kind { true } else { false } })
        for variant in layout.allVariants {
            let free = try #require(try Self.freeComponents(layout, variant: variant.name))
            #expect(free.shortcut.subtracting(free.exact) == ["v3.width"] && free.exact.subtracting(free.shortcut) == ["v4.x"])
            #expect(free.lps.subtracting(free.exact) == ["v3.width"] && free.exact.subtracting(free.lps).isEmpty)
        }
    }

    @Test("GLPK cycling on badly scaled rows: a typed numerical-trouble error, not a hang")
    func cycling() throws {
        let layout = try #require(Self.parse("glpk-cycling-seed359.layout").layout)
        let glpk = GLPKLayoutSolver()
        glpk.analyseAmbiguity = true
        do {
            _ = try glpk.load(layout, variant: nil)
        } catch {
            guard case .numericalTrouble = error else {
                Issue.record("expected numerical trouble, got \(error)")
                return
            }
        }
        // The native solver answers it.
        #expect(try CassowaryLayoutSolver().load(layout, variant: nil).status == .solved)
    }

    @Test("a handle of an earlier load is refused, and the answer is unchanged (it removed an unrelated constraint)")
    func staleHandle() throws {
        let layout = try #require(LayoutParser.parse("""
            container 400 x 300
            views a
            a.left = super.left + 10
            a.top = super.top + 10
            a.width = 100
            a.height = 50
            """, fileName: "t.layout").layout)
        let solver = CassowaryLayoutSolver()
        _ = try solver.load(layout, variant: nil)
        let old = try solver.addConstraint(LayoutConstraint(ItemAttribute("a", .width), .lessThanOrEqual, nil, constant: 500))
        let fresh = try solver.load(layout, variant: nil)
        do {
            try solver.removeConstraint(old)
            Issue.record("a stale handle was accepted")
        } catch {
            #expect(error == .staleHandle(old))
        }
        #expect(CrossCheck.sameAnswer(try solver.solve(), fresh, reference: fresh) == nil)
        // A handle is good once.
        let handle = try solver.addConstraint(LayoutConstraint(ItemAttribute("a", .width), .lessThanOrEqual, nil, constant: 500))
        try solver.removeConstraint(handle)
        #expect(throws: SolverError.staleHandle(handle)) { try solver.removeConstraint(handle) }
    }
}
