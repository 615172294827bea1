/// Splits one line of a `.layout` file into tokens, on demand.
///
/// Why on demand (an iterator, not an array): the parser stops at a line's
/// first error, so a 10 MB line of junk costs one scan to its first bad token
/// and no token array.
struct Lexer {
    private let bytes: [UInt8]
    private var position: Int
    private let end: Int
    /// End offset of the previous token, to recognise `375x812`.
    private var previousNumberEnd: Int = -1

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    private func byte(at i: Int) -> UInt8? { i < end ? bytes[i] : nil }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isNameStart(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }
    private static func isNameContinue(_ b: UInt8) -> Bool { isNameStart(b) || isDigit(b) }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    mutating func next() -> Token {
        while let b = byte(at: position), b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C {
            position += 1
        }
        let start = position
        guard let b = byte(at: position) else { return Token(kind: .end, offset: start, text: "") }

        func single(_ kind: Token.Kind) -> Token {
            position += 1
            return Token(kind: kind, offset: start, text: text(start..<position))
        }
        func pair(_ second: UInt8, _ both: Token.Kind, else alone: Token.Kind?) -> Token {
            if byte(at: position + 1) == second {
                position += 2
                return Token(kind: both, offset: start, text: text(start..<position))
            }
            if let alone { return single(alone) }
            return invalid()
        }

        switch b {
        case UInt8(ascii: "."):
            if let next = byte(at: position + 1), Lexer.isDigit(next) { return number() }
            return single(.dot)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "|"): return single(.pipe)
        case UInt8(ascii: "["): return single(.leftBracket)
        case UInt8(ascii: "]"): return single(.rightBracket)
        case UInt8(ascii: "("): return single(.leftParen)
        case UInt8(ascii: ")"): return single(.rightParen)
        case UInt8(ascii: ":"): return single(.colon)
        case UInt8(ascii: "@"): return single(.at)
        case UInt8(ascii: "*"): return single(.star)
        case UInt8(ascii: "/"): return single(.slash)
        case UInt8(ascii: "+"): return single(.plus)
        case UInt8(ascii: "-"): return single(.minus)
        case UInt8(ascii: "="): return pair(UInt8(ascii: "="), .equalEqual, else: .equal)
        case UInt8(ascii: "<"): return pair(UInt8(ascii: "="), .lessEqual, else: nil)
        case UInt8(ascii: ">"): return pair(UInt8(ascii: "="), .greaterEqual, else: nil)
        case UInt8(ascii: "#"):
            let rest = text((position + 1)..<end).trimmingCharacters(in: " \t\r")
            position = end
            return Token(kind: .hash(rest), offset: start, text: "#")
        default:
            if Lexer.isDigit(b) { return number() }
            if Lexer.isNameStart(b) { return name() }
            return invalid()
        }
    }

    /// digits [. digits] | . digits, then an optional exponent.
    private mutating func number() -> Token {
        let start = position
        while let b = byte(at: position), Lexer.isDigit(b) { position += 1 }
        if byte(at: position) == UInt8(ascii: "."), let d = byte(at: position + 1), Lexer.isDigit(d) {
            position += 1
            while let b = byte(at: position), Lexer.isDigit(b) { position += 1 }
        }
        if let e = byte(at: position), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var p = position + 1
            if let s = byte(at: p), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { p += 1 }
            if let d = byte(at: p), Lexer.isDigit(d) {
                position = p
                while let b = byte(at: position), Lexer.isDigit(b) { position += 1 }
            }
        }
        let literal = text(start..<position)
        previousNumberEnd = position
        // Double(_:) returns ±inf for out-of-range literals; the parser reports those.
        return Token(kind: .number(Double(literal) ?? .infinity), offset: start, text: literal)
    }

    private mutating func name() -> Token {
        let start = position
        // Why: `375x812` must read as 375, x, 812, not 375 and the name `x812`.
        if bytes[position] == UInt8(ascii: "x"), previousNumberEnd == position,
           let next = byte(at: position + 1), Lexer.isDigit(next) || next == UInt8(ascii: ".") {
            position += 1
            return Token(kind: .name, offset: start, text: "x")
        }
        while let b = byte(at: position), Lexer.isNameContinue(b) { position += 1 }
        return Token(kind: .name, offset: start, text: text(start..<position))
    }

    /// One bad character (a whole UTF-8 scalar), described for the message.
    private mutating func invalid() -> Token {
        let start = position
        let lead = bytes[position]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        position = min(end, position + length)
        let scalarText = text(start..<position)
        let description: String
        if let scalar = scalarText.unicodeScalars.first, scalarText.unicodeScalars.count == 1 {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            if scalar.properties.generalCategory == .control || scalar.value == 0xFFFD || scalar.properties.isWhitespace {
                description = code
            } else if lead == UInt8(ascii: "<") || lead == UInt8(ascii: ">") {
                description = "'\(scalarText)' (relations are '<=' and '>=')"
            } else {
                description = "'\(scalarText)'" + (lead >= 0x80 ? " (\(code))" : "")
            }
        } else {
            description = "byte 0x" + String(lead, radix: 16, uppercase: true)
        }
        return Token(kind: .invalid(description), offset: start, text: scalarText)
    }
}

extension String {
    /// Trims the given ASCII characters from both ends (Foundation-free).
    func trimmingCharacters(in set: String) -> String {
        let trim = Set(set.unicodeScalars)
        var scalars = Substring(self).unicodeScalars[...]
        while let f = scalars.first, trim.contains(f) { scalars.removeFirst() }
        while let l = scalars.last, trim.contains(l) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
