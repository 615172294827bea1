// The entry points of the `.layout` parser and its two stages: the syntax
// stage (`LayoutParser.parseSyntax`) and validation (`UnvalidatedParse.validated()`).

import LayoutModel

/// Parses the `.layout` format (docs/layout-format.md has the grammar).
///
/// Line-oriented: each line is one declaration or constraint, so a line with
/// a syntax error is reported and skipped and the rest of the file is still
/// checked; all errors are collected, up to ``errorLimit``.
public enum LayoutParser {
    /// At most this many errors per file are reported (like `clang -ferror-limit`),
    /// which bounds output and time on junk input.
    public static let errorLimit = 50

    /// Files larger than this are refused before reading (256 MiB).
    public static let maximumFileSize = 256 << 20

    static let keywords = ["container", "views", "metric", "margins", "variant", "when", "expect",
                           "intrinsic", "hugging", "compression", "baselines"]

    /// Parses text.
    public static func parse(_ text: String, fileName: String = "<input>") -> ParseResult {
        parse(SourceText(text, fileName: fileName))
    }

    /// Parses bytes, which need not be valid UTF-8 (that is reported).
    public static func parse(bytes: [UInt8], fileName: String = "<input>") -> ParseResult {
        parseSyntax(bytes: bytes, fileName: fileName).validated()
    }

    /// Parses a source.
    ///
    /// - Complexity: O(*n*) in the size of the file, plus validation.
    public static func parse(_ source: SourceText) -> ParseResult {
        parseSyntax(source).validated()
    }

    /// The syntax stage alone: the layout as written, not yet validated.
    /// ``parse(_:)`` is this followed by ``UnvalidatedParse/validated()``;
    /// the two are separate so that `solve --profile` can time each.
    ///
    /// - Complexity: O(*n*) in the size of the file.
    public static func parseSyntax(_ source: SourceText) -> UnvalidatedParse {
        parseSyntax(source, readsPlainLines: true, threads: defaultParseThreads)
    }

    /// The syntax stage of a file's bytes, as ``parseSyntax(_:)`` of their
    /// ``SourceText``, with the threads for the chunks of a large file
    /// started before the line scan.
    ///
    /// Why before: a thread started when its chunk is ready began 0 to 4 ms
    /// later on this project's VMs (``StandbyThread``), against a parse of
    /// 20 ms at 10^4 grid rows; started ahead, it is running when the chunk
    /// is ready, and the scan and pass 1 hide its start.
    /// - Complexity: O(*n*) in the size of the file.
    public static func parseSyntax(bytes: [UInt8], fileName: String) -> UnvalidatedParse {
        parseSyntax(bytes: bytes, fileName: fileName, threads: defaultParseThreads)
    }

    static func parseSyntax(bytes: [UInt8], fileName: String, threads: Int,
                            minimumChunkBytes: Int = LayoutParser.minimumChunkBytes) -> UnvalidatedParse {
        // As many as the chunks after the first can be; those a file of few
        // lines does not use are released.
        let chunks = chunkCount(byteCount: bytes.count, threads: threads, minimumChunkBytes: minimumChunkBytes)
        let standbys = (1..<chunks).map { _ in StandbyThread() }
        defer { for standby in standbys { standby.release() } }
        return parseSyntax(SourceText(bytes: bytes, fileName: fileName), readsPlainLines: true, threads: threads,
                           minimumChunkBytes: minimumChunkBytes, standbys: standbys)
    }

    /// The syntax stage with or without the plain-line readers (PlainLines.swift),
    /// so that tests can compare the two paths, on up to `threads` threads
    /// (ParallelLines.swift; the result does not depend on the count).
    static func parseSyntax(_ source: SourceText, readsPlainLines: Bool, threads: Int = 1,
                            minimumChunkBytes: Int = LayoutParser.minimumChunkBytes,
                            reserveLimit: Int = FileParser.reserveLimit,
                            standbys: [StandbyThread] = []) -> UnvalidatedParse {
        if let bad = source.firstInvalidUTF8Offset() {
            let diagnostic = Diagnostic(.invalidUTF8, at: source.location(ofOffset: bad))
            return UnvalidatedParse(source: source, layout: nil, diagnostics: [diagnostic])
        }
        var parser = FileParser(source: source, readsPlainLines: readsPlainLines, threads: threads,
                                minimumChunkBytes: minimumChunkBytes, reserveLimit: reserveLimit,
                                standbys: standbys)
        parser.run()
        return UnvalidatedParse(source: source, layout: parser.stopped ? nil : parser.layout, diagnostics: parser.diagnostics)
    }
}

/// What the syntax stage produced: a layout as written (nil after a fatal
/// syntax problem) and the diagnostics so far. Only ``validated()`` makes a
/// ``ParseResult``, so an unvalidated layout cannot be mistaken for a valid one.
public struct UnvalidatedParse: Sendable {
    let source: SourceText
    let layout: Layout?
    let diagnostics: [Diagnostic]

    /// Validates the layout (``Layout/validate()``) and merges its diagnostics
    /// with the syntax stage's, in source order, under the error limit.
    ///
    /// - Complexity: O(*n* log *n*) in the size of the layout.
    public func validated() -> ParseResult {
        // Stopped at the error limit: the syntax stage's list, as it stands.
        if diagnostics.contains(where: { if case .tooManyErrors = $0.kind { return true } else { return false } }) {
            return ParseResult(layout: nil, diagnostics: diagnostics, source: source)
        }
        var diagnostics = diagnostics
        var stopped = false
        var validatedLayout: ValidatedLayout?
        if let layout {
            let validation = layout.validation()
            diagnostics += validation.diagnostics
            validatedLayout = validation.layout
        }
        // Source order, like a compiler; stable for equal locations.
        diagnostics = diagnostics.enumerated().sorted { a, b in
            let l = a.element.location, r = b.element.location
            if let l, let r, l != r { return l < r }
            return a.offset < b.offset
        }.map(\.element)
        // The error limit holds for semantic errors too (a million duplicate
        // views). Why after the sort: the syntax stage reports margins and
        // content lines after every other line, so cutting in the order of
        // the reports showed the 50 errors of the last lines of a file and
        // none of the first.
        let errors = diagnostics.indices.filter { diagnostics[$0].severity == .error }
        if !stopped, errors.count > LayoutParser.errorLimit {
            let cut = errors[LayoutParser.errorLimit - 1]
            diagnostics = Array(diagnostics[...cut])
            diagnostics.append(Diagnostic(.tooManyErrors(limit: LayoutParser.errorLimit), at: diagnostics.last?.location))
            stopped = true
        }
        // "Did you mean" for the views of margins and content lines (the
        // syntax stage reports them without), in source order and as many
        // as validation makes (``Layout/suggestViews(_:)``). Why not as they
        // are reported: each compares the name with every view, so a file
        // of 10^5 content lines for missing views was quadratic (over two
        // minutes for 20,000; docs/measurements.md#m-2026-11-27-parallel-validation).
        layout?.suggestViews(&diagnostics)
        let valid = !(diagnostics.containsErrors || stopped)
        return ParseResult(layout: valid ? layout : nil, diagnostics: diagnostics, source: source,
                           validated: valid ? validatedLayout : nil)
    }
}
