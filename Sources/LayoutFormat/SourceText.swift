import LayoutModel

/// The bytes of one `.layout` file with its line table, for the parser and
/// for rendering diagnostics with the offending line.
public struct SourceText: Sendable {
    public let fileName: String
    /// `fileName` interned once (``SourceLocation`` stores the id).
    let fileID: UInt32
    let bytes: [UInt8]
    /// Byte offset where each line starts; line `n` (1-based) is `lineStarts[n - 1]`.
    let lineStarts: [Int]
    /// Whether every byte is ASCII (below 0x80), so well-formed UTF-8.
    let isASCII: Bool

    public init(bytes: [UInt8], fileName: String) {
        self.fileName = fileName
        self.fileID = SourceFileNames.id(of: fileName)
        // Why skip a BOM: editors on some platforms write one; it is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            self.bytes = Array(bytes.dropFirst(3))
        } else {
            self.bytes = bytes
        }
        (self.lineStarts, self.isASCII) = self.bytes.withUnsafeBufferPointer { Self.scanLines($0) }
    }

    public init(_ text: String, fileName: String) {
        self.init(bytes: Array(text.utf8), fileName: fileName)
    }

    var lineCount: Int { lineStarts.count }

    /// The byte range of line `n` (1-based), without its line terminator.
    func lineRange(_ n: Int) -> Range<Int> {
        let start = lineStarts[n - 1]
        var end = n < lineStarts.count ? lineStarts[n] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// The location of a byte offset.
    func location(ofOffset offset: Int) -> SourceLocation {
        // Binary search: the last line start <= offset.
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(fileID: fileID, line: lo + 1, column: offset - lineStarts[lo] + 1)
    }

    /// The offset of the first byte that is not well-formed UTF-8, or nil.
    ///
    /// - Complexity: O(*n*).
    func firstInvalidUTF8Offset() -> Int? {
        isASCII ? nil : bytes.withUnsafeBufferPointer { Self.firstInvalidUTF8Offset($0) }
    }

    private static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        while i < n {
            // Why eight at a time: layout files are almost all ASCII; one
            // load and one mask test skip a word of them.
            if i + 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0  // no overlongs
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F  // no surrogates
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F  // <= U+10FFFF
            default: return i
            }
            guard i + length <= n else { return i }
            let second = bytes[i + 1]
            guard second >= lower && second <= upper else { return i }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// The offset where each line starts (0, then the offset after each line
    /// feed) and whether every byte is ASCII, in one pass over `bytes`.
    ///
    /// Why one pass of words rather than `memchr` per line and a second
    /// pass for UTF-8: both are serial work before the parse's threads
    /// start, and on the 49 MB grid file (a million lines of 48 bytes on
    /// average) the call per line, the appends and the second read were about
    /// 135 M instructions. A word at a time, eight bytes are tested for a
    /// line feed and a high bit with a handful of operations, and each line
    /// start is a store into memory reserved for them. The line-feed test is
    /// exact in every byte (no carry crosses a byte: `x & 0x7F + 0x7F` is at
    /// most 0xFE), so each set bit is a line feed.
    /// Why a guess of the line count and a rescan when it is short: the
    /// starts are written into the array's own memory, without an append's
    /// checks; lines average well over 32 bytes in the files where this
    /// matters, and a file of shorter lines pays a second scan, still O(n).
    /// - Complexity: O(bytes).
    static func scanLines(_ bytes: UnsafeBufferPointer<UInt8>) -> (starts: [Int], isASCII: Bool) {
        var capacity = bytes.count / 32 + 16
        while true {
            var complete = true
            var seen: UInt64 = 0
            let starts = [Int](unsafeUninitializedCapacity: capacity) { out, count in
                out[0] = 0
                var k = 1
                var i = 0
                let n = bytes.count
                scan: do {
                    #if _endian(little)
                    if let base = UnsafeRawPointer(bytes.baseAddress) {
                        let lowSeven: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
                        let highBits: UInt64 = 0x8080_8080_8080_8080
                        let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
                        while i &+ 8 <= n {
                            let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                            seen |= word
                            let x = word ^ lineFeeds
                            // The high bit of each byte of `x` that is zero (a line feed in `word`).
                            var found = ~(((x & lowSeven) &+ lowSeven) | x) & highBits
                            while found != 0 {
                                guard k < capacity else { complete = false; break scan }
                                out[k] = i &+ found.trailingZeroBitCount &>> 3 &+ 1
                                k &+= 1
                                found &= found &- 1
                            }
                            i &+= 8
                        }
                    }
                    #endif
                    while i < n {
                        let b = bytes[i]
                        seen |= UInt64(b)
                        if b == 0x0A {
                            guard k < capacity else { complete = false; break scan }
                            out[k] = i &+ 1
                            k &+= 1
                        }
                        i &+= 1
                    }
                }
                count = k
            }
            if complete { return (starts, seen & 0x8080_8080_8080_8080 == 0) }
            capacity = capacity &* 4
        }
    }

    /// The text of line `n` for an excerpt; nil past the end.
    func lineText(_ n: Int) -> [UInt8]? {
        guard n >= 1 && n <= lineCount else { return nil }
        return Array(bytes[lineRange(n)])
    }
}
