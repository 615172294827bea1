import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutTestSupport
import Testing

@Suite("The alternating grid family")
struct AlternatingGridTests {
    @Test("5 + 8R + 1 constraints and 1 + 2R views", arguments: [1, 2, 3, 10, 1000])
    func counts(rows: Int) throws {
        let layout = try AlternatingGrid.layout(rows: rows)
        #expect(layout.constraints.count == 5 + 8 * rows + 1)
        #expect(layout.views.count == 1 + 2 * rows)
        #expect(layout.container == ContainerSize(width: 375, height: nil))
        #expect(!layout.validate().containsErrors)
    }

    @Test("squares alternate sides: left in odd rows, right in even rows")
    func alternation() throws {
        let layout = try AlternatingGrid.layout(rows: 2)
        func ratio(_ view: String) -> Double? {
            layout.constraints.first { $0.first == ItemAttribute(view, .width) && $0.second == ItemAttribute(view, .height) }?
                .multiplier
        }
        #expect(ratio("row1_left") == 1 && ratio("row1_right") == 2)
        #expect(ratio("row2_left") == 2 && ratio("row2_right") == 1)
    }

    @Test("expected frames follow the closed form: square side (W - 40) / 3")
    func expectedFrames() throws {
        let layout = try AlternatingGrid.layout(rows: 2, width: 340)
        // s = 100; row 1 at y = 16 + 150 + 8 = 174; row 2 at 174 + 108 = 282; super height 282 + 100 + 16 = 398.
        let frames = Dictionary(uniqueKeysWithValues: layout.expectations.compactMap { e -> (String, Frame)? in
            if case .frame(let view, let frame) = e.kind { return (view, frame) } else { return nil }
        })
        #expect(frames["super"] == Frame(x: 0, y: 0, width: 340, height: 398))
        #expect(frames["top"] == Frame(x: 16, y: 16, width: 308, height: 150))
        #expect(frames["row1_left"] == Frame(x: 16, y: 174, width: 100, height: 100))
        #expect(frames["row1_right"] == Frame(x: 124, y: 174, width: 200, height: 100))
        #expect(frames["row2_left"] == Frame(x: 16, y: 282, width: 200, height: 100))
        #expect(frames["row2_right"] == Frame(x: 224, y: 282, width: 100, height: 100))
    }

    @Test("the committed Corpus/generated files are what the generator makes")
    func committedFilesAreCurrent() throws {
        for rows in [1, 3, 10] {
            let path = TestCorpus.path("generated/alternating-grid-r\(rows).layout")
            let parsed = try #require(LayoutParser.parseFile(atPath: path).result.layout)
            #expect(parsed == (try AlternatingGrid.layout(rows: rows)), "\(path) is stale: run scripts/generate-corpus")
        }
    }

    @Test("bad arguments are typed errors")
    func badArguments() {
        #expect(throws: GeneratorError.self) { try AlternatingGrid.layout(rows: 0) }
        #expect(throws: GeneratorError.self) { try AlternatingGrid.layout(rows: 1, width: .infinity) }
        #expect(throws: GeneratorError.self) { try AlternatingGrid.layout(rows: 1, width: -5) }
    }
}
