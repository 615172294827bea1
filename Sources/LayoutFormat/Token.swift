import LayoutModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A token of one `.layout` line: its kind and where it is. No text: names
/// carry their interned string, every other token's text is read from the
/// source only when a message needs it (``LineCursor/text(of:)``).
///
/// Why no `String` per token: making one for every token was most of the
/// parser's time (evidence: docs/measurements.md#m-front-end-costs); a
/// grid's tokens are mostly punctuation, numbers and a few thousand distinct
/// names repeated.
struct Token {
    enum Kind: UInt8, Equatable {
        case name
        /// Its value is ``Token/number`` (±infinity when out of range).
        case number
        case dot, comma, colon, at
        /// Visual format punctuation: `|`, `[`, `]`, `(`, `)`.
        case pipe, leftBracket, rightBracket, leftParen, rightParen
        case equal, equalEqual, lessEqual, greaterEqual
        case star, slash, plus, minus
        /// `#` and the rest of the line (``LineCursor/comment(of:)``).
        case hash
        /// A character that starts no token (``LineCursor/describeInvalid(_:)``).
        case invalid
        case end
    }

    var kind: Kind
    /// Byte offset of the first byte within the file.
    var offset: Int
    /// Byte offset just past the last byte.
    var end: Int
    /// The value of a `.number`.
    var number: Double = 0
    /// A name's entry in the file's ``NameTable`` (-1 for other kinds); its
    /// text is `names[token]`. Why an id, not a `String`: a token without a
    /// reference is copied without retain and release.
    var nameID: Int32 = -1

    var isRelation: Bool {
        switch kind {
        case .equal, .equalEqual, .lessEqual, .greaterEqual: return true
        default: return false
        }
    }
}

/// The distinct names of one file, each made into a `String` once.
///
/// Open addressing over ``NameHash`` hashes of the bytes, so that a name seen
/// before costs a hash and a byte comparison, no allocation. Each entry also
/// caches what the parser asks of a name (is it an attribute?), once per name.
final class NameTable {
    /// A name's first occurrence: its hash, its first sixteen bytes as two
    /// little-endian words (zero beyond the name), where it is in the file
    /// and its length.
    ///
    /// Why the words: names are short (`row1234_left` is 12 bytes), and for a
    /// name of at most sixteen bytes the two words and the length are the
    /// name, so a probe compares three integers instead of the bytes.
    private struct Entry {
        var hash: UInt64
        var head: UInt64
        var tail: UInt64
        var start: Int
        var length: Int
    }

    /// The entries apart from the strings, so that the probe loop reads a
    /// hash and a position without copying, retaining or releasing a string.
    /// Why one stored property: each access to a class's stored property is a
    /// dynamic exclusivity check; one `inout` access per call instead of six
    /// per probe was a quarter of the lexer's time.
    private struct Storage {
        var entries: [Entry] = []
        var strings: [String] = []
        var attributes: [Attribute??] = []
        var lineKeywords: [LineKeyword??] = []
        /// Entry index + 1 per slot (0 = empty); the count is a power of two.
        var slots = [Int32](repeating: 0, count: 1024)
    }

    /// Why unchecked: the table is used by one parse on one thread, and the
    /// runtime's exclusivity check on each access (a lock-free set in
    /// thread-local storage) cost more than the probe itself.
    @exclusivity(unchecked) private var storage = Storage()

