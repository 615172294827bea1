import Foundation
import LayoutModel

extension LayoutParser {
    /// Reads and parses a file (`-` is standard input).
    ///
    /// Never throws: a file that cannot be read (missing, a directory, not a
    /// regular file, over ``maximumFileSize``, no permission) gives a result
    /// with one ``DiagnosticKind/unreadableFile(reason:)`` diagnostic and
    /// `readable == false`.
    public static func parseFile(atPath path: String) -> (result: ParseResult, readable: Bool) {
        switch readFile(atPath: path) {
        case .success(let bytes):
            return (parse(bytes: bytes, fileName: path), true)
        case .failure(let error):
            return (unreadable(path, error), false)
        }
    }

    /// The result for a file that could not be read: one located diagnostic.
    public static func unreadable(_ path: String, _ error: ReadError) -> ParseResult {
        let diagnostic = Diagnostic(.unreadableFile(reason: error.reason), at: SourceLocation(file: path, line: 1, column: 1))
        return ParseResult(layout: nil, diagnostics: [diagnostic], source: SourceText(bytes: [], fileName: path))
    }

    /// Why a file could not be read.
    public struct ReadError: Error, Hashable, Sendable {
        public var reason: String
    }

    /// The bytes of a regular file (or stdin), refusing files over
    /// ``maximumFileSize`` before reading them, so memory stays bounded.
    public static func readFile(atPath path: String) -> Result<[UInt8], ReadError> {
        if path == "-" {
            let data = FileHandle.standardInput.readData(ofLength: maximumFileSize + 1)
            guard data.count <= maximumFileSize else {
                return .failure(ReadError(reason: "standard input is larger than \(maximumFileSize >> 20) MiB"))
            }
            return .success([UInt8](data))
        }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(ReadError(reason: "no such file"))
        }
        if isDirectory.boolValue { return .failure(ReadError(reason: "is a directory")) }
        guard let attributes = try? fm.attributesOfItem(atPath: path) else {
            return .failure(ReadError(reason: "cannot read file attributes"))
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            return .failure(ReadError(reason: "not a regular file"))
        }
        if let size = attributes[.size] as? NSNumber, size.intValue > maximumFileSize {
            return .failure(ReadError(reason: "file is \(size.intValue >> 20) MiB; the limit is \(maximumFileSize >> 20) MiB"))
        }
        let expected = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard fm.isReadableFile(atPath: path), let bytes = readBytes(atPath: path, expectedSize: expected) else {
            return .failure(ReadError(reason: "permission denied"))
        }
        guard bytes.count <= maximumFileSize else {
            return .failure(ReadError(reason: "file grew past \(maximumFileSize >> 20) MiB while being read"))
        }
        return .success(bytes)
    }

    /// The file's bytes read straight into an array (nil if it cannot be
    /// opened or read). Why not `FileManager.contents(atPath:)`: that makes a
    /// `Data` which is then copied into the array, twice the memory and a
    /// copy of the whole file, O(file size) more (evidence:
    /// docs/measurements.md#m-front-end-costs).
    /// A file that grows while being read is read to its end, but never
    /// past ``maximumFileSize`` + 1 bytes (the caller refuses that).
    static func readBytes(atPath path: String, expectedSize: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var capacity = min(max(expectedSize, 0), maximumFileSize) + 1
        while true {
            var failed = false
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity - start))
            let filled = bytes.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return start }
                var n = start
                while n < buffer.count {
                    let r = read(fd, base + n, buffer.count - n)
                    if r > 0 {
                        n += r
                    } else if r == 0 {
                        break
                    } else if errno != EINTR {
                        failed = true
                        break
                    }
                }
                return n
            }
            guard !failed else { return nil }
            if filled < capacity || capacity > maximumFileSize {
                bytes.removeSubrange(filled...)
                return bytes
            }
            // Full: the file grew since its size was read; read on in bigger steps.
            capacity = min(capacity * 2, maximumFileSize + 1)
        }
    }
}
