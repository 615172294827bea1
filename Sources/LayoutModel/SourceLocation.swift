/// A position in a source file: 1-based line and column.
///
/// Columns count UTF-8 bytes from the start of the line, as the Swift and
/// Clang compilers do, so that a location is stable whatever the terminal's
/// idea of character width.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The file name as given by the caller (a path, or a label such as `<stdin>`).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COL`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    /// `FILE:LINE`, the short form used to name a constraint.
    public var fileAndLine: String { "\(file):\(line)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
