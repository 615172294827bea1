import LayoutModel
import Testing

@Suite("NameIndex")
struct NameIndexTests {
    @Test("first positions, as a dictionary of first occurrences gives them, through many rehashes")
    func matchesDictionary() {
        var names: [String] = []
        for i in 0..<5_000 { names.append("row\(i % 3_000)_\(i % 2 == 0 ? "left" : "right")") }
        let index = NameIndex(names)
        var model: [String: Int] = [:]
        for (i, name) in names.enumerated() where model[name] == nil { model[name] = i }
        #expect(index.count == names.count)
        for name in Set(names) { #expect(index[name] == model[name]) }
        for probe in ["", "row", "row1_up", "Row1_left", "row3000_left", "super"] { #expect(index[probe] == nil) }
    }

    @Test("names equal as strings but made separately resolve; append returns the first position")
    func separatelyMadeStrings() {
        var index = NameIndex()
        let a = String(["v", "1"])
        #expect(index.append(a) == 0)
        #expect(index.append("w") == 1)
        #expect(index.append(String("xv1".dropFirst())) == 0)
        #expect(index["v1"] == 0)
        #expect(index.contains("w") && !index.contains("v"))
        // Non-ASCII names are compared by their bytes.
        index.append("vue_\u{E9}")
        #expect(index["vue_\u{E9}"] == 3)
    }
}
