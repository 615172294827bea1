// The lines that make up almost all of a large `.layout` file, read
// straight from their bytes: a plain constraint
// `view.attr REL view.attr [(*|/) NUM] [(+|-) NUM] [@ NUM] [# identifier]`
// (or `view.attr REL NUM ...`), a plain frame expectation
// `expect view = X Y W H [# comment]`, a `views NAME ...` line and a content
// line with two plain numbers (`intrinsic label1 77 21`).
//
// Why a second reader for these lines: the general parser goes through
// tokens with lookahead, throwing errors and optional parts at each step,
// which was about 2,600 instructions a constraint line of 45 bytes
// (docs/measurements.md#m-2026-11-27-parse). Here each byte is looked at
// once. Anything else — metrics, named priorities, signs, `when`, an error
// of any kind — makes the reader give up on the line without a trace (it
// appends nothing and reports nothing), and the general parser reads it, so
// the two agree by construction on every line this one declines; on the
// lines it accepts, the tests compare both (PlainLineTests).

import LayoutModel

extension FileParser {
    /// A reader over line `line`, past its leading blanks.
    @inline(__always) func plainReader(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) -> PlainLineReader {
        var r = PlainLineReader(bytes: bytes, range: source.lineRange(line), lineStart: source.lineStarts[line - 1],
                                line: line, fileID: source.fileID)
        r.skipBlanks()
        return r
    }

    /// Reads line `line` with the plain reader its first byte calls for;
    /// false, with nothing appended, when that reader declines it.
    ///
    /// Why a choice by the first byte rather than each reader in turn:
    /// every content line went through the constraint, expectation and
    /// views readers first, each making its own reader and scanning the
    /// first word again (the keyword tests alone were 2% of a whole solve of
    /// the self-sizing rows). Why not by the whole first word: scanning it
    /// once more cost a constraint line more than the choice saved. The
    /// readers take disjoint sets of lines (a constraint's first word is
    /// followed by a dot, a keyword line's by a blank), so a keyword reader
    /// that declines leaves only the constraint reader, which is tried then:
    /// a view named `expect` still has its constraints read here.
    /// - Complexity: O(length of the line).
    ///
    /// (The readers share one reader, `inout`, rewound between them: a
    /// copy each retained and released the name table.)
    mutating func parsePlainLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) -> Bool {
        var r = plainReader(bytes, line: line)
        let start = r.offset
        let taken: Bool
        switch r.peek() {
        case UInt8(ascii: "e"): taken = parsePlainExpectation(&r)
        case UInt8(ascii: "v"): taken = parsePlainViews(&r)
        case UInt8(ascii: "i"), UInt8(ascii: "h"), UInt8(ascii: "c"), UInt8(ascii: "b"): taken = parsePlainContent(&r)
        default: taken = false
        }
        if taken { return true }
        r.rewind(to: start)
        return parsePlainConstraint(&r)
    }
}

extension FileParser {
    /// Reads the line of `r` (at its first word) if it is a plain
    /// constraint line and appends its constraint; false, with nothing
    /// appended, for any other line.
    ///
    /// - Complexity: O(length of the line).
    mutating func parsePlainConstraint(_ r: inout PlainLineReader) -> Bool {
        guard let first = r.item(names) else { return false }
        r.skipBlanks()
        guard let (relation, relationOffset) = r.relation() else { return false }
        // Columns of the parts (0: absent), made into locations once at the end.
        var multiplierColumn = 0, constantColumn = 0, priorityColumn = 0
        r.skipBlanks()
        var second: PlainItem?
        var multiplier = 1.0
        var constant = 0.0
        if r.atNameStart {
            guard let item = r.item(names) else { return false }
            second = item
            r.skipBlanks()
            if let op = r.peek(), op == UInt8(ascii: "*") || op == UInt8(ascii: "/") {
                r.advance()
                r.skipBlanks()
                guard let (value, offset) = r.number() else { return false }
                if op == UInt8(ascii: "/") {
                    // Division by zero is the general parser's error to report.
                    guard value != 0 else { return false }
                    multiplier = 1 / value
                } else {
                    multiplier = value
                }
                multiplierColumn = r.column(offset)
                r.skipBlanks()
            }
            if let op = r.peek(), op == UInt8(ascii: "+") || op == UInt8(ascii: "-") {
                r.advance()
                r.skipBlanks()
                guard let (value, offset) = r.number() else { return false }
                constant = op == UInt8(ascii: "-") ? -value : value
                constantColumn = r.column(offset)
                r.skipBlanks()
            }
        } else {
            // A bare constant; a sign or a metric is the general parser's.
            guard let (value, offset) = r.number() else { return false }
            constant = value
            constantColumn = r.column(offset)
            r.skipBlanks()
        }
        var priority = Priority.required
        if r.peek() == UInt8(ascii: "@") {
            r.advance()
            r.skipBlanks()
            // A named priority (`high`) or a metric is the general parser's.
            guard let (value, offset) = r.number() else { return false }
            priority = Priority(value)
            priorityColumn = r.column(offset)
            r.skipBlanks()
        }
        var identifier: String?
        if r.peek() == UInt8(ascii: "#") {
            let text = r.comment()
            identifier = text.isEmpty ? nil : text
        } else if !r.atEnd {
            return false
        }
        let locations = ConstraintLocations(start: r.location(first.offset), relationColumn: r.column(relationOffset),
                                            multiplierColumn: multiplierColumn, constantColumn: constantColumn,
                                            priorityColumn: priorityColumn)
        constraints.append(LayoutConstraint.plain(item(first, r), relation, second.map { item($0, r) },
                                                  multiplier: multiplier, constant: constant, priority: priority,
                                                  identifier: identifier, locations: locations))
        return true
    }

