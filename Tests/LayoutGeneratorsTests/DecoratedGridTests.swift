import LayoutGenerators
import LayoutModel
import Testing

@Suite("The decorated grid family")
struct DecoratedGridTests {
    @Test("the grid's constraints plus 9 per decorated row (rows 1, 1 + every, ...), 2 views each",
          arguments: [(1, 50), (50, 50), (51, 50), (120, 10), (7, 1)])
    func counts(rows: Int, every: Int) throws {
        let layout = try DecoratedGrid.layout(rows: rows, every: every)
        let decorated = (rows - 1) / every + 1
        #expect(layout.constraints.count == 5 + 8 * rows + 1 + 9 * decorated)
        #expect(layout.views.count == 1 + 2 * rows + 2 * decorated)
        #expect(!layout.validate().containsErrors)
        // Every badge, and only the badges, is expected ambiguous.
        let ambiguous = layout.expectations.compactMap { e -> [String]? in
            if case .ambiguous(let views) = e.kind { return views } else { return nil }
        }
        #expect(ambiguous == [DecoratedGrid.decoratedRows(rows: rows, every: every).map { "badge\($0)" }])
    }

    @Test("a note sits at its row's right view, as wide as fits up to 300")
    func noteFrames() throws {
        // W = 340: s = 100; row 1's right view at x = 124 (200 wide), row 2's at 224 (100 wide).
        let layout = try DecoratedGrid.layout(rows: 2, width: 340, every: 1)
        let frames = Dictionary(uniqueKeysWithValues: layout.expectations.compactMap { e -> (String, Frame)? in
            if case .frame(let view, let frame) = e.kind { return (view, frame) } else { return nil }
        })
        #expect(frames["note1"] == Frame(x: 124, y: 174, width: 200, height: 20))
        #expect(frames["note2"] == Frame(x: 224, y: 282, width: 100, height: 20))
        // Wide enough for 300: W = 1000, s = 320, row 1's right view at 344; 1000 - 16 - 344 = 640 > 300.
        let wide = try DecoratedGrid.layout(rows: 1, width: 1000, every: 1)
        #expect(wide.expectations.contains { $0.kind == .frame(view: "note1", Frame(x: 344, y: 174, width: 300, height: 20)) })
        #expect(frames["badge1"] == nil)
    }

    @Test("bad arguments are typed errors")
    func badArguments() {
        #expect(throws: GeneratorError.self) { try DecoratedGrid.layout(rows: 0) }
        #expect(throws: GeneratorError.self) { try DecoratedGrid.layout(rows: 1, every: 0) }
        #expect(throws: GeneratorError.self) { try DecoratedGrid.layout(rows: 1, width: 40) }
        #expect(throws: GeneratorError.self) { try DecoratedGrid.layout(rows: 1, width: .nan) }
    }
}
