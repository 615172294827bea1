import LayoutFormat
import LayoutModel
import LayoutTestSupport
import Testing

/// The fast paths of the front end (issue 16) give exactly the answers of the
/// plain ones they replaced.
@Suite("Front end fast paths")
struct FrontEndPathTests {
    /// The constant of `a.width = LITERAL`, as parsed.
    func parsedConstant(_ literal: String) -> Double? {
        let result = LayoutParser.parse("container 100 x 100\nviews a\na.width = \(literal)\n", fileName: "n.layout")
        return result.layout?.constraints.first?.constant
    }

    @Test("resized(to:) gives what lowering at that size gives: one owner of the container rows")
    func resizedIsLoweringAtTheSize() throws {
        let text = """
        container 375 x 812
        variant wide 812 x 375
        variant tall 375 x auto
        views a b
        a.left = super.left + 8
        a.width = super.width * 0.5
        b.top = a.bottom + 4 @ 750
        b.height = super.height - 20 @ 500
        a.top = super.top
        """
        let layout = try #require(LayoutParser.parse(text, fileName: "r.layout").layout).validated()
        let names: [String?] = [nil, "wide", "tall"]
        for from in names {
            let system = try layout.lowered(variant: from)
            for to in names {
                let target = try layout.lowered(variant: to)
                let resized = system.resized(to: target.size)
                #expect(resized.constraints == target.constraints, "\(from ?? "default") -> \(to ?? "default")")
                #expect(resized.size == target.size)
            }
        }
    }

    @Test("decimal literals convert exactly as Double(String) does: 20,000 seeded literals, all shapes")
    func decimalConversion() throws {
        var rng = SplitMix64(seed: 16)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(rng.int(0...9))) }) }
        var checked = 0
        for _ in 0..<20_000 {
            var literal = digits(rng.int(1...(rng.int(0...3) == 0 ? 25 : 8)))
            if rng.int(0...1) == 0 { literal += "." + digits(rng.int(1...(rng.int(0...3) == 0 ? 25 : 6))) }
            if rng.int(0...3) == 0 {
                literal += (rng.int(0...1) == 0 ? "e" : "E") + ["", "+", "-"][rng.int(0...2)] + String(rng.int(0...30))
            }
            guard let expected = Double(literal), expected.isFinite, expected <= 1e9 else { continue }
            let parsed = try #require(parsedConstant(literal), "\(literal) did not parse")
            #expect(parsed.bitPattern == expected.bitPattern, "\(literal): parsed \(parsed), Double(String) \(expected)")
            checked += 1
        }
        #expect(checked > 10_000)
        // The edges of the fast path (within the accepted range, |x| <= 1e9): a
        // mantissa of 2^53 and 2^53 + 1, 19 and 20 significant digits, 10^-22
        // and 10^-23, leading and trailing zeros.
        for literal in ["0.9007199254740992", "0.9007199254740993", "123456789.0123456789", "123456789.01234567891",
                        "0.0000000000000000000001", "1e-22", "1e-23", "12e-23", "1e9", "0001.2500", "0.1",
                        "0.30000000000000004", ".5", "123456.7890123456789012", "0", "0.0", "00000"] {
            let expected = try #require(Double(literal))
            let parsed = try #require(parsedConstant(literal), "\(literal) did not parse")
            #expect(parsed.bitPattern == expected.bitPattern, "\(literal): parsed \(parsed), Double(String) \(expected)")
        }
    }

    @Test("names interned across lines: many distinct names, long names, names that differ in one byte")
    func internedNames() throws {
        // More names than the table's first size (1,024 slots), so it grows.
        var text = "container 400 x auto\n"
        let names = (0..<3000).map { "view_\($0)_with_a_name_longer_than_sixteen_bytes" } + ["a", "b", "ab", "ba"]
        for chunk in stride(from: 0, to: names.count, by: 50) {
            text += "views " + names[chunk..<min(names.count, chunk + 50)].joined(separator: " ") + "\n"
        }
        for (i, name) in names.enumerated() {
            text += "\(name).left = super.left + \(i)\n\(name).top = super.top\n\(name).width = 1\n\(name).height = 1\n"
        }
        let result = LayoutParser.parse(text, fileName: "names.layout")
        let layout = try #require(result.layout, "\(result.renderedDiagnostics())")
        #expect(layout.views.map(\.name) == names)
        #expect(layout.constraints.count == 4 * names.count)
        for (i, name) in names.enumerated() {
            #expect(layout.constraints[4 * i].first.item == name)
            #expect(layout.constraints[4 * i].constant == Double(i))
        }
    }

    @Test("warnings beyond the rendering limit are counted in one note; errors are all rendered")
    func warningLimit() throws {
        var text = "container 100 x auto\nviews a\na.left = super.left\na.top = super.top\na.width = 1\na.height = 1\n"
        for _ in 0..<45 { text += "when nope: a.width >= 0\n" }  // a trait no variant has: a warning each
        let result = LayoutParser.parse(text, fileName: "w.layout")
        #expect(result.layout != nil)
        #expect(result.diagnostics.filter { $0.severity == .warning }.count == 45)
        let rendered = result.renderedDiagnostics()
        #expect(rendered.components(separatedBy: ": warning: ").count - 1 == ParseResult.renderedWarningLimit)
        #expect(rendered.contains("w.layout: note: 25 more warnings not shown (45 in all; at most 20 are shown per file)"))
    }

    @Test("numbers beyond the precise range: one line per file, with their count, the largest and their lines")
    func preciseRangeSummary() throws {
        var text = "container 100 x auto\nviews a\na.left = super.left\na.top = super.top\na.width = 1\na.height = 1\n"
        for k in 0..<45 { text += "expect a = 0 \(20_000_000 + k) 1 1\n" }  // y beyond the precise range: a warning each
        let result = LayoutParser.parse(text, fileName: "w.layout")
        #expect(result.diagnostics.filter { $0.severity == .warning }.count == 45)
        let rendered = result.renderedDiagnostics()
        #expect(rendered.split(separator: "\n").count == 1, "\(rendered)")
        #expect(rendered.hasPrefix("w.layout:7:"))
        #expect(rendered.contains("warning: 45 numbers on lines 7-51 are beyond the range the solvers answer to full precision (|x| <= 1e7), the largest 20000044"))
        // A single one keeps the full rendering with its excerpt.
        let one = LayoutParser.parse("container 100 x auto\nviews a\na.left = super.left\na.top = super.top\na.width = 1\na.height = 1\n"
                                     + "expect a = 0 20000000 1 1\n", fileName: "w.layout")
        #expect(one.renderedDiagnostics().split(separator: "\n").count == 3)
    }
}
