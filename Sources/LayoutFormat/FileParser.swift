// The state of parsing one `.layout` file: its two passes over the lines,
// the dispatch of each line to its parser, error reporting under the limit,
// and the assembly of the layout at the end. The line parsers are in
// DeclarationParsing, ContentLines, ConstraintParsing, VisualFormatParser,
// ExpectParsing and NumberParsing.

import LayoutModel

/// The state of parsing one file.
struct FileParser {
    let source: SourceText
    var diagnostics: [Diagnostic] = []
    var errorCount = 0
    var stopped = false

    // Collected declarations.
    var metrics: [Metric] = []
    var metricValues: [String: Double] = [:]
    var container: (size: ContainerSize, traits: [String], location: SourceLocation)?
    var views: [ViewDeclaration] = []
    var margins: [(view: String, insets: EdgeInsets, location: SourceLocation)] = []
    var contentLines: [ContentLine] = []
    var variants: [Variant] = []
    /// Where the lines' constraints and expectations go: the current
    /// chunk's region of the arrays being built in place (ValueSlots.swift).
    var constraints = ValueSlots<LayoutConstraint>()
    var expectations = ValueSlots<Expectation>()
    /// The arrays, once pass 2 is done (``run()``).
    var builtConstraints: [LayoutConstraint] = []
    var builtExpectations: [Expectation] = []

    var layout: Layout?
    /// The file's names, each a `String` once.
    let names = NameTable()
    /// Whether plain lines go through the byte readers (PlainLines.swift)
    /// before the general parser; off only in tests that compare the two.
    let readsPlainLines: Bool
    /// The threads pass 2 may use (ParallelLines.swift), and the fewest
    /// bytes a chunk of lines read by one of them has.
    let threads: Int
    let minimumChunkBytes: Int
    /// The most values the arrays are sized for before the parse
    /// (``reserveLimit``; tests make it small, to overflow the regions).
    let reserveLimit: Int

    /// Threads started ahead for the chunks after the first, in order
    /// (``LayoutParser/parseSyntax(bytes:fileName:)``); a chunk without one
    /// starts a thread of its own.
    let standbys: [StandbyThread]

    init(source: SourceText, readsPlainLines: Bool = true, threads: Int = 1,
         minimumChunkBytes: Int = LayoutParser.minimumChunkBytes, reserveLimit: Int = FileParser.reserveLimit,
         standbys: [StandbyThread] = []) {
        self.source = source
        self.readsPlainLines = readsPlainLines
        self.threads = threads
        self.minimumChunkBytes = minimumChunkBytes
        self.reserveLimit = reserveLimit
        self.standbys = standbys
    }

    mutating func run() {
        source.bytes.withUnsafeBufferPointer { bytes in
            // Pass 2's chunks (ParallelLines.swift; one chunk for a small file).
            let starts = readsPlainLines
                ? chunkStarts(lineStarts: source.lineStarts, byteCount: bytes.count, threads: threads,
                              minimumChunkBytes: minimumChunkBytes)
                : [1]
            let (metricLines, counts) = readMetricsAndCount(bytes, chunkStarts: starts)
            // Why the arrays built in place, each chunk's values written in a
            // region of their own (ValueSlots.swift): no value is moved from a
            // chunk's thread to the main thread.
            let constraintSizes = Self.regionSizes(counts.map(\.constraints), limit: reserveLimit)
            let expectationSizes = Self.regionSizes(counts.map(\.expectations), limit: reserveLimit)
            var constraintRegions: [ValueSlots<LayoutConstraint>] = []
            builtConstraints = arrayBuiltInPlace(capacity: constraintSizes.reduce(0, +)) { constraintStorage in
                builtExpectations = arrayBuiltInPlace(capacity: expectationSizes.reduce(0, +)) { expectationStorage in
                    let regions = parseRest(bytes, chunkStarts: starts, metricLines: metricLines,
                                            constraints: Self.regions(of: constraintStorage, sizes: constraintSizes),
                                            expectations: Self.regions(of: expectationStorage, sizes: expectationSizes))
                    constraintRegions = regions.constraints
                    return regions.expectations
                }
                defer { constraintRegions = [] }
                return constraintRegions
            }
        }
        finish()
    }

    /// The regions' sizes: the chunks' counts, scaled down to `limit` in all.
    static func regionSizes(_ counts: [Int], limit: Int) -> [Int] {
        let total = counts.reduce(0, +)
        guard total > limit else { return counts }
        return counts.map { Int(Double($0) * Double(limit) / Double(total)) }
    }

