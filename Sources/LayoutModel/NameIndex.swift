/// Names to their position in a list (the first occurrence of each), the one
/// name lookup of the model: validation, lowering and expectation checking
/// all resolve view names through it.
///
/// Why not `[String: Int]`: a grid of 10^5 rows resolves a million names, and
/// `String`'s hashing (SipHash over the normalised text) plus the dictionary's
/// probing cost about 600 instructions per lookup (evidence:
/// docs/measurements.md#m-front-end-costs). Here a
/// name is hashed with FNV-1a over its UTF-8 bytes and probed linearly in a
/// table kept at most half full; the parser interns names, so the final
/// comparison is usually of two references to the same storage.
///
/// Why small lists have no table: a solver's add + remove lowers a copy of
/// the layout, which builds two indexes, and most layouts have a handful of
/// views; up to ``linearLimit`` names are searched in order, with no
/// allocation beyond the list itself (which an index made from an array
/// shares).
///
/// Names are compared by their UTF-8 bytes. For the names the format accepts
/// (ASCII identifiers, ``isValidName(_:)``) that is `String` equality; two
/// spellings of one accented name that `String` calls equal are two names
/// here, and both are refused by validation as invalid names anyway.
public struct NameIndex: Sendable {
    private var names: [String] = []
    /// Position + 1 per slot (0 = empty); the count is a power of two.
    /// Empty while there are at most ``linearLimit`` names.
    private var slots: [Int32] = []

    /// Up to this many names are searched in order, without a table.
    static let linearLimit = 8

    public init() {}

    /// An empty index with room for `capacity` names without growing.
    public init(minimumCapacity capacity: Int) {
        names.reserveCapacity(max(0, capacity))
    }

    /// An index of `names`: each name maps to its first position. The array
    /// is shared, not copied.
    /// - Complexity: O(total length of the names) expected.
    public init(_ names: [String]) {
        self.names = names
        if names.count > Self.linearLimit { rehash() }
    }

    /// How many names were appended (duplicates included).
    public var count: Int { names.count }

    /// Appends a name at position ``count``; a name already present keeps
    /// its first position. Returns that first position.
    /// - Complexity: O(length of the name) amortised expected.
    @discardableResult
    public mutating func append(_ name: String) -> Int {
        let existing = self[name]
        names.append(name)
        let position = names.count - 1
        if names.count > Self.linearLimit {
            // Why grow at half full: linear probing stays short below that load.
            if slots.isEmpty || names.count * 2 > slots.count {
                rehash()
            } else if existing == nil {
                place(position, Self.hash(name))
            }
        }
        return existing ?? position
    }

    /// The first position of `name`, or nil.
    /// - Complexity: O(length of the name) expected.
    public subscript(name: String) -> Int? {
        if slots.isEmpty {
            for (i, candidate) in names.enumerated() where candidate == name { return i }
            return nil
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(name)) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if names[entry - 1] == name { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    private mutating func place(_ position: Int, _ hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: position + 1)
    }

    /// Rebuilds the table for the current names (only first occurrences are
    /// placed: a duplicate maps to the first).
    private mutating func rehash() {
        var capacity = 16
        while capacity < 2 * names.count { capacity *= 2 }
        slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for position in names.indices {
            let name = names[position]
            var slot = Int(truncatingIfNeeded: Self.hash(name)) & mask
            var duplicate = false
            while slots[slot] != 0 {
                if names[Int(slots[slot]) - 1] == name { duplicate = true; break }
                slot = (slot + 1) & mask
            }
            if !duplicate { slots[slot] = Int32(truncatingIfNeeded: position + 1) }
        }
    }

    /// ``FNV1a`` over the UTF-8 bytes (contiguous for native strings).
    static func hash(_ name: String) -> UInt64 {
        name.utf8.withContiguousStorageIfAvailable { FNV1a.hash($0) } ?? FNV1a.hash(name.utf8)
    }
}

/// Names already resolved, remembered by the bits of their `String` values:
/// a cache in front of ``NameIndex`` for passes that resolve the same few
/// names again and again (validation's and lowering's pass over the
/// constraints, where each view is named by a few neighbouring constraints).
///
/// Why: resolving through ``NameIndex`` hashes the name's bytes, which was
/// half of validation's instructions on the grid. A parsed layout shares one
/// `String` per name, so the two words of a `String` value, hashed and
/// compared here in a few instructions, find most names seen before.
///
/// Why it is exact: equal bits are the same string (a small string's bits
/// are its bytes and length; a large one's name its storage, immutable while
/// shared). Different bits prove nothing, so a miss must ask ``NameIndex``.
/// The memo holds no reference, so it must not outlive the strings it has
/// seen: a caller keeps it for one pass over a layout that holds them all, so
/// no storage it names can be freed and reused by another string.
package struct NameMemo {
    private var keys: [(UInt64, UInt64)]
    /// The value + 1 per slot (0: empty).
    private var values: [Int32]
    /// The slot count - 1 (a power of two minus one).
    private let mask: Int

    /// A memo for a pass over `lookups` names: twice as many slots, between
    /// 16 and 4,096. Why bounded: it is a cache of neighbours, not a table
    /// of every name (misses ask the index), and a small layout should not
    /// clear 80 KB for it.
    package init(lookups: Int) {
        var count = 16
        while count < 4_096 && count < 2 * lookups { count *= 2 }
        keys = [(UInt64, UInt64)](repeating: (0, 0), count: count)
        values = [Int32](repeating: 0, count: count)
        mask = count - 1
    }

    @inline(__always) private static func bits(_ name: String) -> (UInt64, UInt64)? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return withUnsafeBytes(of: name) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    @inline(__always) private func slot(_ key: (UInt64, UInt64)) -> Int {
        let h = (key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: h >> 52) & mask
    }

    /// The value remembered for `name`; nil is no answer (ask the index).
    package subscript(name: String) -> Int? {
        guard let key = Self.bits(name) else { return nil }
        let i = slot(key)
        guard values[i] != 0, keys[i] == key else { return nil }
        return Int(values[i]) - 1
    }

    /// Remembers `value` (0 ..< Int32.max) for `name`, replacing what shared its slot.
    package mutating func insert(_ name: String, _ value: Int) {
        guard let key = Self.bits(name), value >= 0, value < Int(Int32.max) else { return }
        let i = slot(key)
        keys[i] = key
        values[i] = Int32(value) + 1
    }
}

/// A ``NameIndex`` asked through a ``NameMemo``: the views of a pass over a
/// layout's constraints, which the lowering and the insertion order both
/// resolve (neighbouring constraints name the same views, so most names are
/// answered by the memo's one slot). Kept for one pass, as the memo must be.
package struct MemoisedNames {
    private let index: NameIndex
    private var memo: NameMemo

    /// - Parameter lookups: how many names the pass asks for (sizes the memo).
    package init(_ index: NameIndex, lookups: Int) {
        self.index = index
        memo = NameMemo(lookups: lookups)
    }

    /// The view index of `name`; nil for a name the index does not have.
    /// - Complexity: O(1) for a name the memo holds, else the index's lookup.
    @inline(__always) package mutating func view(_ name: String) -> Int? {
        if let known = memo[name] { return known }
        guard let found = index[name] else { return nil }
        memo.insert(name, found)
        return found
    }
}
