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
