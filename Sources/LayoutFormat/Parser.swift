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
    public func renderedDiagnostics() -> String {
        var out = ""
        var warnings = 0
        for diagnostic in diagnostics {
            if diagnostic.severity == .warning {
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
}

/// Parses the `.layout` format (see the README for the grammar).
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
        parse(SourceText(bytes: bytes, fileName: fileName))
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
        if let bad = source.firstInvalidUTF8Offset() {
            let diagnostic = Diagnostic(.invalidUTF8, at: source.location(ofOffset: bad))
            return UnvalidatedParse(source: source, layout: nil, diagnostics: [diagnostic])
        }
        var parser = FileParser(source: source)
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
        // The error limit holds for semantic errors too (a million duplicate views).
        let errors = diagnostics.indices.filter { diagnostics[$0].severity == .error }
        if !stopped, errors.count > LayoutParser.errorLimit {
            let cut = errors[LayoutParser.errorLimit - 1]
            diagnostics = Array(diagnostics[...cut])
            diagnostics.append(Diagnostic(.tooManyErrors(limit: LayoutParser.errorLimit), at: diagnostics.last?.location))
            stopped = true
        }
        // Source order, like a compiler; stable for equal locations.
        diagnostics = diagnostics.enumerated().sorted { a, b in
            let l = a.element.location, r = b.element.location
            if let l, let r, l != r { return l < r }
            return a.offset < b.offset
        }.map(\.element)
        let valid = !(diagnostics.containsErrors || stopped)
        return ParseResult(layout: valid ? layout : nil, diagnostics: diagnostics, source: source,
                           validated: valid ? validatedLayout : nil)
    }
}

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
    var constraints: [LayoutConstraint] = []
    var expectations: [Expectation] = []

    var layout: Layout?
    /// The file's names, each a `String` once.
    let names = NameTable()

    init(source: SourceText) { self.source = source }

    mutating func run() {
        source.bytes.withUnsafeBufferPointer { bytes in
            // Pass 1: metrics, so that they may be used before their declaration.
            // Why a byte test, not the lexer: pass 1 looked at every line's
            // first two tokens, lexing and interning them a second time.
            var metricLines: [Int] = []
            var constraintLines = 0, expectationLines = 0
            for line in 1...source.lineCount where !stopped {
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
            // Why reserve: at 800,000 constraints (208 bytes each) growing by
            // doubling copied and page-faulted twice the final 166 MB, a third
            // of `check`'s time in the kernel. The counts are exact for
            // one-constraint lines; `when` and visual-format lines still grow
            // the arrays as needed. Why a cap: a 256 MiB file of `a.` lines
            // would otherwise reserve gigabytes of address space for lines
            // that are all errors (the parse stops at the error limit).
            let reserveLimit = 1 << 21
            constraints.reserveCapacity(min(constraintLines, reserveLimit))
            expectations.reserveCapacity(min(expectationLines, reserveLimit))
            // Pass 2: everything else (the metric lines, in order, are skipped).
            var nextMetric = 0
            for line in 1...source.lineCount where !stopped {
                if nextMetric < metricLines.count, metricLines[nextMetric] == line {
                    nextMetric += 1
                    continue
                }
                var cursor = LineCursor(source: source, bytes: bytes, line: line, names: names)
                parseLine(&cursor, pass: 2)
            }
        }
        finish()
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

    // MARK: Declarations

    mutating func parseMetric(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let name = try c.expectName("a metric name")
        try c.expect(.equal, "'='")
        let value = try parseNumber(&c, what: "the metric's value", allowMetrics: false)
        try c.expectEndOfLine(comment: true)
        _ = keyword
        metrics.append(Metric(name: names[name], value: value.value, location: c.location(of: name)))
        if metricValues[names[name]] == nil { metricValues[names[name]] = value.value }
    }

    mutating func parseContainer(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let size = try parseSize(&c)
        let traits = try parseTraits(&c)
        try c.expectEndOfLine(comment: true)
        let location = c.location(of: keyword)
        if container != nil {
            throw LineError(.duplicateContainer, at: location)
        }
        container = (size, traits, location)
    }

    mutating func parseVariant(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        let name = try c.expectName("a variant name")
        let size = try parseSize(&c)
        let traits = try parseTraits(&c)
        try c.expectEndOfLine(comment: true)
        variants.append(Variant(name: names[name], size: size, traits: traits, location: c.location(of: name)))
    }

    mutating func parseViews(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        var declared: [ViewDeclaration] = []
        while c.peek().kind == .name {
            let name = c.take()
            declared.append(ViewDeclaration(name: names[name], location: c.location(of: name)))
        }
        if declared.isEmpty { throw c.unexpected("a view name") }
        try c.expectEndOfLine(comment: true)
        views += declared
    }

    mutating func parseMargins(_ c: inout LineCursor) throws(LineError) {
        _ = c.take()
        let view = try c.expectName("a view name")
        var values: [Double] = []
        for what in ["the top margin", "the left margin", "the bottom margin", "the right margin"] {
            values.append(try parseNumber(&c, what: what).value)
        }
        try c.expectEndOfLine(comment: true)
        margins.append((names[view], EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3]),
                        c.location(of: view)))
    }

    /// `intrinsic VIEW W H` (each a number, a metric or `none`),
    /// `hugging VIEW H V` / `compression VIEW H V` (priorities: numbers, metrics
    /// or `required`, `high`, `low`, `fitting`), `baselines VIEW FIRST LAST`.
    mutating func parseContentLine(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let word = names[keyword]
        let view = try c.expectName("a view name")
        let location = c.location(of: view)
        let value: ContentLine.Value
        switch word {
        case "intrinsic":
            var sizes: [Double?] = []
            for what in ["the intrinsic width (a number, a metric or 'none')", "the intrinsic height (a number, a metric or 'none')"] {
                let token = c.peek()
                if token.kind == .name, names[token] == "none", metricValues["none"] == nil {
                    _ = c.take()
                    sizes.append(nil)
                } else {
                    sizes.append(try parseNumber(&c, what: what).value)
                }
            }
            value = .intrinsic(IntrinsicSize(width: sizes[0], height: sizes[1]))
        case "baselines":
            let first = try parseNumber(&c, what: "the first baseline's distance from the top").value
            let last = try parseNumber(&c, what: "the last baseline's distance from the bottom").value
            value = .baselines(Baselines(first: first, last: last))
        default:
            var priorities: [Priority] = []
            for axis in ["horizontal", "vertical"] {
                let token = c.peek()
                if token.kind == .name, metricValues[names[token]] == nil,
                   let named = Priority.named.first(where: { $0.name == names[token] }) {
                    _ = c.take()
                    priorities.append(named.priority)
                } else {
                    let number = try parseNumber(&c, what: "the \(axis) \(word) priority (1...1000, required, high, low or fitting)")
                    priorities.append(Priority(number.value))
                }
            }
            let pair = AxisPriorities(horizontal: priorities[0], vertical: priorities[1])
            value = word == "hugging" ? .hugging(pair) : .compression(pair)
        }
        try c.expectEndOfLine(comment: true)
        contentLines.append(ContentLine(view: names[view], value: value, location: location))
    }

    /// `W x H` or `W x auto`; `375x812` lexes as three tokens.
    mutating func parseSize(_ c: inout LineCursor) throws(LineError) -> ContainerSize {
        let width = try parseNumber(&c, what: "a width")
        guard names.isName(c.peek(), "x") else { throw c.unexpected("'x' between width and height") }
        _ = c.take()
        if names.isName(c.peek(), "auto") {
            _ = c.take()
            return ContainerSize(width: width.value, height: nil)
        }
        let height = try parseNumber(&c, what: "a height or 'auto'")
        return ContainerSize(width: width.value, height: height.value)
    }

    /// `[traits T1 T2 ...]`.
    mutating func parseTraits(_ c: inout LineCursor) throws(LineError) -> [String] {
        guard names.isName(c.peek(), "traits") else { return [] }
        _ = c.take()
        var traits: [String] = []
        while c.peek().kind == .name { traits.append(names[c.take()]) }
        if traits.isEmpty { throw c.unexpected("a trait name") }
        return traits
    }

    // MARK: Constraints

    /// `when T1, T2: CONSTRAINT`.
    mutating func parseWhen(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        var traits: [String] = [names[try c.expectName("a trait name")]]
        while c.peek().kind == .comma {
            _ = c.take()
            traits.append(names[try c.expectName("a trait name")])
        }
        try c.expect(.colon, "',' or ':' after the traits")
        if c.peek().kind == .name, names[c.peek()] == "H" || names[c.peek()] == "V", c.peek(1).kind == .colon {
            try parseVisualFormat(&c, traits: traits)
            return
        }
        guard c.peek().kind == .name, c.peek(1).kind == .dot else { throw c.unexpected("a constraint 'view.attribute ...'") }
        try parseConstraint(&c, traits: traits, start: c.location(of: keyword))
    }

    /// `ITEM.ATTR REL ITEM.ATTR [(*|/) NUM] [(+|-) NUM] [@ PRIORITY] [# identifier]`
    /// or `ITEM.ATTR REL NUM [@ PRIORITY] [# identifier]`.
    mutating func parseConstraint(_ c: inout LineCursor, traits: [String], start: SourceLocation) throws(LineError) {
        let first = try parseItem(&c)
        let relationToken = c.peek()
        let relation: Relation
        switch relationToken.kind {
        case .equal, .equalEqual: relation = .equal
        case .lessEqual: relation = .lessThanOrEqual
        case .greaterEqual: relation = .greaterThanOrEqual
        default: throw c.unexpected("a relation '=', '==', '<=' or '>='")
        }
        _ = c.take()
        var locations = ConstraintLocations(start: start, relation: c.location(of: relationToken))

        var second: ItemAttribute?
        var multiplier = 1.0
        var constant = 0.0
        if c.peek().kind == .name, c.peek(1).kind == .dot {
            second = try parseItem(&c)
            switch c.peek().kind {
            case .star, .slash:
                let op = c.take()
                let value = try parseNumber(&c, what: "a multiplier")
                locations.multiplier = value.location
                if op.kind == .slash {
                    if value.value == 0 { throw LineError(.divisionByZero, at: value.location) }
                    multiplier = 1 / value.value
                } else {
                    multiplier = value.value
                }
            default: break
            }
            switch c.peek().kind {
            case .plus, .minus:
                let op = c.take()
                let value = try parseNumber(&c, what: "a constant")
                locations.constant = value.location
                constant = op.kind == .minus ? -value.value : value.value
            default: break
            }
        } else {
            let value = try parseNumber(&c, what: "'view.attribute' or a number")
            locations.constant = value.location
            constant = value.value
            if c.peek().kind == .star, c.peek(1).kind == .name {
                throw LineError(.misplacedMultiplier, at: value.location)
            }
        }

        var priority = Priority.required
        if c.peek().kind == .at {
            _ = c.take()
            let token = c.peek()
            if token.kind == .name, metricValues[names[token]] == nil,
               let named = Priority.named.first(where: { $0.name == names[token] }) {
                _ = c.take()
                priority = named.priority
                locations.priority = c.location(of: token)
            } else {
                let value = try parseNumber(&c, what: "a priority (1...1000, required, high, low or fitting)")
                priority = Priority(value.value)
                locations.priority = value.location
            }
        }

        var identifier: String?
        if c.peek().kind == .hash {
            let text = c.comment(of: c.take())
            identifier = text.isEmpty ? nil : text
        }
        try c.expectEndOfLine(comment: false)

        constraints.append(LayoutConstraint(first, relation, second, multiplier: multiplier, constant: constant,
                                            priority: priority, identifier: identifier, traits: traits,
                                            locations: locations))
    }

    /// `NAME.ATTRIBUTE`.
    mutating func parseItem(_ c: inout LineCursor) throws(LineError) -> ItemAttribute {
        let item = try c.expectName("a view name")
        try c.expect(.dot, "'.' after the view name")
        let attributeToken = c.peek()
        guard attributeToken.kind == .name else { throw c.unexpected("an attribute") }
        _ = c.take()
        guard let attribute = names.attribute(attributeToken.nameID) else {
            let known = Attribute.allCases.map(\.rawValue)
            throw LineError(.unknownAttribute(names[attributeToken], suggestion: suggest(names[attributeToken], among: known)),
                            at: c.location(of: attributeToken))
        }
        return ItemAttribute(names[item], attribute, location: c.location(of: item))
    }

    // MARK: Expectations

    /// `expect [VARIANT] VIEW = X Y W H [observed SOURCE] [within TOL]`, `expect [VARIANT] unsatisfiable`,
    /// `expect [VARIANT] ambiguous VIEW ...`.
    mutating func parseExpect(_ c: inout LineCursor) throws(LineError) {
        let keyword = c.take()
        let location = c.location(of: keyword)
        var variant: String?

        // Why this order: a view may be called `ambiguous`; `NAME =` is always a
        // frame, and a keyword not followed by `=` is the keyword.
        for round in 0..<2 {
            let word = try c.expectName(round == 0 ? "a variant, a view, 'unsatisfiable' or 'ambiguous'"
                                                   : "a view, 'unsatisfiable' or 'ambiguous'")
            if c.peek().kind == .equal || c.peek().kind == .equalEqual {
                _ = c.take()
                // Why four calls, not a loop over the names: a message built per
                // component was a string per expect line.
                let x = try parseNumber(&c, what: "the expected x").value
                let y = try parseNumber(&c, what: "the expected y").value
                let width = try parseNumber(&c, what: "the expected width").value
                let height = try parseNumber(&c, what: "the expected height").value
                // `observed SOURCE`: another engine's answer (reported apart);
                // `within TOL`: this frame's own absolute tolerance.
                var observedBy: String?
                var tolerance: Double?
                if c.peek().kind == .name, names[c.peek()] == "observed" {
                    _ = c.take()
                    observedBy = names[try c.expectName("who observed the frame (e.g. 'xcode')")]
                }
                if c.peek().kind == .name, names[c.peek()] == "within" {
                    _ = c.take()
                    let parsed = try parseNumber(&c, what: "the tolerance after 'within'")
                    guard parsed.value >= 0, parsed.value.isFinite else {
                        throw LineError(.unexpectedToken(expected: "a tolerance >= 0", found: formatNumber(parsed.value)), at: parsed.location)
                    }
                    tolerance = parsed.value
                }
                try c.expectEndOfLine(comment: true)
                let frame = Frame(x: x, y: y, width: width, height: height)
                expectations.append(Expectation(variant: variant, .frame(view: names[word], frame), observedBy: observedBy,
                                                tolerance: tolerance, location: location))
                return
            }
            if names[word] == "unsatisfiable" {
                try c.expectEndOfLine(comment: true)
                expectations.append(Expectation(variant: variant, .unsatisfiable, location: location))
                return
            }
            if names[word] == "ambiguous" {
                var views: [String] = []
                while c.peek().kind == .name { views.append(names[c.take()]) }
                try c.expectEndOfLine(comment: true)
                expectations.append(Expectation(variant: variant, .ambiguous(views: views), location: location))
                return
            }
            if round == 1 { throw c.unexpected("'=' after the view name") }
            variant = names[word] == Layout.defaultVariantName ? nil : names[word]
        }
    }

    // MARK: Numbers

    /// Whether a name is a metric (known from the first pass).
    func isMetric(_ name: String) -> Bool { metricValues[name] != nil }

    /// `[+|-] (NUMBER | METRIC)`.
    mutating func parseNumber(_ c: inout LineCursor, what: String, allowMetrics: Bool = true) throws(LineError)
        -> (value: Double, location: SourceLocation)
    {
        var sign = 1.0
        let start = c.peek()
        if start.kind == .minus || start.kind == .plus {
            _ = c.take()
            if start.kind == .minus { sign = -1 }
        }
        let token = c.peek()
        switch token.kind {
        case .number:
            _ = c.take()
            let value = token.number
            guard value.isFinite else { throw LineError(.numberOutOfRange(c.text(of: token)), at: c.location(of: token)) }
            return (sign * value, c.location(of: start))
        case .name where allowMetrics && c.peek(1).kind != .dot:
            _ = c.take()
            guard let value = metricValues[names[token]] else {
                throw LineError(.unknownMetric(names[token], expected: what), at: c.location(of: token))
            }
            return (sign * value, c.location(of: start))
        default:
            throw c.unexpected(what)
        }
    }

    // MARK: Assembly

    mutating func finish() {
        guard !stopped else { return }
        guard let container else {
            report(.missingContainer, at: SourceLocation(file: source.fileName, line: 1, column: 1))
            return
        }
        var layout = Layout(container: container.size, containerTraits: container.traits, views: views,
                            metrics: metrics, constraints: constraints, variants: variants,
                            expectations: expectations, containerLocation: container.location)
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
                diagnostics.append(Diagnostic(.undeclaredView(entry.view, suggestion: suggest(entry.view, among: layout.views.map(\.name))), at: entry.location))
            }
        }
        applyContentLines(to: &layout, viewIndex: viewIndex)
        // Validation is the next stage (``UnvalidatedParse/validated()``).
        self.layout = layout
    }
}

