@testable import BenchHarness
import BenchSchema
import ExternalSolvers
import Foundation
import LayoutFormat
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

/// `run --metamorphic`: the transformations, the comparison, and a solver
/// whose answer depends on the order of its rows caught by it.
@Suite("Metamorphic")
struct MetamorphicTests {
    static let text = """
        container 375 x 667
        views a b
        a.leading = super.leadingMargin
        a.top = super.topMargin + 20
        a.width = 100
        a.height = 40 @ 750
        a.height >= 44 @ 500
        b.leading = a.trailing + 8
        b.trailing = super.trailingMargin
        b.top = a.top
        b.height = a.height
        """

    static func layout(_ text: String = text) throws -> Layout {
        try #require(LayoutParser.parse(text).layout)
    }

    @Test("the transformations: two orders, renamed views, lengths doubled, mirrored (leading/trailing only), a duplicate, relabelled priorities")
    func transforms() throws {
        let layout = try Self.layout()
        let all = Metamorphic.transforms(of: layout)
        #expect(all.map(\.name) == ["metamorphic/order-1", "metamorphic/order-2", "metamorphic/rename", "metamorphic/scale-2",
                                    "metamorphic/mirror", "metamorphic/duplicate", "metamorphic/relabel"])
        for t in all { #expect((try? t.layout.validated()) != nil, "\(t.name) is not a valid layout") }
        #expect(Set(all[0].layout.constraints) == Set(layout.constraints) && all[0].layout.constraints != layout.constraints)
        let rename = all[2]
        #expect(Set(rename.renamed.values) == ["renamed1", "renamed2"] && !rename.layout.constraints.contains { $0.first.item == "a" })
        let scale = all[3]
        #expect(scale.layout.container.width == 750 && scale.layout.constraints.map(\.constant) == layout.constraints.map { $0.constant * 2 })
        #expect(scale.expected(Frame(x: 1, y: 2, width: 3, height: 4)) == Frame(x: 2, y: 4, width: 6, height: 8))
        #expect(all[4].expected(Frame(x: 16, y: 0, width: 100, height: 44)) == Frame(x: 259, y: 0, width: 100, height: 44))
        #expect(all[5].layout.constraints.count == layout.constraints.count + 1)
        let relabelled = all[6].layout.constraints.map(\.priority.rawValue)
        #expect(relabelled == [1000, 1000, 1000, 999, 1, 1000, 1000, 1000, 1000])
        // left/right: no mirror (its meaning would not mirror with the direction).
        let absolute = try Self.layout(Self.text.replacingOccurrences(of: "b.trailing = super.trailingMargin", with: "b.right = super.right"))
        #expect(!Metamorphic.transforms(of: absolute).contains { $0.relation == .mirror })
    }

    @Test("every relation holds for the built-in solvers on the example")
    func builtInsHold() throws {
        let layout = try Self.layout()
        let benchCase = BenchCase(name: "m", source: "test", layout: layout, text: Array(Self.text.utf8))
        var settings = RunSettings(solvers: [SolverSpec(name: "cassowary", kind: .cassowary), SolverSpec(name: "glpk", kind: .glpk)])
        settings.repetitions = 1
        settings.timeBudget = 0
        settings.metamorphic = true
        let result = try #require(Runner(settings: settings).run([benchCase]).first)
        let meta = result.results.filter { $0.variant == "metamorphic" }
        #expect(meta.map(\.solver) == ["cassowary", "glpk"])
        for r in meta { #expect(r.verdict == .pass, "\(r.solver): \(r.reasons)") }
    }

    @Test("a changed frame is named with its relation and pair; an undetermined view is not compared")
    func difference() throws {
        let layout = try Self.layout()
        let scale = try #require(Metamorphic.transforms(of: layout).first { $0.relation == .scale })
        let original = Solution(variant: "default", status: .solved, viewNames: ["a", "b"],
                                frames: [Frame(x: 16, y: 28, width: 100, height: 40), Frame(x: 124, y: 28, width: 235, height: 40)],
                                levels: [], ambiguous: nil, conflict: [])
        var doubled = original
        doubled.frames = original.frames.map(scale.expected)
        #expect(Metamorphic.difference(original: original, transformed: doubled, scale, undetermined: []) == nil)
        doubled.frames[1].width += 1
        #expect(Metamorphic.difference(original: original, transformed: doubled, scale, undetermined: [])
                == "not scale-invariant: b.width is 470 by default (doubled), 471 in metamorphic/scale-2")
        #expect(Metamorphic.difference(original: original, transformed: doubled, scale, undetermined: ["b"]) == nil)
        var unsatisfiable = doubled
        unsatisfiable.status = .unsatisfiable
        #expect(Metamorphic.difference(original: original, transformed: unsatisfiable, scale, undetermined: [])?
            .hasPrefix("not scale-invariant: default is solved") == true)
    }

    @Test("an adapter whose answer depends on the order of its rows is order-dependent, and only that")
    func orderDependentAdapter() throws {
        let highs = TestCorpus.root.appendingPathComponent("scripts/solvers/highs.py").path
        let fixtures = TestCorpus.root.appendingPathComponent("Tests/BenchHarnessTests/Fixtures").path
        let layout = try Self.layout()
        let benchCase = BenchCase(name: "m", source: "test", layout: layout, text: Array(Self.text.utf8))
        var settings = RunSettings(solvers: [SolverSpec(name: "glpk", kind: .glpk),
                                             SolverSpec(name: "shuffled", kind: .external(command: ["python3", "\(fixtures)/wrong_answers.py",
                                                                                                    "order-dependent", "python3", highs],
                                                                                          workingDirectory: nil))])
        settings.repetitions = 1
        settings.timeBudget = 0
        settings.metamorphic = true
        let result = try #require(Runner(settings: settings).run([benchCase]).first)
        let plain = try #require(result.results.first { $0.solver == "shuffled" && $0.variant == "default" })
        #expect(plain.verdict == .pass, "\(plain.reasons)")  // the written order is the one it gets right
        let meta = try #require(result.results.first { $0.solver == "shuffled" && $0.variant == "metamorphic" })
        #expect(meta.verdict == .metamorphic)
        #expect(meta.reasons.contains { $0.hasPrefix("order-dependent: ") && $0.contains("metamorphic/order-") }, "\(meta.reasons)")
        // Renaming, doubling, mirroring, a duplicate at the end and relabelling keep the first row first.
        #expect(meta.reasons.allSatisfy { $0.hasPrefix("order-dependent: ") }, "\(meta.reasons)")
    }
}
