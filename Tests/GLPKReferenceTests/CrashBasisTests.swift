import Foundation
@testable import GLPKReference
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

/// The crash basis of a large first solve (CrashBasis.swift,
/// EqualityElimination.swift): the same answers as GLPK's own start, and the
/// elimination's algebra.
@Suite("The GLPK reference's crash basis")
struct CrashBasisTests {
    /// Where a solve with the crash basis (forced on, whatever the size)
    /// differs from one without it, every variant: status, each level's
    /// error, the frames of determined views, the ambiguity list and the free
    /// components.
    static func crashDifferences(_ layout: Layout) throws -> [String] {
        var differences: [String] = []
        for variant in layout.allVariants {
            let crashed = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
            crashed.crashPolicy = .always
            let plain = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
            plain.crashPolicy = .never
            let a: Solution, b: Solution
            do {
                a = try crashed.load(layout, variant: variant.name)
                b = try plain.load(layout, variant: variant.name)
            } catch {
                differences.append("[\(variant.name)] threw \(error)")
                continue
            }
            guard a.status == b.status else {
                differences.append("[\(variant.name)] status \(a.status) against \(b.status)")
                continue
            }
            guard a.status == .solved else { continue }
            for (x, y) in zip(a.levels, b.levels) where x.priority != y.priority || !Tolerance.crossCheck.isClose(x.error, y.error) {
                differences.append("[\(variant.name)] level \(x.priority): \(x.error) against \(y.error)")
            }
            if a.ambiguous != b.ambiguous {
                differences.append("[\(variant.name)] ambiguous \(a.ambiguous ?? []) against \(b.ambiguous ?? [])")
            }
            let free = Set(a.ambiguous ?? [])
            for (i, name) in a.viewNames.enumerated() where !free.contains(name) {
                for c in FrameComponent.allCases where !Tolerance.crossCheck.isClose(a.frames[i][c], b.frames[i][c]) {
                    differences.append("[\(variant.name)] \(name).\(c): \(a.frames[i][c]) against \(b.frames[i][c])")
                }
            }
            let rangesA = crashed.ranges.map { "\($0.view).\($0.component)" }, rangesB = plain.ranges.map { "\($0.view).\($0.component)" }
            if rangesA != rangesB { differences.append("[\(variant.name)] free components \(rangesA) against \(rangesB)") }
        }
        return differences
    }

    @Test("the crash basis gives the same answers as GLPK's own start: every corpus file", arguments: TestCorpus.files())
    func onCorpus(file: String) throws {
        let layout = try #require(LayoutParser.parseFile(atPath: file).result.layout)
        let differences = try Self.crashDifferences(layout)
        #expect(differences.isEmpty, "\(file): \(differences.prefix(5))")
    }

    @Test("the crash basis gives the same answers as GLPK's own start: random layouts of every cycle kind")
    func onRandomLayouts() throws {
        // LAYOUT_BENCH_CRASH_SEEDS raises the count for a campaign (the note's figures).
        let seeds = ProcessInfo.processInfo.environment["LAYOUT_BENCH_CRASH_SEEDS"].flatMap { UInt64($0) } ?? 400
        var compared = 0
        for seed in 1...seeds {
            let layout = RandomLayoutGenerator.layout(seed: seed, views: 6, kind: nil)
            let differences = try Self.crashDifferences(layout)
            #expect(differences.isEmpty, "seed \(seed): \(differences.prefix(5))")
            compared += 1
        }
        #expect(compared == Int(seeds))
    }

