import LayoutModel
import Testing

@Suite("SourceLocation")
struct SourceLocationTests {
    @Test("the file name round-trips, and order is by name, not by when the name was first seen")
    func fileNames() {
        let late = SourceLocation(file: "zz-first-interned.layout", line: 1, column: 1)
        let early = SourceLocation(file: "aa-second-interned.layout", line: 9, column: 9)
        #expect(late.file == "zz-first-interned.layout")
        #expect(early < late)
        var moved = early
        moved.file = "zz-first-interned.layout"
        #expect(moved.description == "zz-first-interned.layout:9:9")
        #expect(moved != early && late < moved)
        #expect(SourceLocation(file: "x", line: 2, column: 3) == SourceLocation(file: String(["x"]), line: 2, column: 3))
    }

    @Test("lines and columns beyond Int32 are clamped, never trapped on")
    func clamping() {
        let far = SourceLocation(file: "f", line: Int.max, column: -5)
        #expect(far.line == Int(Int32.max) && far.column == -5)
    }
}