    /// The item a plain reader read, with its name's string and location.
    @inline(__always) func item(_ item: PlainItem, _ r: PlainLineReader) -> ItemAttribute {
        ItemAttribute(names.string(item.name), item.attribute, location: r.location(item.offset))
    }

    /// Reads the line of `r` (at its first word) if it is a plain frame
    /// expectation (`expect view = X Y W H`, an optional comment, no
    /// variant, `observed` or `within`) and appends it; false, with nothing
    /// appended, for any other line.
    ///
    /// - Complexity: O(length of the line).
    mutating func parsePlainExpectation(_ r: inout PlainLineReader) -> Bool {
        let keywordOffset = r.offset
        guard r.keyword("expect") else { return false }
        r.skipBlanks()
        guard r.atNameStart else { return false }
        let view = r.name(names)
        r.skipBlanks()
        guard r.peek() == UInt8(ascii: "=") else { return false }
        r.advance()
        if r.peek() == UInt8(ascii: "=") { r.advance() }
        var values = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<4 {
            r.skipBlanks()
            var sign = 1.0
            if let s = r.peek(), s == UInt8(ascii: "-") || s == UInt8(ascii: "+") {
                if s == UInt8(ascii: "-") { sign = -1 }
                r.advance()
                r.skipBlanks()
            }
            guard let (value, _) = r.number() else { return false }
            switch i {
            case 0: values.0 = sign * value
            case 1: values.1 = sign * value
            case 2: values.2 = sign * value
            default: values.3 = sign * value
            }
        }
        r.skipBlanks()
        guard r.atEndOrComment else { return false }
        let frame = Frame(x: values.0, y: values.1, width: values.2, height: values.3)
        expectations.append(Expectation.frame(view: names.string(view), frame, location: r.location(keywordOffset)))
        return true
    }
}

extension FileParser {
    /// Reads the line of `r` (at its first word) if it is a `views` line
    /// (`views NAME ... [# comment]`, at least one name) and appends its
    /// views; false, with nothing appended, for any other line.
    ///
    /// - Complexity: O(length of the line).
    mutating func parsePlainViews(_ r: inout PlainLineReader) -> Bool {
        guard r.keyword("views") else { return false }
        let first = r.offset
        // First the shape (names apart, then the end or a comment), so that a
        // declined line leaves nothing behind; then the names.
        var count = 0
        while true {
            let before = r.offset
            r.skipBlanks()
            guard r.atNameStart, r.offset > before else { break }
            r.skipName()
            count += 1
        }
        guard count > 0, r.atEndOrComment else { return false }
        r.rewind(to: first)
        for _ in 0..<count {
            r.skipBlanks()
            let start = r.offset
            let id = r.name(names)
            views.append(ViewDeclaration(name: names.string(id), location: r.location(start)))
        }
        return true
    }
}

