@testable import LayoutFormat
import LayoutTestSupport
import Testing

/// The one-pass line scan (``SourceText/scanLines(_:)``) against the plain
/// definition: a line starts at 0 and after each line feed; a file is ASCII
/// when no byte has its high bit set.
@Suite("Line starts and the ASCII test, a word at a time")
struct SourceTextTests {
    /// The definition, a byte at a time.
    static func expected(_ bytes: [UInt8]) -> (starts: [Int], isASCII: Bool) {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        return (starts, bytes.allSatisfy { $0 < 0x80 })
    }

    static func scanned(_ bytes: [UInt8]) -> (starts: [Int], isASCII: Bool) {
        bytes.withUnsafeBufferPointer { SourceText.scanLines($0) }
    }

    @Test("random bytes: line feeds at every position of a word, high bytes anywhere", arguments: [UInt64(1), 2, 3, 4])
    func randomBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let length = Int(random.next() % 200)
            // Mostly ASCII letters, some line feeds (runs of them too), a few
            // bytes with the high bit, and the bytes next to 0x0A.
            let bytes: [UInt8] = (0..<length).map { _ in
                switch random.next() % 20 {
                case 0, 1, 2: return 0x0A
                case 3: return UInt8(truncatingIfNeeded: 0x80 | random.next())
                case 4: return [0x09, 0x0B, 0x8A, 0x0A ^ 0x80, 0x7F][Int(random.next() % 5)]
                default: return UInt8(0x61 + random.next() % 26)
                }
            }
            let got = Self.scanned(bytes)
            let want = Self.expected(bytes)
            #expect(got.starts == want.starts, "\(bytes)")
            #expect(got.isASCII == want.isASCII, "\(bytes)")
        }
    }

    @Test("more lines than the first guess of their number: the scan starts again with room for them")
    func shortLines() {
        for count in [0, 1, 15, 16, 17, 100, 1_000, 5_000] {
            let bytes = [UInt8](repeating: 0x0A, count: count) + Array("a.left = b.right".utf8)
            #expect(Self.scanned(bytes).starts == Self.expected(bytes).starts, "\(count) line feeds")
        }
    }

    @Test("SourceText: its lines, and UTF-8 checked only when a byte is not ASCII")
    func sourceText() {
        let ascii = SourceText("views a b\na.left = b.right\r\n\nexpect a = 0 0 1 1", fileName: "t.layout")
        #expect(ascii.lineCount == 4)
        #expect(ascii.isASCII)
        #expect(ascii.firstInvalidUTF8Offset() == nil)
        let accented = SourceText(bytes: Array("views caf\u{E9}\n".utf8), fileName: "t.layout")
        #expect(!accented.isASCII)
        #expect(accented.firstInvalidUTF8Offset() == nil)
        let invalid = SourceText(bytes: Array("views a\n".utf8) + [0xC3, 0x28, 0x0A], fileName: "t.layout")
        #expect(!invalid.isASCII)
        #expect(invalid.firstInvalidUTF8Offset() == 8)
        #expect(invalid.lineCount == 3)
    }
}
