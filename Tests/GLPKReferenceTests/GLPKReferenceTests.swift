import Foundation
import CassowaryLayout
import GLPKReference
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

@Suite("The GLPK reference")
struct GLPKReferenceTests {
    func parse(_ text: String) throws -> Layout {
        let result = LayoutParser.parse(text, fileName: "t.layout")
        guard let layout = result.layout else {
            Issue.record("\(result.renderedDiagnostics())")
            throw CancellationError()
        }
        return layout
    }

    static func corpusFiles() -> [String] { TestCorpus.files() }

    @Test("every corpus file's expectations hold in every variant, ambiguity included", arguments: corpusFiles())
    func corpus(file: String) throws {
        let layout = try #require(LayoutParser.parseFile(atPath: file).result.layout)
        let solver = GLPKLayoutSolver()
        for (i, variant) in layout.allVariants.enumerated() {
            let solution = i == 0 ? try solver.load(layout, variant: variant.name) : try solver.switchVariant(to: variant.name)
            for result in solution.check(layout.expectations(for: variant.name)) {
                #expect(result.verdict == .passed, "\(file) \(variant.name): \(result.reason ?? "unsupported")")
            }
        }
    }

    @Test("a textbook LP: max 3x + 5y s.t. x <= 4, 2y <= 12, 3x + 2y <= 18 has x = 2, y = 6")
    func textbook() throws {
        // x = a.width, y = a.height; maximising 3x + 5y is minimising the error
        // of three copies of x >= 1000 and five of y >= 1000 at one level.
        var lines = ["container 100 x 100", "views a", "a.left = super.left", "a.top = super.top",
                     "a.width <= 4", "a.height <= 6", "a.width <= a.height * -0.6666666666666666 + 6"]
        lines += Array(repeating: "a.width >= 1000 @ 500", count: 3) + Array(repeating: "a.height >= 1000 @ 500", count: 5)
        let layout = try parse(lines.joined(separator: "\n"))
        let solver = GLPKLayoutSolver()
        let solution = try solver.load(layout, variant: nil)
        let a = try #require(solution.frame(of: "a"))
        #expect(abs(a.width - 2) < 1e-7 && abs(a.height - 6) < 1e-7)
        // Optimum of the level: 3 (1000 - 2) + 5 (1000 - 6) = 7964.
        #expect(abs((solution.levels.first?.error ?? 0) - 7964) < 1e-6)
        #expect(abs((solver.statistics.levels.first?.optimum ?? 0) - 7964) < 1e-6)
        #expect(solution.ambiguous == [])
    }

    @Test("three levels solved in order, each optimum fixed before the next")
    func levels() throws {
        let layout = try parse("""
            container 100 x 100
            views a
            a.left = super.left
            a.top = super.top
            a.height = 10
            a.width <= 50
            a.width = 80 @ 750
            a.width = 20 @ 500
            a.width >= 60 @ 250
            """)
        let solver = GLPKLayoutSolver()
        let solution = try solver.load(layout, variant: nil)
        // 750 wants 80, capped at 50 (error 30); 500 then cannot move it (error 30); 250 error 10.
        let close = Tolerance.crossCheck
        #expect(close.isClose(solution.frame(of: "a")?.width ?? .nan, 50))
        #expect(zip(solution.levels.map(\.error), [30.0, 30, 10]).allSatisfy { close.isClose($0, $1) })
        #expect(solver.statistics.levels.map(\.priority) == [Priority(750), Priority(500), Priority(250)])
    }

    @Test("lexicographic differs from the weighted approximation, and the reference knows which is which")
    func weightedDiverges() throws {
        // One wish at 500 (weight 1e3 in kiwi's scheme), 1001 at 250 (weight 1).
        var lines = ["container 100 x 100", "views a", "a.left = super.left", "a.top = super.top", "a.height = 1",
                     "a.width = 0 @ 500"]
        lines += Array(repeating: "a.width = 10 @ 250", count: 1001)
        let layout = try parse(lines.joined(separator: "\n"))
        let lexicographic = try GLPKLayoutSolver().load(layout, variant: nil)
        let weighted = try GLPKLayoutSolver(weights: [Priority(500): 1e3, Priority(250): 1]).load(layout, variant: nil)
        // Within the documented level slack (1e-9): the 250 level may pull that far.
        #expect(abs(lexicographic.frame(of: "a")?.width ?? .nan) < 1e-8)
        #expect(abs((weighted.frame(of: "a")?.width ?? 0) - 10) < 1e-9)  // 1000 |x| < 1001 |x - 10| only at x = 10
        #expect(weighted.ambiguous == nil)
        let cassowary = try CassowaryLayoutSolver().load(layout, variant: nil)
        #expect(cassowary.frame(of: "a")?.width == 0)
    }

