import Foundation
@testable import LayoutFormat
import LayoutModel
import LayoutTestSupport
import Testing

/// Pass 2 split between threads (ParallelLines.swift) against one thread:
/// for any file and any number of chunks, the same layout, locations and
/// diagnostics.
@Suite("A large file's lines read by several threads, as one thread reads them")
struct ParallelParseTests {
    @Test("chunks start at line starts, in order, at most one per thread, none for a small file")
    func chunkBoundaries() {
        let source = SourceText(String(repeating: "a.left = b.right\n", count: 1000), fileName: "c.layout")
        for threads in 1...5 {
            let starts = chunkStarts(lineStarts: source.lineStarts, byteCount: source.bytes.count, threads: threads,
                                     minimumChunkBytes: 100)
            #expect(starts.first == 1)
            #expect(starts.count == threads, "\(threads) threads: \(starts)")
            #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "\(starts)")
            #expect(starts.allSatisfy { $0 >= 1 && $0 <= source.lineCount })
        }
        // The main thread's chunk is `firstChunkShare` of an equal share of
        // the lines; the other chunks share the rest equally (the last one
        // takes the remainder of the division).
        let lines = source.lineCount
        #expect(chunkStarts(lineStarts: source.lineStarts, byteCount: source.bytes.count, threads: 2,
                            minimumChunkBytes: 100) == [1, 1 + Int(Double(lines / 2) * LayoutParser.firstChunkShare)])
        let four = chunkStarts(lineStarts: source.lineStarts, byteCount: source.bytes.count, threads: 4, minimumChunkBytes: 100)
        let sizes = zip(four, four.dropFirst() + [lines + 1]).map { $1 - $0 }
        #expect(sizes[0] == Int(Double(lines / 4) * LayoutParser.firstChunkShare), "\(sizes)")
        #expect(sizes[0] < sizes[1] && sizes[1] == sizes[2] && sizes[3] >= sizes[2] && sizes[3] < sizes[2] + 3, "\(sizes)")
        // A chunk below the minimum is not worth a thread.
        #expect(chunkStarts(lineStarts: source.lineStarts, byteCount: source.bytes.count, threads: 4,
                            minimumChunkBytes: source.bytes.count) == [1])
        #expect(chunkStarts(lineStarts: [], byteCount: 0, threads: 4, minimumChunkBytes: 1) == [1])
    }

    @Test("a generated-style file with every kind of line, in 2 to 6 chunks: the same parse as one thread",
          arguments: [UInt64(1), 2, 3])
    func mixedFileAgrees(seed: UInt64) {
        let text = Self.mixedFile(seed: seed, lines: 3000)
        for threads in 2...6 {
            Self.expectSameParse(Array(text.utf8), threads: threads, label: "seed \(seed), \(threads) threads")
        }
    }

    @Test("arrays sized for a few values: every chunk's region overflows, closed up or spilled, in order")
    func smallRegions() {
        // Plain lines only, so that each chunk's thread reads its whole
        // chunk (the mixed file's threads stop within a few dozen lines).
        var lines = ["container 400 x 400", "views " + (0..<200).map { "v\($0)" }.joined(separator: " ")]
        for i in 0..<3000 {
            lines.append("v\(i % 200).left = v\((i + 1) % 200).right * 2 + \(i) @ \(1 + i % 999) # id\(i)")
            if i % 10 == 0, i / 10 < 200 { lines.append("expect v\(i / 10) = 1 2 3 4") }
        }
        let text = lines.joined(separator: "\n") + "\n"
        for reserveLimit in [0, 1, 300, 2_900, 10_000] {
            Self.expectSameParse(Array(text.utf8), threads: 3, reserveLimit: reserveLimit,
                                 label: "arrays sized for \(reserveLimit) values")
        }
        // The mixed file's visual format and `when` lines make more
        // constraints than pass 1 counted: the main thread's region overflows.
        let mixed = Self.mixedFile(seed: 4, lines: 3000)
        for reserveLimit in [5, 100_000] {
            Self.expectSameParse(Array(mixed.utf8), threads: 2, reserveLimit: reserveLimit, label: "mixed, \(reserveLimit)")
        }
    }

    @Test("errors in every chunk, past the error limit: the same diagnostics, cut at the same line")
    func errorsAgree() {
        var lines = ["container 100 x 100", "views a b"]
        for i in 0..<2000 {
            lines.append(i % 37 == 5 ? "a.lft = b.right + \(i)" : "a.left = b.right + \(i)")
        }
        let many = lines.joined(separator: "\n") + "\n"
        for threads in 2...4 { Self.expectSameParse(Array(many.utf8), threads: threads, label: "many errors, \(threads)") }
        // Few errors, all in the later chunks: reported, with their locations.
        var late = ["container 100 x 100", "views a b"]
        for i in 0..<2000 { late.append(i == 1500 || i == 1990 ? "a.left = c.right" : "a.top = b.bottom + \(i)") }
        Self.expectSameParse(Array((late.joined(separator: "\n") + "\n").utf8), threads: 3, label: "late errors")
    }

    @Test("every corpus file, cut into chunks of a few hundred bytes: the same parse as one thread")
    func corpusAgrees() throws {
        let files = TestCorpus.files()
        #expect(files.count > 10)
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            Self.expectSameParse(bytes, threads: 3, label: path)
        }
    }

    @Test("a chunk's thread reads plain lines, skips blanks and comments, and stops at the first other line")
    func chunkStopsAtFirstDeclinedLine() {
        let text = "container 100 x 100\nviews a b\na.left = b.right\n\n# note\nexpect a = 1 2 3 4\n"
            + "a.top = b.bottom @ high\na.left = b.left\nmetric m = 3\n"
        let source = SourceText(text, fileName: "chunk.layout")
        source.bytes.withUnsafeBufferPointer { bytes in
            let chunk = PlainChunk(source: source, bytes: bytes, lines: 3..<10, metricLines: [9])
            chunk.start()
            chunk.join()
            #expect(chunk.resumeLine == 7)
            #expect(chunk.parser.constraints.count == 1)
            #expect(chunk.parser.expectations.count == 1)
            let rest = PlainChunk(source: source, bytes: bytes, lines: 8..<10, metricLines: [9])
            rest.read()
            #expect(rest.resumeLine == 9, "a metric line (pass 1 read it) stops the chunk")
            #expect(rest.parser.constraints.elements.map(\.first.attribute) == [.left])
        }
    }

    // MARK: Helpers

    /// A file like the generated families (views, constraints, content and
    /// expectation lines) with, here and there, the lines only the general
    /// parser reads: metrics declared and used, `when`, visual format,
    /// named priorities, comments, blank lines and errors.
    static func mixedFile(seed: UInt64, lines count: Int) -> String {
        var random = SplitMix64(seed: seed)
        var lines = ["# mixed", "container 375 x auto", "metric gap = 8"]
        let views = (0..<40).map { "v\($0)" }
        lines.append("views " + views.joined(separator: " "))
        let attributes = ["left", "right", "top", "bottom", "width", "height", "centerX", "leading", "firstBaseline"]
        func view() -> String { views[Int(random.next() % UInt64(views.count))] }
        func attribute() -> String { attributes[Int(random.next() % UInt64(attributes.count))] }
        for i in 0..<count {
            // Why rare: a chunk's thread stops at its first line of these, so
            // frequent ones would leave every chunk to the main thread.
            switch random.next() % 300 {
            case 0: lines.append("when landscape: \(view()).left = \(view()).right + gap")
            case 1: lines.append("\(view()).top = \(view()).bottom + gap")
            case 2: lines.append("metric m\(i) = \(i % 17)")
            case 3: lines.append("")
            case 4: lines.append("  # a comment")
            case 5: lines.append("H:|-[\(view())]-|")
            case 6: lines.append("\(view()).width = 40 @ high")
            case 7: lines.append("\(view()).lft = \(view()).right")
            case 8: lines.append("intrinsic \(view()) \(i % 90) 21")
            case 9: lines.append("expect \(view()) = 1 2 3 4")
            case 10: lines.append("views w\(i)")
            default:
                lines.append("\(view()).\(attribute()) = \(view()).\(attribute()) * 2 + \(i) @ \(1 + i % 999) # id\(i)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `bytes` on one thread and in chunks of at least 64 bytes on
    /// `threads` (the arrays sized for at most `reserveLimit` values before
    /// the parse), and compares everything the parse gives: the whole
    /// layout, every location and the rendered diagnostics.
    static func expectSameParse(_ bytes: [UInt8], threads: Int, reserveLimit: Int = FileParser.reserveLimit,
                                label: String) {
        let source = SourceText(bytes: bytes, fileName: "parallel.layout")
        let one = LayoutParser.parseSyntax(source, readsPlainLines: true, threads: 1).validated()
        let many = LayoutParser.parseSyntax(source, readsPlainLines: true, threads: threads, minimumChunkBytes: 64,
                                            reserveLimit: reserveLimit).validated()
        // The entry that starts the chunks' threads before the line scan.
        let ahead = LayoutParser.parseSyntax(bytes: bytes, fileName: "parallel.layout", threads: threads,
                                             minimumChunkBytes: 64).validated()
        #expect(ahead.layout == many.layout, "threads started ahead: \(label)")
        let render = { (result: ParseResult) in result.diagnostics.map { DiagnosticRenderer.render($0, source: source) } }
        #expect(render(one) == render(many), "diagnostics: \(label)")
        #expect((one.layout == nil) == (many.layout == nil), "validity: \(label)")
        guard let a = one.layout, let b = many.layout else { return }
        #expect(a == b, "layout: \(label)")
        #expect(a.constraints.map(\.locations) == b.constraints.map(\.locations), "constraint locations: \(label)")
        #expect(a.constraints.map(\.first.location) == b.constraints.map(\.first.location), "item locations: \(label)")
        #expect(a.expectations.map(\.location) == b.expectations.map(\.location), "expectation locations: \(label)")
        #expect(a.views.map(\.location) == b.views.map(\.location), "view locations: \(label)")
    }
}
