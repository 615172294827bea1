import Synchronization

/// A position in a source file: 1-based line and column.
///
/// Columns count UTF-8 bytes from the start of the line, as the Swift and
/// Clang compilers do, so that a location is stable whatever the terminal's
/// idea of character width.
///
/// Why the file is a number: a parsed constraint carries up to seven
/// locations, and with a `String` in each, copying a constraint was a retain
/// and a release per location (evidence: docs/measurements.md#m-front-end-costs).
/// The name is interned once per distinct file
/// (``SourceFileNames``) and a location is a plain 12-byte value.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The interned file name (``SourceFileNames``).
    package var fileID: UInt32
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The file name as given by the caller (a path, or a label such as `<stdin>`).
    public var file: String {
        get { SourceFileNames.name(of: fileID) }
        set { fileID = SourceFileNames.id(of: newValue) }
    }

    /// 1-based line number.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Self.clamped(newValue) }
    }

    /// 1-based column, in UTF-8 bytes.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Self.clamped(newValue) }
    }

    public init(file: String, line: Int, column: Int) {
        self.init(fileID: SourceFileNames.id(of: file), line: line, column: column)
    }

    /// A location in a file already interned with ``SourceFileNames/id(of:)``
    /// (the parser interns its file once, not once per token).
    package init(fileID: UInt32, line: Int, column: Int) {
        self.fileID = fileID
        self.storedLine = Self.clamped(line)
        self.storedColumn = Self.clamped(column)
    }

    /// Why clamping is enough: inputs are at most 256 MiB, so real lines and
    /// columns stay far below 2^31; a location built in code with a larger
    /// number keeps the largest one instead of trapping.
    private static func clamped(_ value: Int) -> Int32 { Int32(clamping: value) }

    /// `FILE:LINE:COL`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    /// `FILE:LINE`, the short form used to name a constraint.
    public var fileAndLine: String { "\(file):\(line)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileID != rhs.fileID { return lhs.file < rhs.file }
        return (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }
}

/// The file names of ``SourceLocation``s, each stored once for the process.
///
/// Why a process-wide table: locations are made by the parsers, the DSL and
/// tests on any thread, and must compare and print the same everywhere. It
/// grows by one entry per distinct file name (paths and labels such as
/// `<stdin>`), never per location.
package enum SourceFileNames {
    private struct Table {
        var names: [String] = []
        var ids: [String: UInt32] = [:]
    }

    private static let table = Mutex(Table())

    /// The id of a file name, interning it on first sight.
    /// - Complexity: O(length of the name), behind a lock.
    package static func id(of name: String) -> UInt32 {
        table.withLock { t in
            if let id = t.ids[name] { return id }
            // Why never UInt32.max: ``PackedLocation`` spells "no location" with it.
            let id = UInt32(truncatingIfNeeded: min(t.names.count, Int(UInt32.max - 1)))
            t.names.append(name)
            t.ids[name] = id
            return id
        }
    }

    /// The file name of an id ("" for an id never handed out).
    package static func name(of id: UInt32) -> String {
        table.withLock { t in t.names.indices.contains(Int(id)) ? t.names[Int(id)] : "" }
    }
}

/// A `SourceLocation?` in 12 bytes, not 16: "none" is the file id that
/// ``SourceFileNames`` never hands out. Why: a parsed constraint keeps one
/// for each of its items, and 800,000 constraints (the grid at R = 10^5)
/// are kept for the whole run (docs/measurements.md#m-2026-11-27-constraint-size).
@usableFromInline package struct PackedLocation: Hashable, Sendable {
    private var stored: SourceLocation

    private static let none = SourceLocation(fileID: .max, line: 0, column: 0)

    @usableFromInline package init(_ location: SourceLocation?) { stored = location ?? Self.none }

    package var location: SourceLocation? { stored.fileID == .max ? nil : stored }
}