/// One `intrinsic`, `hugging`, `compression` or `baselines` line, applied to
/// its view once every view is declared (a view may be declared later).
struct ContentLine {
    enum Value {
        case intrinsic(IntrinsicSize)
        case hugging(AxisPriorities)
        case compression(AxisPriorities)
        case baselines(Baselines)

        var keyword: String {
            switch self {
            case .intrinsic: return "intrinsic"
            case .hugging: return "hugging"
            case .compression: return "compression"
            case .baselines: return "baselines"
            }
        }
    }
    var view: String
    var value: Value
    var location: SourceLocation
}

extension FileParser {
    /// Gives each content line to its view: a second line of a kind for one
    /// view, the container, or an undeclared view is an error at the line.
    mutating func applyContentLines(to layout: inout Layout, viewIndex: NameIndex) {
        guard !contentLines.isEmpty else { return }
        for line in contentLines {
            let keyword = line.value.keyword
            if line.view == Layout.containerName {
                diagnostics.append(Diagnostic(.contentOnContainer(keyword: keyword), at: line.location))
                continue
            }
            guard let i = viewIndex[line.view] else {
                diagnostics.append(Diagnostic(.undeclaredView(line.view, suggestion: suggest(line.view, among: layout.views.map(\.name))), at: line.location))
                continue
            }
            var content = layout.views[i].content
            /// Sets a field once; returns where it was first set if it already was.
            func setOnce<T>(_ value: T, _ field: WritableKeyPath<ViewContent, T?>,
                            _ location: WritableKeyPath<ViewContent, SourceLocation?>) -> SourceLocation?? {
                if content[keyPath: field] != nil { return .some(content[keyPath: location]) }
                content[keyPath: field] = value
                content[keyPath: location] = line.location
                return nil
            }
            let previous: SourceLocation??
            switch line.value {
            case .intrinsic(let size): previous = setOnce(size, \.intrinsicSize, \.intrinsicLocation)
            case .hugging(let p): previous = setOnce(p, \.hugging, \.huggingLocation)
            case .compression(let p): previous = setOnce(p, \.compression, \.compressionLocation)
            case .baselines(let b): previous = setOnce(b, \.baselines, \.baselinesLocation)
            }
            if let previous {
                diagnostics.append(Diagnostic(.duplicateContentLine(keyword: keyword, view: line.view), at: line.location,
                                              notes: [.init("first set here", at: previous)]))
                continue
            }
            layout.views[i].content = content
        }
    }
}