extension FileParser {
    /// Reads the line of `r` (at its first word) if it is a content line
    /// with plain numbers (`intrinsic|hugging|compression|baselines VIEW
    /// NUM NUM [# comment]`) and appends it; false, with nothing appended,
    /// for any other line (`none`, a named priority, a metric or a sign is
    /// the general parser's).
    ///
    /// - Complexity: O(length of the line).
    mutating func parsePlainContent(_ r: inout PlainLineReader) -> Bool {
        enum Kind { case intrinsic, hugging, compression, baselines }
        let kind: Kind
        if r.keyword("intrinsic") {
            kind = .intrinsic
        } else if r.keyword("hugging") {
            kind = .hugging
        } else if r.keyword("compression") {
            kind = .compression
        } else if r.keyword("baselines") {
            kind = .baselines
        } else {
            return false
        }
        let afterKeyword = r.offset
        r.skipBlanks()
        guard r.offset > afterKeyword, r.atNameStart else { return false }
        let viewStart = r.offset
        let view = r.name(names)
        r.skipBlanks()
        guard let (first, _) = r.number() else { return false }
        r.skipBlanks()
        guard let (second, _) = r.number() else { return false }
        r.skipBlanks()
        guard r.atEndOrComment else { return false }
        let value: ContentLine.Value
        switch kind {
        case .intrinsic: value = .intrinsic(IntrinsicSize(width: first, height: second))
        case .baselines: value = .baselines(Baselines(first: first, last: second))
        case .hugging: value = .hugging(AxisPriorities(horizontal: Priority(first), vertical: Priority(second)))
        case .compression: value = .compression(AxisPriorities(horizontal: Priority(first), vertical: Priority(second)))
        }
        contentLines.append(ContentLine(view: names.string(view), value: value, location: r.location(viewStart)))
        return true
    }
}

/// An item as ``PlainLineReader/item(_:)`` reads it: the view's name id,
/// the attribute and the item's byte offset.
struct PlainItem {
    var name: Int32
    var attribute: Attribute
    var offset: Int
}

