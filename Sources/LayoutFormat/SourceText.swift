import LayoutModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one `.layout` file with its line table, for the parser and
/// for rendering diagnostics with the offending line.
public struct SourceText: Sendable {
    public let fileName: String
    /// `fileName` interned once (``SourceLocation`` stores the id).
    let fileID: UInt32
    let bytes: [UInt8]
    /// Byte offset where each line starts; line `n` (1-based) is `lineStarts[n - 1]`.
    let lineStarts: [Int]

    public init(bytes: [UInt8], fileName: String) {
        self.fileName = fileName
        self.fileID = SourceFileNames.id(of: fileName)
        // Why skip a BOM: editors on some platforms write one; it is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            self.bytes = Array(bytes.dropFirst(3))
        } else {
            self.bytes = bytes
        }
        var starts = [0]
        starts.reserveCapacity(self.bytes.count / 32 + 1)
        self.bytes.withUnsafeBufferPointer { buffer in
            // Why memchr: it scans a word or a vector at a time, where a byte
            // loop reads one byte per step (evidence:
            // docs/measurements.md#m-front-end-costs).
            guard let base = buffer.baseAddress else { return }
            var i = 0
            while i < buffer.count, let hit = memchr(base + i, 0x0A, buffer.count - i) {
                let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                starts.append(offset + 1)
                i = offset + 1
            }
        }
        self.lineStarts = starts
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
        bytes.withUnsafeBufferPointer { Self.firstInvalidUTF8Offset($0) }
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

    /// The text of line `n` for an excerpt; nil past the end.
    func lineText(_ n: Int) -> [UInt8]? {
        guard n >= 1 && n <= lineCount else { return nil }
        return Array(bytes[lineRange(n)])
    }
}
