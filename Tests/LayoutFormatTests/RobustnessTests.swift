import Foundation
import LayoutFormat
import LayoutModel
import LayoutTestSupport
import Testing

/// Malformed input of any kind gives diagnostics, never a crash or a hang.
@Suite("Malformed input")
struct RobustnessTests {
    func expectDiagnosed(_ bytes: [UInt8], _ comment: Comment) {
        let result = LayoutParser.parse(bytes: bytes, fileName: "junk.layout")
        #expect(result.layout == nil, comment)
        #expect(!result.diagnostics.isEmpty, comment)
        #expect(result.diagnostics.count <= LayoutParser.errorLimit + 1, comment)
        // Rendering must not trip over anything either.
        #expect(!result.renderedDiagnostics().isEmpty, comment)
    }

    @Test("random binary junk, seeded")
    func binaryJunk() {
        for seed in UInt64(1)...40 {
            var rng = SplitMix64(seed: seed)
            let count = Int.random(in: 0...20_000, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let result = LayoutParser.parse(bytes: bytes, fileName: "junk.layout")
            #expect(result.layout == nil || count == 0, "seed \(seed)")
            _ = result.renderedDiagnostics()
        }
    }

    @Test("random ASCII made of the format's own characters, seeded")
    func tokenSoup() {
        let alphabet = Array("abx.=<>*/+-@#:,0123456789 \n\tsuper views container when expect left width ".utf8)
        for seed in UInt64(1)...200 {
            var rng = SplitMix64(seed: seed)
            let bytes = (0..<Int.random(in: 0...2_000, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let result = LayoutParser.parse(bytes: bytes, fileName: "soup.layout")
            _ = result.renderedDiagnostics()
            #expect(result.diagnostics.count <= LayoutParser.errorLimit + 1)
        }
    }

    @Test("a 10 MB line")
    func hugeLine() {
        expectDiagnosed(Array("container 1 x 1\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20), "10 MB name")
        expectDiagnosed([UInt8](repeating: UInt8(ascii: "("), count: 10 << 20), "10 MB of '('")
        expectDiagnosed(Array("container 1 x 1\nviews a\na.width = 1 ".utf8)
                        + Array(String(repeating: "+ 1 ", count: 2 << 20).utf8), "10 MB constraint")
        expectDiagnosed(Array("container 1 x 1\nviews ".utf8) + Array(String(repeating: "v ", count: 100_000).utf8)
                        + Array("\nviews v".utf8), "100k duplicate views")
    }

    @Test("a 10 MB number and a 10 MB identifier")
    func hugeTokens() throws {
        let digits = Array("container 1 x 1\nviews a\na.width = ".utf8) + [UInt8](repeating: UInt8(ascii: "9"), count: 10 << 20)
        expectDiagnosed(digits, "10 MB of digits")
        let identifier = Array("container 1 x 1\nviews a\na.width = 1 # ".utf8) + [UInt8](repeating: UInt8(ascii: "i"), count: 10 << 20)
        let result = LayoutParser.parse(bytes: identifier)
        #expect(result.layout?.constraints.first?.identifier?.utf8.count == 10 << 20)
    }

    @Test("NUL bytes, control characters, lone CRs, non-UTF-8")
    func oddBytes() {
        expectDiagnosed([0, 0, 0], "NULs")
        expectDiagnosed(Array("container 1 x 1\nviews a\u{0}b".utf8), "NUL in a line")
        expectDiagnosed(Array("container 1 x 1\u{1B}[31m".utf8), "escape sequence")
        expectDiagnosed([0xFF, 0xFE, 0x00, 0x63], "UTF-16 BOM")
        expectDiagnosed([0xED, 0xA0, 0x80], "a UTF-8 surrogate")
        expectDiagnosed([0xC0, 0x80], "an overlong NUL")
        expectDiagnosed(Array("container 1 x 1\rviews a\ra.left = 3".utf8), "lone CRs")
    }

    @Test("an empty file, only comments, only a BOM")
    func empty() {
        for text in ["", "# nothing\n\n", "\u{FEFF}"] {
            #expect(LayoutParser.parse(text).diagnostics.map(\.kind) == [.missingContainer])
        }
    }

    @Test("many lines of junk stop at the error limit")
    func manyLines() {
        let bytes = Array(String(repeating: "@@@\n", count: 1_000_000).utf8)
        let result = LayoutParser.parse(bytes: bytes)
        #expect(result.diagnostics.count == LayoutParser.errorLimit + 1)
    }

    @Test("every input in Fixtures/fuzz (fuzzer findings and crafted edge cases) parses, and what parses round-trips")
    func fuzzRegressions() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.count >= 4)
        for name in files {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let result = LayoutParser.parse(bytes: bytes, fileName: name)
            _ = result.renderedDiagnostics()
            guard let layout = result.layout else { continue }
            #expect(LayoutParser.parse(LayoutPrinter.print(layout)).layout == layout, "\(name): plain round trip")
            #expect(LayoutParser.parse(LayoutPrinter.printVisualFormat(layout)).layout == layout, "\(name): VFL round trip")
        }
    }
}