    /// Consecutive regions of `storage` with the given sizes, from its start.
    static func regions<Element>(of storage: UnsafeMutableBufferPointer<Element>, sizes: [Int]) -> [ValueSlots<Element>] {
        var offset = 0
        return sizes.map { size in
            defer { offset += size }
            return ValueSlots(storage, offset: offset, capacity: size)
        }
    }

    /// Why a cap on reservations: a 256 MiB file of `a.` lines would
    /// otherwise reserve gigabytes of address space for lines that are all
    /// errors (the parse stops at the error limit).
    static let reserveLimit = 1 << 21

    /// Pass 1: the metric lines, parsed (so that metrics may be used before
    /// their declaration), and the constraint and expectation lines counted,
    /// to reserve the arrays.
    ///
    /// Why the first byte decides most lines: a metric declaration's first
    /// word is `metric` and an expectation's `expect`, after any blanks. A
    /// line that starts with another name start is counted as a constraint
    /// line without a look at its words unless it starts with the keyword
    /// of another declaration (``startsDeclaration(_:at:first:)``), and one
    /// that starts with `expect` and a blank as an expectation; only the rest
    /// (an `m`, a blank, a `#`, anything else) gets the line-shape test.
    /// (Pass 1 once lexed every line's first two tokens, then shape-tested
    /// every line of a file containing the word `metric` anywhere: a search of
    /// the whole file first, stopped at every `bottom` of a grid.)
    /// - Returns: the metric lines, ascending, and each chunk's count of
    ///   constraint and expectation lines (`chunkStarts`: the chunks' first lines).
    /// - Complexity: O(lines), plus the metric lines' parse.
    mutating func readMetricsAndCount(_ bytes: UnsafeBufferPointer<UInt8>, chunkStarts: [Int])
        -> (metricLines: [Int], counts: [(constraints: Int, expectations: Int)]) {
        var metricLines: [Int] = []
        var counts = [(constraints: Int, expectations: Int)](repeating: (0, 0), count: max(1, chunkStarts.count))
        // The chunks' lines, each chunk counted by itself (no test of a
        // chunk's end at every line).
        let chunkEnds = chunkStarts.dropFirst().map { min($0, source.lineCount + 1) } + [source.lineCount + 1]
        for chunk in counts.indices {
            let first = chunk == 0 ? 1 : chunkStarts[chunk]
            let lines = first..<max(first, chunkEnds[chunk])
            counts[chunk] = countLines(bytes, lines, metricLines: &metricLines)
        }
        // Why counted: the arrays are sized by these counts before pass 2
        // (``run()``). Growing by doubling copied every constraint again at
        // each doubling and page-faulted up to twice the final size, time
        // spent in the kernel (evidence: docs/measurements.md#m-2026-11-23-check).
        // The counts are exact for one-constraint lines; `when` and
        // visual-format lines overflow their chunk's region (ValueSlots.swift).
        return (metricLines, counts)
    }

    /// Pass 1 over `lines`: their metric lines parsed and appended to
    /// `metricLines`, their constraint and expectation lines counted.
    /// - Complexity: O(lines), plus the metric lines' parse.
    private mutating func countLines(_ bytes: UnsafeBufferPointer<UInt8>, _ lines: Range<Int>, metricLines: inout [Int])
        -> (constraints: Int, expectations: Int) {
        var constraintLines = 0, expectationLines = 0
        for line in lines where !stopped {
            let start = source.lineStarts[line - 1]
            if start < bytes.count {
                let b = bytes[start]
                if b != UInt8(ascii: "m"), b != UInt8(ascii: "e"), Lexer.isNameStart(b) {
                    if !Self.startsDeclaration(bytes, at: start, first: b) { constraintLines += 1 }
                    continue
                }
                if b == UInt8(ascii: "e"), Self.startsKeyword("expect", bytes, at: start) {
                    expectationLines += 1
                    continue
                }
            }
            switch Lexer.shape(bytes, source.lineRange(line)) {
            case .metricDeclaration:
                metricLines.append(line)
                var cursor = LineCursor(source: source, bytes: bytes, line: line, names: names)
                parseLine(&cursor, pass: 1)
            case .constraint: constraintLines += 1
            case .expectation: expectationLines += 1
            case .other: break
            }
        }
        return (constraintLines, expectationLines)
    }