/// A cursor over one line's bytes for ``FileParser/parsePlainConstraint(_:line:)``:
/// each read either succeeds or returns nil, leaving the caller to give up.
struct PlainLineReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    let end: Int
    let lineStart: Int
    let line: Int
    let fileID: UInt32

    // Why no name table in the reader, the table passed to the two reads
    // that intern: a reader is made per line, and holding the table was a
    // retain and a release a line (`unowned(unsafe)` instead retained it at
    // each use); the parser's own `let` is passed borrowed, with neither.
    init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, lineStart: Int, line: Int, fileID: UInt32) {
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
        self.lineStart = lineStart
        self.line = line
        self.fileID = fileID
    }

    var atEnd: Bool { offset >= end }
    /// At the end of the line or at a trailing `# comment`.
    var atEndOrComment: Bool { offset >= end || bytes[offset] == UInt8(ascii: "#") }
    var atNameStart: Bool { offset < end && Lexer.isNameStart(bytes[offset]) }

    @inline(__always) func peek() -> UInt8? { offset < end ? bytes[offset] : nil }
    @inline(__always) mutating func advance() { offset += 1 }

    @inline(__always) mutating func skipBlanks() {
        while offset < end, Lexer.isBlank(bytes[offset]) { offset += 1 }
    }

    func location(_ at: Int) -> SourceLocation {
        SourceLocation(fileID: fileID, line: line, column: column(at))
    }

    /// The 1-based column of byte offset `at` on this line.
    func column(_ at: Int) -> Int { at - lineStart + 1 }

    /// A name at the offset (the caller checked ``atNameStart``), interned.
    mutating func name(_ names: NameTable) -> Int32 {
        let start = offset
        offset = Lexer.scanName(bytes, from: offset + 1, end: end)
        return names.intern(bytes, start..<offset)
    }

    /// Moves past a name (the caller checked ``atNameStart``), without interning it.
    mutating func skipName() { offset = Lexer.scanName(bytes, from: offset + 1, end: end) }

    /// Moves back to `offset`, a position this reader was at.
    mutating func rewind(to offset: Int) { self.offset = offset }

    /// Whether the word at the offset is `keyword` (and ends there); moves past it if so.
    /// (Compared byte by byte and then the byte after it, without scanning
    /// the word first: a content line is tested against up to four keywords,
    /// and most tests end at the first byte.)
    mutating func keyword(_ keyword: StaticString) -> Bool {
        let count = keyword.utf8CodeUnitCount
        guard end - offset >= count else { return false }
        for k in 0..<count where bytes[offset + k] != keyword.utf8Start[k] { return false }
        guard offset + count == end || !Lexer.isNameContinue(bytes[offset + count]) else { return false }
        offset += count
        return true
    }

    /// `NAME . ATTRIBUTE`, the attribute a known one: the name's id, the
    /// attribute and where the item starts.
    ///
    /// Why the id, not an ``ItemAttribute``: the constraint is built from
    /// values made at the end of its line (``FileParser/item(_:_:)``), and an
    /// item made here and held through the line was copied into the
    /// constraint, the constraint copied again and the first copy destroyed
    /// (two retains and releases of each name, about 180 instructions a line).
    mutating func item(_ names: NameTable) -> PlainItem? {
        guard atNameStart else { return nil }
        let start = offset
        skipName()
        let nameEnd = offset
        skipBlanks()
        // `.` then a digit is a number to the lexer, not a dot.
        guard peek() == UInt8(ascii: "."), offset + 1 >= end || !Lexer.isDigit(bytes[offset + 1]) else { return nil }
        // Why interned only now: a keyword line its own reader declined
        // comes here too, and `expect`, `views` or `intrinsic` is no view name.
        let item = names.intern(bytes, start..<nameEnd)
        advance()
        skipBlanks()
        guard atNameStart else { return nil }
        let attributeStart = offset
        offset = Lexer.scanName(bytes, from: offset + 1, end: end)
        // Why not the name table for the common attributes: they are half
        // the names of a constraint line, and a match on their bytes is a
        // load and a switch where interning is a hash, a probe and a compare.
        guard let attribute = Self.shortAttribute(bytes, attributeStart..<offset)
            ?? names.attribute(names.intern(bytes, attributeStart..<offset)) else { return nil }
        return PlainItem(name: item, attribute: attribute, offset: start)
    }

    /// The attribute spelled by `bytes[range]` when it is one of the ten of
    /// at most eight bytes (`left` ... `centerY`); nil for anything else,
    /// the longer attributes included.
    static func shortAttribute(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Attribute? {
        guard range.count <= 8 else { return nil }
        // The bytes as a little-endian word, zero above the name (a name
        // has no zero byte, so the length is in the word).
        let word = NameHash.word(bytes, range.lowerBound, count: range.count)
        switch word {
        case 0x0000_0000_7466_656C: return .left
        case 0x0000_0074_6867_6972: return .right
        case 0x0000_0000_0070_6F74: return .top
        case 0x0000_6D6F_7474_6F62: return .bottom
        case 0x0067_6E69_6461_656C: return .leading
        case 0x676E_696C_6961_7274: return .trailing
        case 0x0000_0068_7464_6977: return .width
        case 0x0000_7468_6769_6568: return .height
        case 0x0058_7265_746E_6563: return .centerX
        case 0x0059_7265_746E_6563: return .centerY
        default: return nil
        }
    }

    /// `=`, `==`, `<=` or `>=`, and where it starts.
    mutating func relation() -> (Relation, Int)? {
        let start = offset
        guard let b = peek() else { return nil }
        let second: UInt8? = offset + 1 < end ? bytes[offset + 1] : nil
        switch b {
        case UInt8(ascii: "="):
            offset += second == UInt8(ascii: "=") ? 2 : 1
            return (.equal, start)
        case UInt8(ascii: "<") where second == UInt8(ascii: "="):
            offset += 2
            return (.lessThanOrEqual, start)
        case UInt8(ascii: ">") where second == UInt8(ascii: "="):
            offset += 2
            return (.greaterThanOrEqual, start)
        default:
            return nil
        }
    }

    /// An unsigned numeric literal, finite, not directly followed by a name
    /// or a dot (which the lexer reads differently), and where it starts.
    mutating func number() -> (Double, Int)? {
        let start = offset
        guard let b = peek() else { return nil }
        guard Lexer.isDigit(b) || (b == UInt8(ascii: ".") && offset + 1 < end && Lexer.isDigit(bytes[offset + 1])) else { return nil }
        let value = Lexer.scanNumber(bytes, &offset, end: end)
        guard value.isFinite else { return nil }
        if let next = peek(), Lexer.isNameContinue(next) || next == UInt8(ascii: ".") { return nil }
        return (value, start)
    }

    /// `# text` to the end of the line, trimmed (as ``LineCursor/comment(of:)``).
    mutating func comment() -> String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<end]), as: UTF8.self)
            .trimmingCharacters(in: " \t\r")
        offset = end
        return text
    }
}