    @Test("large families: the same answers, and the basis shortcut still gives the per-variable LPs' lists")
    func families() throws {
        for layout in [try DecoratedGrid.layout(rows: 120, every: 10), try SelfSizingRows.layout(rows: 100),
                       try AlternatingGrid.layout(rows: 300)] {
            #expect(try Self.crashDifferences(layout).isEmpty)
            for variant in layout.allVariants {
                let fast = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
                fast.crashPolicy = .always
                let slow = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
                slow.crashPolicy = .always
                slow.basisShortcut = false
                let a = try fast.load(layout, variant: variant.name), b = try slow.load(layout, variant: variant.name)
                #expect(a.ambiguous == b.ambiguous)
                #expect(fast.ranges.map { "\($0.view).\($0.component)" } == slow.ranges.map { "\($0.view).\($0.component)" })
                let failed = a.check(layout.expectations(for: variant.name)).filter { $0.verdict != .passed }
                #expect(failed.isEmpty, "\(failed.prefix(3).map { $0.reason ?? "" })")
                // A resize re-solves warm from the lifted basis: the same as a fresh solve at that width.
                let resized = try fast.resize(to: ContainerSize(width: 414, height: nil))
                var wider = layout
                wider.container.width = 414
                let fresh = GLPKLayoutSolver()
                fresh.crashPolicy = .never
                let expected = try fresh.load(wider, variant: variant.name)
                #expect(resized.ambiguous == expected.ambiguous)
                let free = Set(expected.ambiguous ?? [])
                for (i, name) in resized.viewNames.enumerated() where !free.contains(name) {
                    for c in FrameComponent.allCases {
                        #expect(Tolerance.crossCheck.isClose(resized.frames[i][c], expected.frames[i][c]), "\(name).\(c)")
                    }
                }
            }
        }
    }

    @Test("a large grid's first solve pivots only in the reduced LPs: the full simplex finds the lifted bases optimal")
    func liftedBasesAreOptimal() throws {
        // R = 300: 2,406 rows, over the 2,000 where the crash starts.
        let layout = try DecoratedGrid.layout(rows: 300, every: 10)
        let solver = GLPKLayoutSolver()
        let solution = try solver.load(layout, variant: nil)
        #expect(solution.check(layout.expectations).allSatisfy { $0.verdict == .passed })
        let lp = try #require(solver.lp)
        let box = SendableLP(lp: lp)
        let (crash, total) = GLPKThread.shared.sync { (box.lp.crashIterations, box.lp.iterationCount()) }
        #expect(crash > 0)
        // Every level's full simplex started from an optimal basis: no pivot
        // of its own (the reduced LPs' pivots come before the first level).
        #expect(solver.statistics.levels.count == 3)
        #expect(solver.statistics.levels.map(\.iterations) == [0, 0, 0])
        #expect(total >= crash)
    }

