// What parsing a `.layout` file returns: the layout (when there were no
// errors), every diagnostic, and the source to render them against.

import LayoutModel

/// What parsing a `.layout` file produced: the layout if there were no
/// errors, and every diagnostic (errors and warnings) in source order.
public struct ParseResult: Sendable {
    /// The layout; nil when any error was found.
    public var layout: Layout?
    public var diagnostics: [Diagnostic]
    /// The source, kept to render diagnostics with their line and caret.
    public var source: SourceText

    public var isValid: Bool { layout != nil }
    /// The layout as validation passed it (nil when any error was found):
    /// what solvers take without validating again.
    public var validated: ValidatedLayout?

    /// The bytes that were parsed (a BOM removed).
    public var sourceBytes: [UInt8] { source.bytes }

    public init(layout: Layout?, diagnostics: [Diagnostic], source: SourceText, validated: ValidatedLayout? = nil) {
        self.layout = layout
        self.diagnostics = diagnostics
        self.source = source
        self.validated = layout == nil ? nil : validated
    }

    /// At most this many warnings per file are rendered; the rest are counted
    /// in one closing note. Why: a generated grid of 10^5 rows has 30,000
    /// coordinates beyond the precise range, and printing each with its
    /// excerpt took longer than solving it.
    public static let renderedWarningLimit = 20

    /// Every diagnostic rendered like a compiler's, with the line and a caret;
    /// errors all (they are capped at ``LayoutParser/errorLimit``), warnings up
    /// to ``renderedWarningLimit``, then a note with the number left out.
    ///
    /// Numbers beyond the precise range are one line per file when there are
    /// several: located at the first, with their count, the largest and the
    /// lines they span. Why: a generated grid of 10^5 rows keeps the
    /// tutorial's geometry, so 30,000 of its expected y values are beyond the
    /// range by design (its header says so); one fact, one line.
    public func renderedDiagnostics() -> String {
        let beyond = diagnostics.filter {
            if $0.severity == .warning, case .numberBeyondPreciseRange = $0.kind { return true } else { return false }
        }
        let collapsed = beyond.count > 1
        var out = ""
        var warnings = 0
        var summarised = false
        for diagnostic in diagnostics {
            if diagnostic.severity == .warning {
                if collapsed, case .numberBeyondPreciseRange = diagnostic.kind {
                    if !summarised { out += Self.summary(of: beyond) }
                    summarised = true
                    continue
                }
                warnings += 1
                if warnings > Self.renderedWarningLimit { continue }
            }
            out += DiagnosticRenderer.render(diagnostic, source: source)
        }
        let omitted = warnings - Self.renderedWarningLimit
        if omitted > 0 {
            out += "\(source.fileName): note: \(omitted) more warning\(omitted == 1 ? "" : "s") not shown "
                + "(\(warnings) in all; at most \(Self.renderedWarningLimit) are shown per file)\n"
        }
        return out
    }

    /// One line for several numbers beyond the precise range.
    static func summary(of beyond: [Diagnostic]) -> String {
        var largest = 0.0, limit = "", lines = [Int]()
        for d in beyond {
            if case .numberBeyondPreciseRange(_, let value, let l) = d.kind {
                largest = max(largest, abs(value))
                limit = l
            }
            if let line = d.location?.line { lines.append(line) }
        }
        let span = lines.isEmpty ? "" : " on lines \(lines.min() ?? 0)-\(lines.max() ?? 0)"
        let place = beyond[0].location.map { "\($0): " } ?? ""
        return "\(place)warning: \(beyond.count) numbers\(span) are beyond the range the solvers answer to full precision "
            + "(\(limit)), the largest \(formatNumber(largest)); answers there may differ from the exact ones by more than "
            + "the cross-check tolerance\n"
    }
}