    @Test("unsatisfiable: exactly the minimal conflict, not every suspect")
    func minimalConflict() throws {
        let layout = try parse("""
            container 300 x 200
            views a b
            a.left = super.left + 10 # a-left
            a.width = 200 # a-width
            b.left = a.right + 20 # gap
            b.width = 100 # b-width
            b.right <= super.right # b-inside
            a.top = super.top # a-top
            b.top = a.top # b-top
            a.height = 10 # a-height
            b.height = a.height # b-height
            expect unsatisfiable
            """)
        let solution = try GLPKLayoutSolver().load(layout, variant: nil)
        #expect(solution.status == .unsatisfiable)
        // 10 + 200 + 20 + 100 = 330 > 300: the horizontal chain and the width; nothing vertical.
        #expect(solution.conflict.map(\.name) == ["container width", "a-left", "a-width", "gap", "b-width", "b-inside"])
        #expect(solution.check(layout.expectations).allSatisfy { $0.verdict == .passed })
        // A wider container makes it solvable, incrementally.
        let solver = GLPKLayoutSolver()
        _ = try solver.load(layout, variant: nil)
        #expect(try solver.resize(to: ContainerSize(width: 330, height: 200)).status == .solved)
        #expect(try solver.resize(to: ContainerSize(width: 329, height: 200)).status == .unsatisfiable)
    }

    @Test("ambiguous: exactly the free views, with their ranges")
    func ambiguity() throws {
        let layout = try parse("""
            container 300 x 200
            views a b c d
            a.left = super.left + 10
            a.top = super.top
            a.width = 100
            a.height = 50
            b.left >= a.right + 10
            b.right <= super.right
            b.top = a.top
            b.width = 50
            b.height = 50
            c.width = 20
            c.height = 20
            c.left = super.left
            d.left = super.left
            d.top = super.top
            d.width = 5
            d.height = 5 @ low
            """)
        let solver = GLPKLayoutSolver(computeRanges: true)
        let solution = try solver.load(layout, variant: nil)
        // b slides between a and the right edge; c has no vertical position; d's height is pinned at low.
        #expect(solution.ambiguous == ["b", "c"])
        let ranges = solver.ranges.map { "\($0.view).\($0.component) [\($0.minimum), \($0.maximum)]" }
        #expect(ranges == ["b.x [120.0, 250.0]", "c.y [-inf, inf]"])
    }

