@testable import LayoutFormat
import LayoutModel
import Testing

@Suite("Lexer byte classes and the metric pre-pass")
struct LexerTests {
    @Test("the name-byte mask is [A-Za-z0-9_], for every byte")
    func nameContinueMask() {
        for b in UInt8.min...UInt8.max {
            let expected = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
            #expect(Lexer.isNameContinue(b) == expected, "byte \(b)")
        }
    }

    @Test("metric declarations are found by their first two words, however spaced; other uses of the word are not")
    func metricLines() {
        let cases: [(String, Bool)] = [
            ("metric gap = 8", true), ("\t metric\tgap = 8", true), ("metric g", true),
            ("metric", false), ("metric ", false), ("metric = 8", false), ("metric.width = 5", false),
            ("metricx = 1", false), ("metric 8", false), ("# metric gap = 8", false), ("metric_ gap", false),
        ]
        for (line, expected) in cases {
            let bytes = Array(line.utf8)
            let found = bytes.withUnsafeBufferPointer { Lexer.isMetricDeclaration($0, 0..<bytes.count) }
            #expect(found == expected, "\(line)")
        }
    }

    @Test("a file with views named like keywords and metrics used before their declaration")
    func metricsAnywhere() throws {
        let result = LayoutParser.parse("""
            container 100 x 10
            views a metric metricx
            a.width = gap
            \t metric\tgap = 8
            metric.width = a.width * 2
            metricx.width = gap
            """, fileName: "m.layout")
        let layout = try #require(result.layout, "\(result.renderedDiagnostics())")
        #expect(layout.metrics.map(\.name) == ["gap"])
        #expect(layout.constraints.map(\.first.item) == ["a", "metric", "metricx"])
        #expect(layout.constraints.map(\.constant) == [8, 0, 8])
    }
}
