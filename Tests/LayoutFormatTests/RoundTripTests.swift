import LayoutFormat
import LayoutModel
import LayoutTestSupport
import PropertyBased
import Testing

@Suite("Printing and parsing back")
struct RoundTripTests {
    static let layouts = Generator<Layout, Shrink.None<Layout>>(run: { rng in RandomLayouts.layout(using: &rng) })

    @Test("parse(print(m)) == m for random valid models")
    func randomModels() async {
        await propertyCheck(count: 400, input: Self.layouts) { layout in
            #expect(!layout.validate().containsErrors, "the generator must make valid models")
            let text = LayoutPrinter.print(layout)
            let result = LayoutParser.parse(text, fileName: "printed.layout")
            #expect(result.layout == layout, "printed:\n\(text)\n\(result.renderedDiagnostics())")
        }
    }

    @Test("parse(printVisualFormat(m)) == m for random valid models (VFL wherever expressible)")
    func randomModelsThroughVisualFormat() async {
        await propertyCheck(count: 400, input: Self.layouts) { layout in
            let text = LayoutPrinter.printVisualFormat(layout)
            let result = LayoutParser.parse(text, fileName: "printed.layout")
            #expect(result.layout == layout, "printed:\n\(text)\n\(result.renderedDiagnostics())")
        }
    }

    @Test("random VFL-shaped models print as VFL and parse back equal")
    func visualFormatShapes() throws {
        var rng = SplitMix64(seed: 11)
        var vflLines = 0
        for _ in 0..<300 {
            let layout = RandomLayouts.visualFormatLayout(using: &rng)
            let text = LayoutPrinter.printVisualFormat(layout)
            vflLines += text.split(separator: "\n").filter { $0.contains("H:") || $0.contains("V:") }.count
            let result = LayoutParser.parse(text, fileName: "vfl.layout")
            #expect(result.layout == layout, "printed:\n\(text)\n\(result.renderedDiagnostics())")
        }
        #expect(vflLines > 1000)  // the generator really exercises the visual format
    }

    @Test("printing is idempotent on every corpus file")
    func corpusFiles() throws {
        for file in TestCorpus.files() {
            let original = try #require(LayoutParser.parseFile(atPath: file).result.layout)
            let printed = LayoutPrinter.print(original)
            let reparsed = try #require(LayoutParser.parse(printed).layout)
            #expect(reparsed == original, "\(file)")
            #expect(LayoutPrinter.print(reparsed) == printed)
        }
    }

    @Test("the printer's normal form")
    func normalForm() throws {
        let layout = try #require(LayoutParser.parse("""
            metric gap = 8
            container 320 x auto traits portrait
            variant land 480 x 320 traits landscape
            views a b
            margins b 1 2 3 4
            a.left = b.right * 1 + gap @ high # id
            when landscape: a.width = b.width / 2 - 0.5
            a.height >= 44
            expect land a = 1 2 3 4
            expect ambiguous
            """).layout)
        #expect(LayoutPrinter.print(layout) == """
            container 320 x auto traits portrait
            variant land 480 x 320 traits landscape
            metric gap = 8
            views a b
            margins b 1 2 3 4

            a.left = b.right + 8 @ 750 # id
            when landscape: a.width = b.width * 0.5 - 0.5
            a.height >= 44

            expect land a = 1 2 3 4
            expect ambiguous

            """)
    }
}
