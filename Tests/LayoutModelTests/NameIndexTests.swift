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

    @Test("NameMemo answers only for a string it was given (or one with the same bits), with that string's value, through slot collisions")
    func memoNeverAnswersWrong() {
        var memo = NameMemo(lookups: 100_000)
        // Small names (their bits are their bytes) and names over 15 bytes
        // (their bits name their storage), 20,000 of them for 4,096 slots.
        let names = (0..<20_000).map { i in i % 2 == 0 ? "row\(i)_left" : "a_long_view_name_number_\(i)" }
        for (i, name) in names.enumerated() { memo.insert(name, i) }
        var answered = 0
        for (i, name) in names.enumerated() {
            if let value = memo[name] {
                #expect(value == i, "\(name)")
                answered += 1
            }
        }
        #expect(answered > 1_000 && answered < names.count)  // some kept, some replaced
        // A small memo (16 slots) stays exact too.
        var tiny = NameMemo(lookups: 1)
        for (i, name) in names.prefix(100).enumerated() { tiny.insert(name, i) }
        for (i, name) in names.prefix(100).enumerated() { if let value = tiny[name] { #expect(value == i) } }
        // A string never inserted, and an equal string made separately with
        // storage of its own: no answer, or (same bits) the right one.
        #expect(memo["row1_left"] == nil)
        let rebuilt = String(names[19_999].utf8.map { Character(UnicodeScalar($0)) })
        #expect(rebuilt == names[19_999])
        if let value = memo[rebuilt] { #expect(value == 19_999) }
        let small = "row" + "19998_left"
        if let value = memo[small] { #expect(value == 19_998) }
    }
}
