// Reading one line of a `.layout` file: the cursor over its tokens (with
// lookahead of two) and the error that makes the parser skip the line.

import LayoutModel

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