    /// Pass 2: everything else (the metric lines, in order, are skipped),
    /// the chunks after the first read on threads of their own when the
    /// file is large (ParallelLines.swift), each chunk's values written in
    /// its region (`constraints[k]`, `expectations[k]`: one a chunk).
    /// - Returns: the regions, filled, in order (the main thread's last
    ///   appends in each are the lines its chunk's thread left).
    /// - Complexity: O(bytes).
    mutating func parseRest(_ bytes: UnsafeBufferPointer<UInt8>, chunkStarts starts: [Int], metricLines: [Int],
                            constraints constraintRegions: [ValueSlots<LayoutConstraint>],
                            expectations expectationRegions: [ValueSlots<Expectation>])
        -> (constraints: [ValueSlots<LayoutConstraint>], expectations: [ValueSlots<Expectation>]) {
        func region<T>(_ regions: [ValueSlots<T>], _ k: Int) -> ValueSlots<T> {
            k < regions.count ? regions[k] : ValueSlots()
        }
        var chunks: [PlainChunk] = []
        for k in 1..<max(1, starts.count) where !stopped {
            let end = k + 1 < starts.count ? starts[k + 1] : source.lineCount + 1
            let chunk = PlainChunk(source: source, bytes: bytes, lines: starts[k]..<end, metricLines: metricLines,
                                   constraints: region(constraintRegions, k), expectations: region(expectationRegions, k))
            chunk.start(on: k - 1 < standbys.count ? standbys[k - 1] : nil)
            chunks.append(chunk)
        }
        constraints = region(constraintRegions, 0)
        expectations = region(expectationRegions, 0)
        var filledConstraints: [ValueSlots<LayoutConstraint>] = []
        var filledExpectations: [ValueSlots<Expectation>] = []
        var nextMetric = 0
        // Lines `lines` with every reader, in order.
        func parseLines(_ lines: Range<Int>) {
            for line in lines where !stopped {
                while nextMetric < metricLines.count, metricLines[nextMetric] < line { nextMetric += 1 }
                if nextMetric < metricLines.count, metricLines[nextMetric] == line { continue }
                // Why try the plain readers first: they take almost every
                // line of a large file at a fraction of the general parser's
                // cost, and decline any other line without a trace.
                if readsPlainLines, parsePlainLine(bytes, line: line) { continue }
                var cursor = LineCursor(source: source, bytes: bytes, line: line, names: names)
                parseLine(&cursor, pass: 2)
            }
        }
        parseLines(1..<(starts.count > 1 ? starts[1] : source.lineCount + 1))
        for chunk in chunks {
            // Every thread is joined before `bytes` goes out of scope (the
            // caller's), even after the error limit stopped the parse, and
            // every region is handed back, to be closed up (its values are
            // the array's, whether or not the layout is kept).
            chunk.join()
            filledConstraints.append(constraints)
            filledExpectations.append(expectations)
            constraints = chunk.parser.constraints
            expectations = chunk.parser.expectations
            chunk.parser.constraints = ValueSlots()
            chunk.parser.expectations = ValueSlots()
            guard !stopped else { continue }
            views.append(contentsOf: chunk.parser.views)
            contentLines.append(contentsOf: chunk.parser.contentLines)
            parseLines(chunk.resumeLine..<chunk.lines.upperBound)
        }
        filledConstraints.append(constraints)
        filledExpectations.append(expectations)
        constraints = ValueSlots()
        expectations = ValueSlots()
        return (filledConstraints, filledExpectations)
    }

    /// Whether the bytes at `start` are `keyword` and a blank (for pass
    /// 1's count only).
    static func startsKeyword(_ keyword: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let length = keyword.utf8CodeUnitCount
        guard start + length < bytes.count else { return false }
        for k in 0..<length where bytes[start + k] != keyword.utf8Start[k] { return false }
        return bytes[start + length] == UInt8(ascii: " ") || bytes[start + length] == UInt8(ascii: "\t")
    }

    /// Whether the line at `start` (first byte `first`) starts with the
    /// keyword of a declaration that makes no constraint: `views`,
    /// `variant`, `container` and the content lines (`intrinsic`,
    /// `hugging`, `compression`, `baselines`).
    ///
    /// Why pass 1 tells them apart: the regions of the arrays are sized by
    /// its counts (ValueSlots.swift), and a region sized for lines that make
    /// no value is closed up with a `memmove` of every later region: 5 ms of
    /// a 10^5-row grid's parse for its 20,000 `views` lines, where this test
    /// costs a compare or two on the lines that start with these letters.
    static func startsDeclaration(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, first: UInt8) -> Bool {
        switch first {
        case UInt8(ascii: "v"): return startsKeyword("views", bytes, at: start) || startsKeyword("variant", bytes, at: start)
        case UInt8(ascii: "c"):
            return startsKeyword("container", bytes, at: start) || startsKeyword("compression", bytes, at: start)
        case UInt8(ascii: "i"): return startsKeyword("intrinsic", bytes, at: start)
        case UInt8(ascii: "h"): return startsKeyword("hugging", bytes, at: start)
        case UInt8(ascii: "b"): return startsKeyword("baselines", bytes, at: start)
        default: return false
        }
    }

