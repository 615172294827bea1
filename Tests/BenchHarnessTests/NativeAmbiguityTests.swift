import CassowaryLayout
import Foundation
import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving
import Testing

/// The native solver's ambiguity analysis (the optimal face read from the
/// final tableau) against the reference's per-variable LPs.
@Suite("Native ambiguity analysis")
struct NativeAmbiguityTests {
    static let corpus: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".layout") }.sorted().map { root.appendingPathComponent($0).path }
    }()

    func layout(_ text: String) throws -> Layout {
        let result = LayoutParser.parse(text, fileName: "t.layout")
        return try #require(result.layout, "\(result.renderedDiagnostics())")
    }

    @Test("the same ambiguous views as the reference on every corpus file and variant", arguments: corpus)
    func corpusAgreement(file: String) throws {
        let parsed = try #require(LayoutParser.parseFile(atPath: file).0.layout)
        for variant in parsed.allVariants.map(\.name) {
            let mine = try CassowaryLayoutSolver().load(parsed, variant: variant)
            let theirs = try GLPKLayoutSolver().load(parsed, variant: variant)
            guard theirs.status == .solved else { continue }
            #expect(mine.ambiguous != nil, "\(file) [\(variant)]")
            #expect(mine.ambiguous == theirs.ambiguous, "\(file) [\(variant)]")
        }
    }

    @Test("a zero-cost direction blocked by a degenerate row is not movement (the exact LP case)")
    func degenerateRows() throws {
        // width >= 0 and width <= 0: two slacks, one basic at 0 (degenerate).
        // Nothing costs anything, yet the width cannot move.
        let pinned = try layout("container 100 x 100\nviews a\na.left = super.left\na.top = super.top\na.height = 10\n"
                                + "a.width >= 0\na.width <= 0\n")
        #expect(try CassowaryLayoutSolver().load(pinned, variant: nil).ambiguous == [])
        // The same with a little room: now it moves (by 1), and the range says so.
        let loose = try layout("container 100 x 100\nviews a\na.left = super.left\na.top = super.top\na.height = 10\n"
                               + "a.width >= 0\na.width <= 1\n")
        let solver = CassowaryLayoutSolver()
        #expect(try solver.load(loose, variant: nil).ambiguous == ["a"])
        let ranges = solver.ambiguityRanges()
        #expect(ranges.count == 1 && ranges[0].component == .width && ranges[0].minimum == 0 && ranges[0].maximum == 1)
    }

    @Test("free through a parametric variable, unbounded; ranges match the reference's")
    func ranges() throws {
        let tie = try layout("container 200 x 50\nviews a b c\nintrinsic a 50 10\nintrinsic b 80 10\n"
                             + "a.leading = super.leading\nb.leading = a.trailing\nb.trailing = super.trailing\n"
                             + "a.top = super.top\nb.top = super.top\nc.width = 10\n")
        let mine = CassowaryLayoutSolver()
        let reference = GLPKLayoutSolver(analyseAmbiguity: true, computeRanges: true)
        #expect(try mine.load(tie, variant: nil).ambiguous == ["a", "b", "c"])
        #expect(try reference.load(tie, variant: nil).ambiguous == ["a", "b", "c"])
        let a = mine.ambiguityRanges(), b = reference.ranges
        #expect(a.map { "\($0.view).\($0.component)" } == b.map { "\($0.view).\($0.component)" })
        for (x, y) in zip(a, b) {
            #expect(x.minimum == y.minimum || abs(x.minimum - y.minimum) < 1e-6, "\(x.view).\(x.component)")
            #expect(x.maximum == y.maximum || abs(x.maximum - y.maximum) < 1e-6, "\(x.view).\(x.component)")
        }
        // c has no position at all: unbounded both ways.
        #expect(a.contains { $0.view == "c" && $0.component == .x && $0.minimum == -.infinity && $0.maximum == .infinity })
    }

    @Test("incremental: after resize, a variant switch, add and remove, the list equals a fresh solve's")
    func incremental() throws {
        let text = "container 320 x 100\nvariant wide 640 x 100 traits wide\nviews a b\nintrinsic a 50 10\nintrinsic b 80 10\n"
            + "a.leading = super.leading\nb.leading = a.trailing\nb.trailing = super.trailing\na.top = super.top\nb.top = super.top\n"
            + "when wide: a.width = 100\n"
        let parsed = try layout(text)
        let solver = CassowaryLayoutSolver()
        #expect(try solver.load(parsed, variant: nil).ambiguous == ["a", "b"])
        #expect(try solver.switchVariant(to: "wide").ambiguous == [])
        #expect(try solver.resize(to: ContainerSize(width: 700, height: 100)).ambiguous == [])
        #expect(try solver.switchVariant(to: nil).ambiguous == ["a", "b"])
        let handle = try solver.addConstraint(LayoutConstraint(ItemAttribute("b", .width), .equal, nil, constant: 90))
        #expect(try solver.solve().ambiguous == [])
        try solver.removeConstraint(handle)
        let after = try solver.solve()
        #expect(after.ambiguous == ["a", "b"])
        #expect(after.ambiguous == (try CassowaryLayoutSolver().load(parsed, variant: nil).ambiguous))
    }
}
