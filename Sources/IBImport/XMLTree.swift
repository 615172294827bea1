/// A small, closed XML reader for Interface Builder files.
///
/// Why our own reader and not Foundation's `XMLParser`: IB files are
/// untrusted data (a downloaded corpus), and this reader has no way to reach
/// outside the bytes it is given. It reads elements, attributes, character
/// data, comments, CDATA and processing instructions; it refuses any
/// `<!DOCTYPE>` (IB files have none, and a DTD is where external entities and
/// entity bombs live), expands only the five predefined entities and
/// character references, and bounds input size and nesting depth. Every error
/// carries the line and column where it happened.
struct XMLElement: Sendable {
    var name: String
    /// In document order (IB writes each attribute once; the first wins on a repeat).
    var attributes: [(name: String, value: String)]
    var children: [XMLElement]
    /// Character data directly inside the element, concatenated.
    var text: String
    /// Where the start tag's `<` is (1-based line, column in UTF-8 bytes).
    var line: Int
    var column: Int

    subscript(_ attribute: String) -> String? {
        for pair in attributes where pair.name == attribute { return pair.value }
        return nil
    }

    /// The first child element with that name (and `key`, when given).
    func child(_ name: String, key: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (key == nil || $0["key"] == key) }
    }

    /// The first child element with that `key` attribute, whatever its name.
    func child(key: String) -> XMLElement? { children.first { $0["key"] == key } }

    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }
}

/// Why a document could not be read, and where.
struct XMLError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case tooLarge(bytes: Int, limit: Int)
        case tooDeep(limit: Int)
        case doctype
        case undefinedEntity(String)
        case malformed(String)
        case mismatchedTag(expected: String, found: String)
        case unexpectedEnd(String)
        case invalidUTF8
    }

    var kind: Kind
    var line: Int
    var column: Int

    var message: String {
        switch kind {
        case .tooLarge(let bytes, let limit):
            return "the file has \(bytes) bytes, more than the importer's limit of \(limit)"
        case .tooDeep(let limit):
            return "elements are nested more than \(limit) deep"
        case .doctype:
            return "a <!DOCTYPE> is not accepted (Interface Builder files have none; a DTD can declare external or recursive entities)"
        case .undefinedEntity(let name):
            return "undefined entity '&\(name.prefix(40));' (only &lt; &gt; &amp; &quot; &apos; and character references are read)"
        case .malformed(let what): return "malformed XML: \(what)"
        case .mismatchedTag(let expected, let found):
            return "end tag </\(found.prefix(60))> does not match <\(expected.prefix(60))>"
        case .unexpectedEnd(let what): return "the file ends inside \(what)"
        case .invalidUTF8: return "the file is not valid UTF-8"
        }
    }

    var description: String { "\(line):\(column): \(message)" }
}

/// Reads bytes into a tree of ``XMLElement``s.
struct XMLReader {
    /// Input larger than this is refused (IB files are kilobytes to a few megabytes).
    static let defaultMaximumBytes = 32 << 20
    /// Deeper nesting is refused (real IB files nest about 30 deep).
    static let defaultMaximumDepth = 256

    private let bytes: [UInt8]
    private var i = 0
    private var lineStarts: [Int] = [0]

    /// Parses a whole document and returns its root element.
    /// - Throws: ``XMLError`` with the line and column of the first problem.
    /// - Complexity: O(*n*) in the input's size.
    static func parse(_ bytes: [UInt8], maximumBytes: Int = defaultMaximumBytes,
                      maximumDepth: Int = defaultMaximumDepth) throws(XMLError) -> XMLElement {
        if bytes.count > maximumBytes { throw XMLError(kind: .tooLarge(bytes: bytes.count, limit: maximumBytes), line: 1, column: 1) }
        var reader = XMLReader(bytes: bytes)
        return try reader.document(maximumDepth: maximumDepth)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    }

