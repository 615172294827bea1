/// A token of one `.layout` line.
struct Token: Equatable {
    enum Kind: Equatable {
        case name
        case number(Double)
        case dot, comma, colon, at
        /// Visual format punctuation: `|`, `[`, `]`, `(`, `)`.
        case pipe, leftBracket, rightBracket, leftParen, rightParen
        case equal, equalEqual, lessEqual, greaterEqual
        case star, slash, plus, minus
        /// `#` and the rest of the line (trimmed).
        case hash(String)
        /// A character that starts no token (already described for the message).
        case invalid(String)
        case end
    }

    var kind: Kind
    /// Byte offset of the first byte within the file.
    var offset: Int
    /// The token's text (names, numbers, punctuation).
    var text: String

    /// How a message names the token: `'foo'`, `end of line`.
    var quoted: String {
        switch kind {
        case .end: return "end of line"
        case .hash: return "'#'"
        case .invalid(let description): return description
        default:
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            return "'\(shown)'"
        }
    }

    var isRelation: Bool {
        switch kind {
        case .equal, .equalEqual, .lessEqual, .greaterEqual: return true
        default: return false
        }
    }

    func isName(_ word: String) -> Bool { kind == .name && text == word }
}
