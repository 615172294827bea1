import LayoutModel

/// Splits one line of a `.layout` file into tokens, on demand.
///
/// Why on demand (an iterator, not an array): the parser stops at a line's
/// first error, so a 10 MB line of junk costs one scan to its first bad token
/// and no token array.
struct Lexer {
    /// The file's bytes, valid for the parse (``FileParser/run()``). Why a
    /// pointer: no retain per line and no bounds checks in the hot loops;
    /// every read is guarded by `end` explicitly.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int
    private let names: NameTable
    /// End offset of the previous token, to recognise `375x812`.
    private var previousNumberEnd: Int = -1

    init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, names: NameTable) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
        self.names = names
    }

    @inline(__always) private func byte(at i: Int) -> UInt8? { i < end ? bytes[i] : nil }

    /// Space, tab, carriage return, vertical tab, form feed: what separates tokens.
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 || b == 0x5F }
    /// `[A-Za-z0-9_]` as bits of the byte values 64...127 and 0...63. Why a
    /// mask: one shift and test per byte of a name, instead of three ranges.
    private static let nameContinueHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE  // A-Z, _, a-z
    private static let nameContinueLow: UInt64 = 0x03FF_0000_0000_0000   // 0-9
    @inline(__always) static func isNameContinue(_ b: UInt8) -> Bool {
        b < 64 ? (nameContinueLow >> b) & 1 != 0 : b < 128 && (nameContinueHigh >> (b &- 64)) & 1 != 0
    }

    mutating func next() -> Token {
        while position < end {
            let b = bytes[position]
            guard Lexer.isBlank(b) else { break }
            position += 1
        }
        let start = position
        guard position < end else { return Token(kind: .end, offset: start, end: start) }
        let b = bytes[position]

        @inline(__always) func single(_ kind: Token.Kind) -> Token {
            position += 1
            return Token(kind: kind, offset: start, end: position)
        }
        func pair(_ second: UInt8, _ both: Token.Kind, else alone: Token.Kind) -> Token {
            if byte(at: position + 1) == second {
                position += 2
                return Token(kind: both, offset: start, end: position)
            }
            return single(alone)
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
        case UInt8(ascii: "<"):
            if byte(at: position + 1) == UInt8(ascii: "=") { return pair(UInt8(ascii: "="), .lessEqual, else: .invalid) }
            return invalid()
        case UInt8(ascii: ">"):
            if byte(at: position + 1) == UInt8(ascii: "=") { return pair(UInt8(ascii: "="), .greaterEqual, else: .invalid) }
            return invalid()
        case UInt8(ascii: "#"):
            position = end
            return Token(kind: .hash, offset: start, end: end)
        default:
            if Lexer.isDigit(b) { return number() }
            if Lexer.isNameStart(b) { return name() }
            return invalid()
        }
    }

    /// digits [. digits] | . digits, then an optional exponent.
    private mutating func number() -> Token {
        let start = position
        let value = Lexer.scanNumber(bytes, &position, end: end)
        previousNumberEnd = position
        return Token(kind: .number, offset: start, end: position, number: value)
    }

    /// Scans a number at `position` (a digit, or `.` and a digit) up to
    /// `end`, leaving `position` just past it; ±infinity when out of range.
    ///
    /// - Complexity: O(length of the number).
    @inline(__always)
    static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int) -> Double {
        let start = position
        var p = position
        // Why accumulate while scanning: a decimal with at most 19 significant
        // digits and a small power of ten converts exactly with one
        // multiplication or division (both operands exact doubles, one
        // correctly rounded operation), without making a String for strtod.
        // More digits than that go to `Double(_:)`, so the mantissa may wrap
        // without harm.
        // Why the digits counted by position, leading zeros included: the
        // loop is then a load, a compare and a multiply-add a digit. A literal
        // of more than 19 digits whose leading zeros would have left 19 or
        // fewer significant ones (`0.000000000000000000001`) takes the
        // `Double(_:)` path below: the same value, more slowly.
        var mantissa: UInt64 = 0
        var exponent = 0
        /// The digits at `p`, accumulated.
        @inline(__always) func digits() {
            while p < end {
                let d = bytes[p] &- 0x30
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                p &+= 1
            }
        }
        digits()
        var digitCount = p &- start
        if p &+ 1 < end, bytes[p] == UInt8(ascii: "."), Lexer.isDigit(bytes[p &+ 1]) {
            p &+= 1
            let fractionStart = p
            digits()
            exponent = fractionStart &- p
            digitCount &+= p &- fractionStart
        }
        if p < end, bytes[p] | 0x20 == UInt8(ascii: "e") {
            var q = p &+ 1
            var negative = false
            if q < end, bytes[q] == UInt8(ascii: "+") || bytes[q] == UInt8(ascii: "-") {
                negative = bytes[q] == UInt8(ascii: "-")
                q &+= 1
            }
            if q < end, Lexer.isDigit(bytes[q]) {
                p = q
                var value = 0
                while p < end, Lexer.isDigit(bytes[p]) {
                    if value < 100_000 { value = value &* 10 &+ Int(bytes[p] &- 0x30) }
                    p &+= 1
                }
                exponent &+= negative ? -value : value
            }
        }
        position = p
        if digitCount <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            return exponent >= 0 ? Double(mantissa) * powerOfTen(exponent) : Double(mantissa) / powerOfTen(-exponent)
        }
        // Double(_:) returns ±inf for out-of-range literals; the parser reports those.
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<p]), as: UTF8.self)) ?? .infinity
    }

    /// 10^`k` for `k` in 0...22, each exactly representable as a Double.
    /// Why a switch, not a stored table: a stored static is a lazily
    /// initialised global with a once-guard at each read, on the path of
    /// every number.
    @inline(__always)
    static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    private mutating func name() -> Token {
        let start = position
        // Why: `375x812` must read as 375, x, 812, not 375 and the name `x812`.
        if bytes[position] == UInt8(ascii: "x"), previousNumberEnd == position,
           let next = byte(at: position + 1), Lexer.isDigit(next) || next == UInt8(ascii: ".") {
            position += 1
            return Token(kind: .name, offset: start, end: position, nameID: names.intern(bytes, start..<position))
        }
        // Why no hash while scanning: the table hashes the name a word at a
        // time (``NameHash``) once its end is known, where a byte hash in
        // this loop was a chain of dependent multiplies.
        position = Lexer.scanName(bytes, from: position + 1, end: end)
        return Token(kind: .name, offset: start, end: position, nameID: names.intern(bytes, start..<position))
    }

    /// The end of the name whose bytes continue at `p` (`[A-Za-z0-9_]*` up to `end`).
    ///
    /// Why eight bytes at a time: names are most of a layout file's bytes,
    /// and a byte loop with its class test was ten instructions a byte. A
    /// word is classified with carry-free byte arithmetic (every byte below
    /// 0x80, else the byte loop decides), and the first byte that is not a
    /// name byte ends the name. A word may read past `end` (never past the
    /// file): the bytes there are masked by `min(_, end)`.
    ///
    /// - Complexity: O(length of the name).
    @inline(__always)
    static func scanName(_ bytes: UnsafeBufferPointer<UInt8>, from p: Int, end: Int) -> Int {
        var p = p
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while p < end, p + 8 <= bytes.count {
                let x = base.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                if x & highs != 0 { break }  // a byte >= 0x80: not ASCII, the byte loop decides
                // Bytes below 0x80: b + (0x80 - lo) sets the high bit iff b >= lo,
                // (0x80 + hi) - b keeps it iff b <= hi, with no carry or borrow
                // between bytes.
                @inline(__always) func within(_ v: UInt64, _ lo: UInt64, _ hi: UInt64) -> UInt64 {
                    (v &+ (0x80 &- lo) &* ones) & ((0x80 &+ hi) &* ones &- v) & highs
                }
                let digit = within(x, 0x30, 0x39)
                let letter = within(x | 0x20 &* ones, 0x61, 0x7A)
                let t = x ^ (0x5F &* ones)
                let underscore = ~(((t & ~highs) &+ ~highs) | t) & highs
                let name = digit | letter | underscore
                if name == highs {
                    p += 8
                    continue
                }
                // Little-endian: the first non-name byte is the lowest clear high bit.
                let stop = p + (~name & highs).trailingZeroBitCount / 8
                return min(stop, end)
            }
        }
        while p < end, isNameContinue(bytes[p]) { p += 1 }
        return min(p, end)
    }

    /// What a line looks like from its first word, for the parser's first
    /// pass: whether it declares a metric, and how many constraints and
    /// expectations to make room for.
    enum LineShape: Equatable {
        /// First word `metric`, second a name (what pass 1 parses).
        case metricDeclaration
        /// A name followed by `.`: a `view.attribute` constraint line.
        case constraint
        /// First word `expect`.
        case expectation
        case other
    }

    /// The shape of line `range`: the same test as lexing its first two
    /// tokens, on the bytes (no interning, no tokens).
    ///
    /// - Complexity: O(length of the first two words).
    static func shape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> LineShape {
        @inline(__always) func skipBlanks(_ i: inout Int) { while i < range.upperBound, isBlank(bytes[i]) { i += 1 } }
        var i = range.lowerBound
        skipBlanks(&i)
        let wordStart = i
        guard i < range.upperBound, isNameStart(bytes[i]) else { return .other }
        i = scanName(bytes, from: i + 1, end: range.upperBound)
        let word = UnsafeBufferPointer(rebasing: bytes[wordStart..<i])
        skipBlanks(&i)
        let next: UInt8? = i < range.upperBound ? bytes[i] : nil
        if next == UInt8(ascii: ".") { return .constraint }
        func wordIs(_ keyword: StaticString) -> Bool {
            guard word.count == keyword.utf8CodeUnitCount else { return false }
            for k in 0..<word.count where word[k] != keyword.utf8Start[k] { return false }
            return true
        }
        // `metricx` is another name (the word ends at the first non-name byte),
        // and `metric` alone or `metric = 8` is not a declaration.
        if wordIs("metric") { return next.map(isNameStart) == true ? .metricDeclaration : .other }
        if wordIs("expect") { return .expectation }
        return .other
    }

    /// One bad character (a whole UTF-8 scalar).
    private mutating func invalid() -> Token {
        let start = position
        let lead = bytes[position]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        position = min(end, position + length)
        return Token(kind: .invalid, offset: start, end: position)
    }

    /// How a message names an invalid character at `range` of `bytes`.
    static func describeInvalid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let scalarText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        let lead = bytes[range.lowerBound]
        if let scalar = scalarText.unicodeScalars.first, scalarText.unicodeScalars.count == 1 {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            if scalar.properties.generalCategory == .control || scalar.value == 0xFFFD || scalar.properties.isWhitespace {
                return code
            } else if lead == UInt8(ascii: "<") || lead == UInt8(ascii: ">") {
                return "'\(scalarText)' (relations are '<=' and '>=')"
            } else {
                return "'\(scalarText)'" + (lead >= 0x80 ? " (\(code))" : "")
            }
        }
        return "byte 0x" + String(lead, radix: 16, uppercase: true)
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