    mutating func report(_ kind: DiagnosticKind, at location: SourceLocation, severity: Diagnostic.Severity = .error) {
        guard !stopped else { return }
        diagnostics.append(Diagnostic(severity, kind, at: location))
        if severity == .error { errorCount += 1 }
        if errorCount >= LayoutParser.errorLimit {
            diagnostics.append(Diagnostic(.tooManyErrors(limit: LayoutParser.errorLimit), at: location))
            stopped = true
        }
    }

    mutating func parseLine(_ c: inout LineCursor, pass: Int) {
        do throws(LineError) {
            let first = c.peek()
            switch first.kind {
            case .end, .hash:
                return  // blank line or comment
            case .name where c.peek(1).kind == .dot:
                try parseConstraint(&c, traits: [], start: c.location(of: first))
            case .name where names.lineKeyword(first.nameID) == .visualFormat && c.peek(1).kind == .colon:
                try parseVisualFormat(&c, traits: [])
            case .name:
                switch names.lineKeyword(first.nameID) {
                case .metric: try parseMetric(&c)
                case .container: try parseContainer(&c)
                case .views: try parseViews(&c)
                case .margins: try parseMargins(&c)
                case .content: try parseContentLine(&c)
                case .variant: try parseVariant(&c)
                case .when: try parseWhen(&c)
                case .expect: try parseExpect(&c)
                case .visualFormat, nil:
                    throw LineError(.unknownKeyword(names[first], suggestion: suggest(names[first], among: LayoutParser.keywords)),
                                    at: c.location(of: first))
                }
            case .invalid:
                throw LineError(.unexpectedCharacter(c.quoted(first)), at: c.location(of: first))
            default:
                throw LineError(.unexpectedToken(expected: "a keyword or 'view.attribute'", found: c.quoted(first)),
                                at: c.location(of: first))
            }
        } catch {
            report(error.kind, at: error.location)
        }
    }

    // MARK: Assembly

    mutating func finish() {
        guard !stopped else { return }
        guard let container else {
            report(.missingContainer, at: SourceLocation(file: source.fileName, line: 1, column: 1))
            return
        }
        // Why the views handed over (the parser's list emptied): the margins
        // and content lines below change the layout's views, and with a second
        // reference in the parser the first change copied the whole list.
        // (The constraints and expectations likewise.)
        var declared: [ViewDeclaration] = []
        swap(&declared, &views)
        var madeConstraints: [LayoutConstraint] = []
        swap(&madeConstraints, &builtConstraints)
        var madeExpectations: [Expectation] = []
        swap(&madeExpectations, &builtExpectations)
        var layout = Layout(container: container.size, containerTraits: container.traits, views: consume declared,
                            metrics: metrics, constraints: consume madeConstraints, variants: variants,
                            expectations: consume madeExpectations, containerLocation: container.location)
        var seenMargins: [String: SourceLocation] = [:]
        // Why an index: a file may give margins for every view (linear, not views × margins).
        let viewIndex = !margins.isEmpty || !contentLines.isEmpty ? NameIndex(layout.views.map(\.name)) : NameIndex()
        for entry in margins {
            if let previous = seenMargins[entry.view] {
                diagnostics.append(Diagnostic(.duplicateMargins(entry.view), at: entry.location,
                                              notes: [.init("first set here", at: previous)]))
                continue
            }
            seenMargins[entry.view] = entry.location
            if entry.view == Layout.containerName {
                layout.containerMargins = entry.insets
                layout.containerMarginsLocation = entry.location
            } else if let i = viewIndex[entry.view] {
                layout.views[i].margins = entry.insets
                layout.views[i].marginsLocation = entry.location
            } else {
                diagnostics.append(Diagnostic(.undeclaredView(entry.view, suggestion: nil), at: entry.location))
            }
        }
        applyContentLines(to: &layout, viewIndex: viewIndex)
        // Validation is the next stage (``UnvalidatedParse/validated()``).
        self.layout = layout
    }
}

/// The closest name, for "did you mean" (``NameSuggestion``).
func suggest(_ word: String, among names: [String]) -> String? { NameSuggestion.closest(to: word, among: names) }