/// A syntax error on one line: the line is skipped.
struct LineError: Error {
    var kind: DiagnosticKind
    var location: SourceLocation
    init(_ kind: DiagnosticKind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

/// Tokens of one line with lookahead of two (all the grammar needs).
struct LineCursor {
    /// Why not the ``SourceText``: a cursor is made per line, and copying
    /// the source's three references into it was a retain and release each.
    private let fileID: UInt32
    private var lexer: Lexer
    /// Lookahead: `count` tokens buffered in `first`, `second`.
    private var first = Token(kind: .end, offset: 0, end: 0)
    private var second = Token(kind: .end, offset: 0, end: 0)
    private var count = 0
    /// The line, for locations without a search of the line table.
    private let line: Int
    private let lineStart: Int

    private let bytes: UnsafeBufferPointer<UInt8>
    private let names: NameTable

    /// A cursor over line `line`; `bytes` are `source.bytes`, valid while the cursor is used.
    init(source: SourceText, bytes: UnsafeBufferPointer<UInt8>, line: Int, names: NameTable) {
        self.fileID = source.fileID
        self.bytes = bytes
        self.names = names
        let range = source.lineRange(line)
        self.lexer = Lexer(bytes: bytes, range: range, names: names)
        self.line = line
        self.lineStart = source.lineStarts[line - 1]
    }

    /// The next token (`k` = 0) or the one after (`k` = 1); after the end of
    /// the line or a comment, that token again.
    @inline(__always) mutating func peek(_ k: Int = 0) -> Token {
        if count == 0 {
            first = lexer.next()
            count = 1
        }
        if k == 0 { return first }
        if count == 1 {
            second = first.kind == .end || first.kind == .hash ? first : lexer.next()
            count = 2
        }
        return second
    }

    @inline(__always) mutating func take() -> Token {
        let token = peek()
        first = second
        count -= 1
        return token
    }

    func location(of token: Token) -> SourceLocation {
        SourceLocation(fileID: fileID, line: line, column: token.offset - lineStart + 1)
    }

    /// The token's text as written (names, numbers, punctuation).
    func text(of token: Token) -> String {
        token.kind == .name ? names[token] : String(decoding: UnsafeBufferPointer(rebasing: bytes[token.offset..<token.end]), as: UTF8.self)
    }

    /// A comment's text, after `#`, trimmed.
    func comment(of token: Token) -> String {
        guard token.kind == .hash, token.offset + 1 <= token.end else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(token.offset + 1)..<token.end]), as: UTF8.self)
            .trimmingCharacters(in: " \t\r")
    }

    /// How a message names the token: `'foo'`, `end of line`.
    func quoted(_ token: Token) -> String {
        switch token.kind {
        case .end: return "end of line"
        case .hash: return "'#'"
        case .invalid: return Lexer.describeInvalid(bytes, token.offset..<token.end)
        default:
            let text = text(of: token)
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            return "'\(shown)'"
        }
    }

    /// The error for an unexpected token (an invalid character reads as such).
    mutating func unexpected(_ expected: String) -> LineError {
        let token = peek()
        if token.kind == .invalid {
            return LineError(.unexpectedCharacter(quoted(token)), at: location(of: token))
        }
        return LineError(.unexpectedToken(expected: expected, found: quoted(token)), at: location(of: token))
    }

    mutating func expectName(_ what: String) throws(LineError) -> Token {
        guard peek().kind == .name else { throw unexpected(what) }
        return take()
    }

    mutating func expect(_ kind: Token.Kind, _ what: String) throws(LineError) {
        guard peek().kind == kind else { throw unexpected(what) }
        _ = take()
    }

    /// End of line, or a trailing `# comment` where `comment` allows it.
    mutating func expectEndOfLine(comment: Bool) throws(LineError) {
        let token = peek()
        if token.kind == .end { return }
        if comment, token.kind == .hash { return }
        throw unexpected("end of line")
    }
}

/// The closest name, for "did you mean" (``NameSuggestion``).
func suggest(_ word: String, among names: [String]) -> String? { NameSuggestion.closest(to: word, among: names) }