    private func position(_ offset: Int) -> (line: Int, column: Int) {
        // Binary search for the last line start <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }

    private func error(_ kind: XMLError.Kind, at offset: Int) -> XMLError {
        let p = position(min(offset, bytes.count))
        return XMLError(kind: kind, line: p.line, column: p.column)
    }

    private func starts(with literal: StaticString, at offset: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            for k in 0..<count where bytes[offset + k] != buffer[k] { return false }
            return true
        }
    }

    /// The offset just past the next `terminator` from `offset`, or nil.
    private func skip(past terminator: StaticString, from offset: Int) -> Int? {
        var k = offset
        while k < bytes.count {
            if starts(with: terminator, at: k) { return k + terminator.utf8CodeUnitCount }
            k += 1
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    private static func isNameByte(_ b: UInt8) -> Bool {
        !(isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || b == UInt8(ascii: "=")
          || b == UInt8(ascii: "<") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'"))
    }

    private mutating func name(what: String) throws(XMLError) -> String {
        let start = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        if i == start { throw error(i >= bytes.count ? .unexpectedEnd(what) : .malformed("expected \(what)"), at: i) }
        return try string(start..<i)
    }

    private func string(_ range: Range<Int>) throws(XMLError) -> String {
        guard let s = String(validating: bytes[range], as: UTF8.self) else { throw error(.invalidUTF8, at: range.lowerBound) }
        return s
    }

    private mutating func skipSpace() { while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 } }

    /// Decodes character data or an attribute value, expanding entities.
    private func decode(_ range: Range<Int>) throws(XMLError) -> String {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return try string(range) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var k = range.lowerBound
        while k < range.upperBound {
            let b = bytes[k]
            guard b == UInt8(ascii: "&") else { out.append(b); k += 1; continue }
            var end = k + 1
            while end < range.upperBound, bytes[end] != UInt8(ascii: ";"), end - k < 40 { end += 1 }
            guard end < range.upperBound, bytes[end] == UInt8(ascii: ";") else {
                throw error(.malformed("'&' that starts no entity (write &amp;)"), at: k)
            }
            let entity = try string((k + 1)..<end)
            switch entity {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                guard entity.hasPrefix("#") else { throw error(.undefinedEntity(entity), at: k) }
                let digits = entity.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
                    throw error(.malformed("character reference '&\(entity.prefix(20));' names no character"), at: k)
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = end + 1
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error(.invalidUTF8, at: range.lowerBound) }
        return s
    }

    private mutating func document(maximumDepth: Int) throws(XMLError) -> XMLElement {
        if starts(with: "\u{FEFF}", at: 0) { i = 3 }
        var stack: [XMLElement] = []
        var root: XMLElement?
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") {
                try characterData(into: &stack)
                continue
            }
            let start = i
            if starts(with: "<?", at: i) {
                guard let end = skip(past: "?>", from: i + 2) else { throw error(.unexpectedEnd("a processing instruction"), at: start) }
                i = end
            } else if starts(with: "<!--", at: i) {
                guard let end = skip(past: "-->", from: i + 4) else { throw error(.unexpectedEnd("a comment"), at: start) }
                i = end
            } else if starts(with: "<![CDATA[", at: i) {
                guard let end = skip(past: "]]>", from: i + 9) else { throw error(.unexpectedEnd("a CDATA section"), at: start) }
                guard !stack.isEmpty else { throw error(.malformed("CDATA outside the root element"), at: start) }
                stack[stack.count - 1].text += try string((i + 9)..<(end - 3))
                i = end
            } else if starts(with: "<!", at: i) {
                throw error(starts(with: "<!DOCTYPE", at: i) ? .doctype : .malformed("unknown markup declaration"), at: start)
            } else if starts(with: "</", at: i) {
                try endTag(from: start, stack: &stack, root: &root)
            } else {
                let (element, selfClosing) = try startTag(from: start)
                if root != nil, stack.isEmpty { throw error(.malformed("a second root element"), at: start) }
                if selfClosing {
                    if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                } else {
                    if stack.count >= maximumDepth { throw error(.tooDeep(limit: maximumDepth), at: start) }
                    stack.append(element)
                }
            }
        }
        if let open = stack.last {
            throw XMLError(kind: .unexpectedEnd("<\(open.name)> opened at \(open.line):\(open.column)"), line: position(bytes.count).line,
                           column: position(bytes.count).column)
        }
        guard let root else { throw error(.malformed("no root element"), at: bytes.count) }
        return root
    }

    /// Reads character data up to the next `<` into the open element (a run
    /// of only whitespace is dropped); outside the root element only
    /// whitespace is accepted.
    private mutating func characterData(into stack: inout [XMLElement]) throws(XMLError) {
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
        if stack.isEmpty {
            if bytes[start..<i].contains(where: { !Self.isSpace($0) }) {
                throw error(.malformed("text outside the root element"), at: start)
            }
        } else if bytes[start..<i].contains(where: { !Self.isSpace($0) }) {
            // Why the byte test first: IB files are indentation between
            // tags, and decoding every run of it into a String to test its
            // Characters was half of the import (a 521 KB storyboard: 109 M
            // of 314 M instructions).
            let text = try decode(start..<i)
            if text.contains(where: { !$0.isWhitespace }) { stack[stack.count - 1].text += text }
        }
    }

    /// Reads an end tag from its `<` and closes the open element it names:
    /// into its parent, or as the root.
    private mutating func endTag(from start: Int, stack: inout [XMLElement], root: inout XMLElement?) throws(XMLError) {
        i += 2
        let name = try name(what: "an end tag's name")
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error(.malformed("expected '>' to close </\(name)"), at: i) }
        i += 1
        guard let open = stack.popLast() else { throw error(.malformed("end tag </\(name)> with no open element"), at: start) }
        guard open.name == name else { throw error(.mismatchedTag(expected: open.name, found: name), at: start) }
        if stack.isEmpty {
            guard root == nil else { throw error(.malformed("a second root element"), at: start) }
            root = open
        } else {
            stack[stack.count - 1].children.append(open)
        }
    }

