// The content lines of a `.layout` file (`intrinsic`, `hugging`, `compression`,
// `baselines`): parsing one, and giving each to its view once all are declared.

import LayoutModel

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
            // Two fields, unrolled: no array per line (a content-sized table has one line per view).
            let width = try intrinsicField(&c, "the intrinsic width (a number, a metric or 'none')")
            let height = try intrinsicField(&c, "the intrinsic height (a number, a metric or 'none')")
            value = .intrinsic(IntrinsicSize(width: width, height: height))
        case "baselines":
            let first = try parseNumber(&c, what: "the first baseline's distance from the top").value
            let last = try parseNumber(&c, what: "the last baseline's distance from the bottom").value
            value = .baselines(Baselines(first: first, last: last))
        default:
            let horizontal = try priorityField(&c, axis: "horizontal", word: word)
            let vertical = try priorityField(&c, axis: "vertical", word: word)
            let pair = AxisPriorities(horizontal: horizontal, vertical: vertical)
            value = word == "hugging" ? .hugging(pair) : .compression(pair)
        }
        try c.expectEndOfLine(comment: true)
        contentLines.append(ContentLine(view: names[view], value: value, location: location))
    }

    /// An intrinsic width or height: a number, a metric, or `none` (nil).
    private mutating func intrinsicField(_ c: inout LineCursor, _ what: StaticString) throws(LineError) -> Double? {
        let token = c.peek()
        if token.kind == .name, names[token] == "none", metricValues["none"] == nil {
            _ = c.take()
            return nil
        }
        return try parseNumber(&c, what: "\(what)").value
    }

    /// A hugging or compression priority: a number, a metric, or a priority word.
    private mutating func priorityField(_ c: inout LineCursor, axis: StaticString, word: String) throws(LineError) -> Priority {
        let token = c.peek()
        if token.kind == .name, metricValues[names[token]] == nil,
           let named = Priority.named.first(where: { $0.name == names[token] }) {
            _ = c.take()
            return named.priority
        }
        return Priority(try parseNumber(&c, what: "the \(axis) \(word) priority (1...1000, required, high, low or fitting)").value)
    }
}

extension FileParser {
    /// Gives each content line to its view: a second line of a kind for one
    /// view, the container, or an undeclared view is an error at the line.
    mutating func applyContentLines(to layout: inout Layout, viewIndex: NameIndex) {
        guard !contentLines.isEmpty else { return }
        // Why one view's content at a time: a view's lines usually follow each
        // other (intrinsic, hugging, baselines), and each store of a view's
        // content makes a new box; it is stored once its lines end.
        // Why the lines through a buffer, the fields set in place and the
        // previous line's view remembered: this runs on one thread after the
        // parse, once per content line, and the generic key-path setters,
        // a copy of each line and of the content (twice) and a hashed lookup
        // of each line's view were about a thousand instructions a line (a
        // fifth of the syntax stage of self-sizing rows).
        var current = -1
        var currentView = ""
        var content = ViewContent.none
        defer { if current >= 0 { layout.views[current].content = content } }
        contentLines.withUnsafeBufferPointer { lines in
            for k in lines.indices {
                let view = lines[k].view
                let location = lines[k].location
                if view != currentView || current < 0 {
                    if view == Layout.containerName {
                        diagnostics.append(Diagnostic(.contentOnContainer(keyword: lines[k].value.keyword), at: location))
                        continue
                    }
                    guard let i = viewIndex[view] else {
                        diagnostics.append(Diagnostic(.undeclaredView(view, suggestion: nil), at: location))
                        continue
                    }
                    if i != current {
                        if current >= 0 { layout.views[current].content = content }
                        current = i
                        content = layout.views[i].content
                    }
                    currentView = view
                }
                // Where the field was first set when it already was (a duplicate line).
                let previous: SourceLocation??
                switch lines[k].value {
                case .intrinsic(let size):
                    previous = Self.setOnce(size, &content.intrinsicSize, &content.intrinsicLocation, at: location)
                case .hugging(let p):
                    previous = Self.setOnce(p, &content.hugging, &content.huggingLocation, at: location)
                case .compression(let p):
                    previous = Self.setOnce(p, &content.compression, &content.compressionLocation, at: location)
                case .baselines(let b):
                    previous = Self.setOnce(b, &content.baselines, &content.baselinesLocation, at: location)
                }
                if let previous {
                    diagnostics.append(Diagnostic(.duplicateContentLine(keyword: lines[k].value.keyword, view: view),
                                                  at: location, notes: [.init("first set here", at: previous)]))
                }
            }
        }
    }

    /// Sets `field` to `value` and `fieldLocation` to `location` unless the
    /// field is set; then returns where it was set (nil when it was not).
    @inline(__always)
    private static func setOnce<T>(_ value: T, _ field: inout T?, _ fieldLocation: inout SourceLocation?,
                                   at location: SourceLocation) -> SourceLocation?? {
        if field != nil { return .some(fieldLocation) }
        field = value
        fieldLocation = location
        return nil
    }
}
