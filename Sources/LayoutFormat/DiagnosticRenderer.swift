import LayoutModel

/// Renders diagnostics the way compilers do:
///
///     grid.layout:3:9: error: unknown attribute 'lft'; did you mean 'left'?
///         a.lft = super.left + 16
///           ^
public enum DiagnosticRenderer {
    /// Lines longer than this are shown as a window around the column.
    static let excerptWidth = 100

    /// The diagnostic, its excerpt and caret (when the source has that line),
    /// and its notes; ends with a newline.
    public static func render(_ diagnostic: Diagnostic, source: SourceText?) -> String {
        var out = diagnostic.description + "\n"
        if let location = diagnostic.location, let source, location.file == source.fileName,
           let excerpt = excerpt(source: source, location: location) {
            out += excerpt
        }
        for note in diagnostic.notes {
            let prefix = note.location.map { "\($0): " } ?? ""
            out += "\(prefix)note: \(note.message)\n"
        }
        return out
    }

    /// `    LINE\n    ^\n` with control characters made visible and long lines cut.
    static func excerpt(source: SourceText, location: SourceLocation) -> String? {
        guard let bytes = source.lineText(location.line) else { return nil }
        var caretOffset = max(0, min(location.column - 1, bytes.count))
        var window = bytes[...]
        var lead = "", trail = ""
        if bytes.count > excerptWidth {
            // Show a window around the column; back up to a UTF-8 scalar boundary.
            var start = max(0, caretOffset - excerptWidth / 2)
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            var end = min(bytes.count, start + excerptWidth)
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            window = bytes[start..<end]
            caretOffset -= start
            if start > 0 { lead = "..." }
            if end < bytes.count { trail = "..." }
        }
        let prefix = String(decoding: window.prefix(caretOffset), as: UTF8.self)
        let rest = String(decoding: window.dropFirst(caretOffset), as: UTF8.self)
        func visible(_ s: String) -> String {
            String(String.UnicodeScalarView(s.unicodeScalars.map { scalar in
                scalar == "\t" || (scalar.properties.generalCategory != .control && scalar.value != 0xFFFD) ? scalar : "?"
            }))
        }
        let shownPrefix = lead + visible(prefix)
        let caretLine = String(shownPrefix.map { $0 == "\t" ? "\t" : " " })
        return "    \(shownPrefix)\(visible(rest))\(trail)\n    \(caretLine)^\n"
    }
}
