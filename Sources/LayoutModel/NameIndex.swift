/// Names to their position in a list (the first occurrence of each), the one
/// name lookup of the model: validation, lowering and expectation checking
/// all resolve view names through it.
///
/// Why not `[String: Int]`: a grid of 10^5 rows resolves a million names, and
/// `String`'s hashing (SipHash over the normalised text) plus the dictionary's
/// probing cost about 600 instructions per lookup, a fifth of `check`. Here a
/// name is hashed with FNV-1a over its UTF-8 bytes and probed linearly in a
/// table kept at most half full; the parser interns names, so the final
/// comparison is usually of two references to the same storage.
///
/// Names are compared by their UTF-8 bytes. For the names the format accepts
/// (ASCII identifiers, ``isValidName(_:)``) that is `String` equality; two
/// spellings of one accented name that `String` calls equal are two names
/// here, and both are refused by validation as invalid names anyway.
public struct NameIndex: Sendable {
    private var names: [String] = []
    private var hashes: [UInt64] = []
    /// Position + 1 per slot (0 = empty); the count is a power of two.
    private var slots: [Int32] = [Int32](repeating: 0, count: 16)

    public init() {}

    /// An empty index with room for `capacity` names without growing (each
    /// growth is three allocations; a layout's solver probes lower a copy
    /// of the layout, so an add + remove built two indexes).
    public init(minimumCapacity capacity: Int) {
        let n = max(0, capacity)
        names.reserveCapacity(n)
        hashes.reserveCapacity(n)
        var slotCount = 16
        while slotCount < 2 * n { slotCount *= 2 }
        slots = [Int32](repeating: 0, count: slotCount)
    }

    /// An index of `names`: each name maps to its first position.
    /// - Complexity: O(total length of the names) expected.
    public init<S: Sequence>(_ names: S) where S.Element == String {
        self.init(minimumCapacity: names.underestimatedCount)
        for name in names { append(name) }
    }

    /// How many names were appended (duplicates included).
    public var count: Int { names.count }

    /// Appends a name at position ``count``; a name already present keeps
    /// its first position. Returns that first position.
    /// - Complexity: O(length of the name) amortised expected.
    @discardableResult
    public mutating func append(_ name: String) -> Int {
        let hash = Self.hash(name)
        if let existing = find(name, hash) {
            names.append(name)
            hashes.append(hash)
            return existing
        }
        let position = names.count
        names.append(name)
        hashes.append(hash)
        // Why grow at half full: linear probing stays short below that load.
        if names.count * 2 > slots.count { rehash(capacity: slots.count * 2) } else { place(position, hash) }
        return position
    }

    /// The first position of `name`, or nil.
    /// - Complexity: O(length of the name) expected.
    public subscript(name: String) -> Int? { find(name, Self.hash(name)) }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    private func find(_ name: String, _ hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if hashes[entry - 1] == hash, names[entry - 1] == name { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    private mutating func place(_ position: Int, _ hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: position + 1)
    }

    private mutating func rehash(capacity: Int) {
        slots = [Int32](repeating: 0, count: capacity)
        for position in names.indices {
            // Only first occurrences are placed (a duplicate maps to the first).
            if find(names[position], hashes[position]) == nil { place(position, hashes[position]) }
        }
    }

    /// FNV-1a (64-bit) over the UTF-8 bytes.
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if let h = name.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
            var h = hash
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }) {
            return h
        }
        for b in name.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return hash
    }
}