    /// The id of the name `bytes[range]`, interning it on first sight.
    ///
    /// - Complexity: O(length) expected.
    func intern(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32 {
        Self.intern(&storage, bytes, range)
    }

    private static func intern(_ t: inout Storage, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32 {
        let start = range.lowerBound
        let length = range.count
        let head = NameHash.word(bytes, start, count: length)
        let tail = length > 8 ? NameHash.word(bytes, start &+ 8, count: length &- 8) : 0
        let hash: UInt64
        if length <= 16 {
            // The same mixing as ``NameHash`` on the two words already loaded.
            var h = UInt64(truncatingIfNeeded: length) &* NameHash.multiplier
            h = (h ^ head) &* NameHash.multiplier
            h = (h ^ tail) &* NameHash.multiplier
            h ^= h >> 32
            h = h &* NameHash.finalMultiplier
            hash = h ^ (h >> 29)
        } else {
            hash = bytes.baseAddress.map { NameHash.hash(UnsafeRawPointer($0) + start, count: length) } ?? NameHash.emptyHash
        }
        let mask = t.slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let occupant = Int(t.slots[slot])
            if occupant == 0 { break }
            let entry = t.entries[occupant &- 1]
            if entry.hash == hash, entry.length == length, entry.head == head, entry.tail == tail,
               length <= 16 || equal(bytes, entry.start, start, length) {
                return Int32(truncatingIfNeeded: occupant &- 1)
            }
            slot = (slot &+ 1) & mask
        }
        t.entries.append(Entry(hash: hash, head: head, tail: tail, start: start, length: length))
        t.strings.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        t.attributes.append(nil)
        t.lineKeywords.append(nil)
        let id = Int32(t.strings.count - 1)
        t.slots[slot] = id + 1
        // Why grow at half full: linear probing stays short below that load.
        if t.strings.count * 2 > t.slots.count { rehash(&t) }
        return id
    }

    /// The text of name `id` ("" for an id the table did not hand out).
    func string(_ id: Int32) -> String {
        let i = Int(id)
        return storage.strings.indices.contains(i) ? storage.strings[i] : ""
    }

    /// A name token's text ("" for other tokens).
    subscript(token: Token) -> String {
        let i = Int(token.nameID)
        return storage.strings.indices.contains(i) ? storage.strings[i] : ""
    }

    /// Whether the token is the name `word`.
    func isName(_ token: Token, _ word: String) -> Bool { token.kind == .name && self[token] == word }

    /// The attribute a name spells, looked up once per distinct name.
    func attribute(_ id: Int32) -> Attribute? {
        Self.cached(&storage.attributes, storage.strings, Int(id)) { Attribute(rawValue: $0) }
    }

    /// The keyword a line starting with this name has, looked up once per
    /// distinct name (a switch over strings compared each line's first word
    /// with up to eleven keywords).
    func lineKeyword(_ id: Int32) -> LineKeyword? {
        Self.cached(&storage.lineKeywords, storage.strings, Int(id)) { LineKeyword(word: $0) }
    }

    /// What `make` says of name `i`, computed on first use and kept in `cache`.
    private static func cached<T>(_ cache: inout [T??], _ strings: [String], _ i: Int, _ make: (String) -> T?) -> T? {
        guard strings.indices.contains(i), cache.indices.contains(i) else { return nil }
        if let known = cache[i] { return known }
        let value = make(strings[i])
        cache[i] = .some(value)
        return value
    }

    /// Whether the `length` bytes at offsets `a` and `b` are the same (for
    /// names longer than sixteen bytes; shorter ones compare by their words).
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ length: Int) -> Bool {
        for k in 0..<length where bytes[a + k] != bytes[b + k] { return false }
        return true
    }

    private static func rehash(_ t: inout Storage) {
        t.slots = [Int32](repeating: 0, count: t.slots.count * 2)
        let mask = t.slots.count - 1
        for (id, entry) in t.entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while t.slots[slot] != 0 { slot = (slot + 1) & mask }
            t.slots[slot] = Int32(id + 1)
        }
    }
}

/// What a line starting with a name is, by that name.
enum LineKeyword: Equatable {
    case metric, container, views, margins, variant, when, expect
    /// `intrinsic`, `hugging`, `compression` or `baselines`.
    case content
    /// `H` or `V` (a visual format line when a colon follows).
    case visualFormat

    init?(word: String) {
        switch word {
        case "metric": self = .metric
        case "container": self = .container
        case "views": self = .views
        case "margins": self = .margins
        case "variant": self = .variant
        case "when": self = .when
        case "expect": self = .expect
        case "intrinsic", "hugging", "compression", "baselines": self = .content
        case "H", "V": self = .visualFormat
        default: return nil
        }
    }
}