    @Test("a plan GLPK cannot finish from is redone from GLPK's own start: the answer of the solve without a plan")
    func fallback() throws {
        // Hostile seed 1167: from the lifted basis of its second level GLPK's
        // primal simplex stops (code 5, a row of 1e9 beside multipliers of
        // 1e5); the campaign that found it filed "reference declined".
        let layout = RandomLayoutGenerator.layout(seed: 1167, views: 6, kind: .hostile)
        for variant in layout.allVariants {
            let crashed = GLPKLayoutSolver()
            crashed.crashPolicy = .always
            let plain = GLPKLayoutSolver()
            plain.crashPolicy = .never
            let a = try crashed.load(layout, variant: variant.name), b = try plain.load(layout, variant: variant.name)
            let box = SendableLP(lp: try #require(crashed.lp))
            #expect(GLPKThread.shared.sync { box.lp.crashFallbacks } == 1)
            #expect(a.status == b.status && a.frames == b.frames && a.ambiguous == b.ambiguous)
            #expect(a.levels.map(\.error) == b.levels.map(\.error))
        }
    }

    // MARK: The elimination

    func lp(_ text: String) throws -> LexicographicLP {
        let layout = try #require(LayoutParser.parse(text, fileName: "t.layout").layout)
        let validated = try layout.validated()
        let built: Result<LexicographicLP, GLPKError> = GLPKThread.shared.sync {
            do throws(GLPKError) { return .success(try LexicographicLP(layout: validated, rightToLeft: false)) } catch { return .failure(error) }
        }
        return try built.get()
    }

    func eliminate(_ lp: LexicographicLP, fillLimit: Int = 1_000) -> EqualityElimination? {
        let active = lp.rows.map { info -> Bool in
            if case .container(let c) = info.row.origin { return c != .height || lp.size.height != nil }
            return true
        }
        return EqualityElimination(rows: lp.rows, active: active, variableCount: lp.variableCount, fillLimit: fillLimit)
    }

    @Test("a chain of equalities is eliminated whole; each reduced row keeps its value on the pivot rows' solutions")
    func chain() throws {
        let lp = try lp("""
            container 100 x 50
            views a b
            a.left = super.left + 10
            a.top = super.top
            a.width = 20
            a.height = 10
            b.left = a.right + 8
            b.top = a.top
            b.width = a.width * 2
            b.height = a.height
            b.right <= super.right
            b.width = 30 @ 250
            """)
        let elimination = try #require(eliminate(lp))
        // 3 container rows (x, y, width; height 50 too) and 8 equalities pivot: 12 frame variables.
        #expect(elimination.pivots.count == 12)
        #expect(Set(elimination.pivots.map(\.column)).count == 12)
        // Left: the inequality and the soft row, both constants now:
        // b.right - super.right = 10 + 20 + 8 + 40 - 100 = -22; b.width - 30 = 10.
        #expect(elimination.reduced.count == 2)
        let inequality = try #require(elimination.reduced.first)
        #expect(inequality.columns.isEmpty)
        #expect(abs(inequality.constant - -22) < 1e-12)
        let soft = try #require(elimination.reduced.last)
        #expect(soft.columns.isEmpty)
        #expect(abs(soft.constant - 10) < 1e-12)
    }

    @Test("cancellation: two equal heights through top and bottom rows leave one degree of freedom, not a rounding entry")
    func cancellation() throws {
        let lp = try lp("""
            container 100 x 50
            views a b
            b.top = a.top
            b.bottom = a.bottom
            b.height = 7 @ 500
            a.height = 9 @ 250
            """)
        let elimination = try #require(eliminate(lp))
        // The two soft rows meet in one remaining variable (a height, or b's).
        let columns = elimination.reduced.map(\.columns)
        #expect(columns.count == 2 && columns.allSatisfy { $0.count == 1 } && columns[0] == columns[1])
        // And the crash gives the reference's answer: b.height = a.height = 7.
        let solver = GLPKLayoutSolver()
        solver.crashPolicy = .always
        let layout = try #require(LayoutParser.parse("container 100 x 50\nviews a b\na.left = super.left\na.top = super.top\na.width = 1\nb.left = super.left\nb.width = 1\nb.top = a.top\nb.bottom = a.bottom\nb.height = 7 @ 500\na.height = 9 @ 250\nexpect a = 0 0 1 7\nexpect b = 0 0 1 7", fileName: "t.layout").layout)
        let solution = try solver.load(layout, variant: nil)
        #expect(solution.check(layout.expectations).allSatisfy { $0.verdict == .passed })
    }

    @Test("redundant and contradictory equalities stay reduced rows; a contradiction falls back to GLPK's own start")
    func redundantAndContradictory() throws {
        let redundant = try lp("container 100 x 50\nviews a\na.width = 10\na.width = 10")
        let r = try #require(eliminate(redundant))
        #expect(r.reduced.count == 1 && r.reduced[0].columns.isEmpty && r.reduced[0].constant == 0)
        let contradictory = try lp("container 100 x 50\nviews a\na.width = 10\na.width = 20")
        let c = try #require(eliminate(contradictory))
        #expect(c.reduced.count == 1 && c.reduced[0].columns.isEmpty && abs(c.reduced[0].constant) == 10)
        // The solve still says unsatisfiable, with both constraints in the conflict.
        let layout = try #require(LayoutParser.parse("container 100 x 50\nviews a\na.width = 10\na.width = 20", fileName: "t.layout").layout)
        let solver = GLPKLayoutSolver()
        solver.crashPolicy = .always
        let solution = try solver.load(layout, variant: nil)
        #expect(solution.status == .unsatisfiable)
        #expect(solution.conflict.count == 2)
    }

    @Test("fill-in past the limit gives no elimination (the caller presolves instead)")
    func fillLimit() throws {
        let lp = try lp("container 100 x 50\nviews a b\na.left = super.left\nb.left = a.right + 8\na.width = 20")
        #expect(eliminate(lp, fillLimit: 1) == nil)
        #expect(eliminate(lp, fillLimit: 1_000) != nil)
    }
}
