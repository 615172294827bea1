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
        // Why a pending view: a view's lines usually follow each other
        // (intrinsic, hugging, baselines), and each store of a view's content
        // made a new box; its content is stored once its lines end.
        var pending: (index: Int, content: ViewContent)?
        func flush() {
            if let (index, content) = pending { layout.views[index].content = content }
            pending = nil
        }
        defer { flush() }
        for line in contentLines {
            let keyword = line.value.keyword
            if line.view == Layout.containerName {
                diagnostics.append(Diagnostic(.contentOnContainer(keyword: keyword), at: line.location))
                continue
            }
            guard let i = viewIndex[line.view] else {
                diagnostics.append(Diagnostic(.undeclaredView(line.view, suggestion: nil), at: line.location))
                continue
            }
            if let current = pending, current.index != i { flush() }
            var content = pending?.content ?? layout.views[i].content
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
            pending = (i, content)
        }
    }
}