    /// Reads a start tag from its `<` to its `>` or `/>`: the element, with
    /// its attributes and no children yet, and whether it closed itself.
    private mutating func startTag(from start: Int) throws(XMLError) -> (element: XMLElement, selfClosing: Bool) {
        i += 1
        let name = try name(what: "an element name")
        let p = position(start)
        var element = XMLElement(name: name, attributes: [], children: [], text: "", line: p.line, column: p.column)
        var selfClosing = false
        while true {
            skipSpace()
            guard i < bytes.count else { throw error(.unexpectedEnd("the start tag <\(name)>"), at: start) }
            if bytes[i] == UInt8(ascii: ">") { i += 1; break }
            if starts(with: "/>", at: i) { i += 2; selfClosing = true; break }
            let (attributeName, value) = try attribute()
            if element[attributeName] == nil { element.attributes.append((attributeName, value)) }
        }
        return (element, selfClosing)
    }

    /// Reads one attribute, `name="value"` or `name='value'`, its value decoded.
    private mutating func attribute() throws(XMLError) -> (name: String, value: String) {
        let attributeName = try self.name(what: "an attribute name")
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error(.malformed("expected '=' after attribute \(attributeName)"), at: i) }
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            throw error(.malformed("expected a quoted value for attribute \(attributeName)"), at: i)
        }
        let quote = bytes[i]
        let valueStart = i + 1
        var end = valueStart
        while end < bytes.count, bytes[end] != quote {
            if bytes[end] == UInt8(ascii: "<") { throw error(.malformed("'<' inside the value of \(attributeName)"), at: end) }
            end += 1
        }
        guard end < bytes.count else { throw error(.unexpectedEnd("the value of attribute \(attributeName)"), at: valueStart) }
        let value = try decode(valueStart..<end)
        i = end + 1
        return (attributeName, value)
    }
}
