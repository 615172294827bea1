@testable import LayoutFormat
import LayoutModel
import Testing

@Suite("Lexer byte classes and the first pass's line shapes")
struct LexerTests {
    @Test("the name-byte mask is [A-Za-z0-9_], for every byte")
    func nameContinueMask() {
        for b in UInt8.min...UInt8.max {
            let expected = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
            #expect(Lexer.isNameContinue(b) == expected, "byte \(b)")
        }
    }

    @Test("line shapes: metric declarations by their first two words however spaced, constraint and expect lines by their first word")
    func lineShapes() {
        let cases: [(String, Lexer.LineShape)] = [
            ("metric gap = 8", .metricDeclaration), ("\t metric\tgap = 8", .metricDeclaration), ("metric g", .metricDeclaration),
            ("metric", .other), ("metric ", .other), ("metric = 8", .other), ("metric.width = 5", .constraint),
            ("metricx = 1", .other), ("metric 8", .other), ("# metric gap = 8", .other), ("metric_ gap", .other),
            ("a.left = b.right", .constraint), ("  row1_left .top = 5", .constraint), ("expect a = 0 0 1 1", .expectation),
            ("expect.width = 3", .constraint), ("expected a = 1", .other), ("views a b", .other), ("", .other),
            ("   ", .other), (".5", .other), ("when a: b.left = 1", .other), ("é.left = 1", .other),
        ]
        for (line, expected) in cases {
            let bytes = Array(line.utf8)
            let found = bytes.withUnsafeBufferPointer { Lexer.shape($0, 0..<bytes.count) }
            #expect(found == expected, "\(line)")
        }
    }

    @Test("pass 1 finds every metric declaration, indented or not, among lines it counts by their first byte")
    func passOneMetrics() {
        let text = """
            container 100 x 10
            views a metric metricx menu e
            metric m = 1
              metric indented = 2
            \tmetric tabbed = 3
            metricx.left = a.left
            menu.left = a.left + m
            metric.left = a.left
            # metric commented = 4
            expect a = 0 0 1 1
            expect.left = a.left
            e.left = a.left
            metric last = 5
            """
        let source = SourceText(text, fileName: "p.layout")
        var parser = FileParser(source: source)
        let (metricLines, counts) = source.bytes.withUnsafeBufferPointer {
            parser.readMetricsAndCount($0, chunkStarts: [1, 8])
        }
        #expect(metricLines == [3, 4, 5, 13])
        #expect(parser.metrics.map(\.name) == ["m", "indented", "tabbed", "last"])
        // The counts size the chunks' regions: every constraint and
        // expectation line, in its chunk (lines 1-7, 8-13); the declarations
        // that make none (`container`, `views`) are not counted.
        #expect(counts.map(\.constraints) == [2, 3])
        #expect(counts.map(\.expectations) == [0, 1])
    }

    @Test("pass 1 counts constraint lines exactly: declarations that make none are not counted, views named like them are")
    func passOneCounts() {
        let text = """
            container 100 x 10
            views views2 value cell body hview iv variants
            variant compact 320 x 10
            intrinsic value 10 20
            hugging value 251 250
            compression cell 750 750
            baselines body 17 4
            views2.left = value.right
            value.left = cell.right
            cell.left = body.right
            body.left = hview.right
            hview.left = iv.right
            iv.left = variants.right
            variants.top = views2.top
            expect value = 1 2 3 4
            """
        let source = SourceText(text, fileName: "count.layout")
        var parser = FileParser(source: source)
        let (_, counts) = source.bytes.withUnsafeBufferPointer { parser.readMetricsAndCount($0, chunkStarts: [1]) }
        #expect(counts.map(\.constraints) == [7])
        #expect(counts.map(\.expectations) == [1])
        let result = LayoutParser.parse(source)
        #expect(result.layout?.constraints.count == 7, "\(result.diagnostics)")
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