    @Test("inputs that would make GLPK abort are handled in Swift: no constraints, views used by nothing")
    func degenerateInputs() throws {
        let empty = try GLPKLayoutSolver().load(try parse("container 10 x 10"), variant: nil)
        #expect(empty.status == .solved && empty.ambiguous == [])
        let unused = try GLPKLayoutSolver().load(try parse("container 10 x auto\nviews ghost"), variant: nil)
        #expect(unused.ambiguous == ["super", "ghost"])
        // A model built in code with a NaN never reaches GLPK.
        var bad = Layout(container: ContainerSize(width: 10, height: 10), views: [ViewDeclaration(name: "a")])
        bad.constraints = [LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: .nan)]
        #expect(throws: SolverError.self) { try GLPKLayoutSolver().load(bad, variant: nil) }
        #expect(throws: SolverError.notLoaded) { try GLPKLayoutSolver().resize(to: ContainerSize(width: 1, height: 1)) }
    }

    @Test("resize and variant switches re-solve from the previous basis and match fresh solves")
    func incremental() throws {
        let layout = try AlternatingGrid.layout(rows: 5)
        let solver = GLPKLayoutSolver(analyseAmbiguity: false)
        _ = try solver.load(layout, variant: nil)
        for width in [320.0, 414, 768] {
            let resized = try solver.resize(to: ContainerSize(width: width, height: nil))
            var fresh = layout
            fresh.container.width = width
            let expected = try GLPKLayoutSolver(analyseAmbiguity: false).load(fresh, variant: nil)
            for (x, y) in zip(resized.frames, expected.frames) {
                for c in FrameComponent.allCases { #expect(Tolerance.crossCheck.isClose(x[c], y[c])) }
            }
        }
    }

    @Test("the reference and the native solver agree on every corpus file", arguments: corpusFiles())
    func agreesWithCassowary(file: String) throws {
        let layout = try #require(LayoutParser.parseFile(atPath: file).result.layout)
        for variant in layout.allVariants {
            let reference = try GLPKLayoutSolver().load(layout, variant: variant.name)
            let native = try CassowaryLayoutSolver().load(layout, variant: variant.name)
            #expect(reference.status == native.status)
            // Frames of an unsatisfiable variant are each solver's best effort: not compared.
            guard reference.status == .solved else { continue }
            for (level, other) in zip(reference.levels, native.levels) {
                #expect(level.priority == other.priority)
                #expect(Tolerance.crossCheck.isClose(level.error, other.error), "\(file) \(variant.name) \(level.priority)")
            }
            let free = Set(reference.ambiguous ?? [])
            for (i, name) in reference.viewNames.enumerated() where !free.contains(name) {
                for c in FrameComponent.allCases {
                    #expect(Tolerance(absolute: 1e-6, relative: 1e-9).isClose(reference.frames[i][c], native.frames[i][c]),
                            "\(file) \(variant.name) \(name).\(c)")
                }
            }
        }
    }

    @Test("views in no active row are free and unbounded without LPs (5,000 declared views, no constraints)")
    func unconstrainedViews() throws {
        let views = (0..<5_000).map { ViewDeclaration(name: "v\($0)") }
        var layout = Layout(container: ContainerSize(width: 375, height: 812), views: views)
        layout.constraints = [LayoutConstraint(ItemAttribute("v0", .width), .equal, nil, constant: 10)]
        let solver = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
        let solution = try solver.load(layout, variant: nil)
        #expect(solution.ambiguous == views.map(\.name))
        // v0's width is constrained and determined; its position is not.
        #expect(!solver.ranges.contains { $0.view == "v0" && $0.component == .width })
        #expect(solver.ranges.filter { $0.view == "v1" }.allSatisfy { $0.minimum == -.infinity && $0.maximum == .infinity })
        #expect(solver.ranges.count == 4 * 5_000 - 1)
    }

    /// The ambiguity lists with and without the basis shortcut, every variant;
    /// with `components`, also which components are free.
    static func shortcutDifferences(_ layout: Layout, components: Bool = true) throws -> [String] {
        var differences: [String] = []
        for variant in layout.allVariants {
            let fast = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
            let slow = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
            slow.basisShortcut = false
            let a: Solution, b: Solution
            do {
                a = try fast.load(layout, variant: variant.name)
                b = try slow.load(layout, variant: variant.name)
            } catch {
                continue  // numerical trouble declines both ways; not an ambiguity question
            }
            if a.ambiguous != b.ambiguous {
                differences.append("[\(variant.name)] shortcut \(a.ambiguous ?? []), per-variable \(b.ambiguous ?? [])")
            }
            // The ranges of the free components too (what --explain prints).
            let fastRanges = fast.ranges.map { "\($0.view).\($0.component)" }, slowRanges = slow.ranges.map { "\($0.view).\($0.component)" }
            if components && fastRanges != slowRanges { differences.append("[\(variant.name)] free components differ") }
        }
        return differences
    }

    @Test("the basis shortcut gives exactly the per-variable LPs' ambiguity lists: every corpus file", arguments: corpusFiles())
    func shortcutOnCorpus(file: String) throws {
        let layout = try #require(LayoutParser.parseFile(atPath: file).result.layout)
        let differences = try Self.shortcutDifferences(layout)
        #expect(differences.isEmpty, "\(file): \(differences)")
    }

    /// Hostile layouts are compared by view: on 2 of the first 400 seeds
    /// (218 and 359) one component differs, where the per-variable LPs see
    /// the face thickened by a level's slack over a multiplier of 1e-7
    /// (seed 218: v3.x in [492.92, 492.94], 0.02 wide) and the shortcut
    /// calls it determined; z3 (exact) says determined, at 493.0000000044.
    @Test("the basis shortcut gives exactly the per-variable LPs' ambiguity lists: random layouts of every kind",
          arguments: [RandomLayoutGenerator.Kind?.none, .hostile])
    func shortcutOnRandomLayouts(kind: RandomLayoutGenerator.Kind?) throws {
        // LAYOUT_BENCH_SHORTCUT_SEEDS raises the count for a campaign (the note's figures).
        let seeds = ProcessInfo.processInfo.environment["LAYOUT_BENCH_SHORTCUT_SEEDS"].flatMap { UInt64($0) } ?? 400
        var compared = 0
        for seed in 1...seeds {
            let layout = RandomLayoutGenerator.layout(seed: seed, views: 6, kind: kind)
            let differences = try Self.shortcutDifferences(layout, components: kind != .hostile)
            #expect(differences.isEmpty, "seed \(seed) \(kind?.rawValue ?? "cycle"): \(differences)")
            compared += 1
        }
        #expect(compared == Int(seeds))
    }

    @Test("decorated grid (R = 120, every 10th row): both solvers meet every expect line, the reference lists exactly the badges")
    func decoratedGrid() throws {
        let layout = try DecoratedGrid.layout(rows: 120, every: 10)
        for solver in [GLPKLayoutSolver() as any LayoutSolver, CassowaryLayoutSolver()] {
            let solution = try solver.load(layout, variant: nil)
            let failed = solution.check(layout.expectations).filter { $0.verdict != .passed }
            #expect(failed.isEmpty, "\(type(of: solver)): \(failed.prefix(3).map { $0.reason ?? "" })")
        }
        #expect(try Self.shortcutDifferences(layout).isEmpty)
    }

    @Test("self-sizing rows, R = 100 (a degenerate vertex at every content row): the same lists")
    func shortcutSelfSizing() throws {
        let layout = try SelfSizingRows.layout(rows: 100)
        #expect(try Self.shortcutDifferences(layout).isEmpty)
    }
}
