/// Names mapped to dense indices (view numbers), for the lookups that
/// validation and lowering make for every item of every constraint.
///
/// Why not `[String: Int]`: the standard dictionary hashes with SipHash
/// (seeded per process); over a million lookups of short names that was most
/// of validation's time. FNV-1a over the UTF-8 bytes, with open addressing,
/// costs a fraction of it. Equality is `String` equality, so the answers are
/// the dictionary's; only the hash differs, and it never leaves this type.
public struct NameIndex: Sendable {
    private var names: [String] = []
    private var values: [Int] = []
    private var hashes: [UInt64] = []
    /// Entry + 1 per slot (0 = empty); a power of two, at most half full.
    private var slots: [Int32]

    public init(minimumCapacity: Int = 0) {
        var size = 16
        while size < 2 * minimumCapacity { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
    }

    public var count: Int { names.count }

    static func hash(_ name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The value of `name`, or nil.
    /// - Complexity: O(length of the name) expected.
    public func value(of name: String) -> Int? {
        let h = Self.hash(name)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while slots[slot] != 0 {
            let e = Int(slots[slot] - 1)
            if hashes[e] == h, names[e] == name { return values[e] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    public func contains(_ name: String) -> Bool { value(of: name) != nil }

    /// Adds `name` with `value` unless it is there; returns the value it
    /// already had (the first insertion wins, as a declaration does).
    @discardableResult
    public mutating func insert(_ name: String, value: Int) -> Int? {
        let h = Self.hash(name)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while slots[slot] != 0 {
            let e = Int(slots[slot] - 1)
            if hashes[e] == h, names[e] == name { return values[e] }
            slot = (slot + 1) & mask
        }
        names.append(name)
        values.append(value)
        hashes.append(h)
        slots[slot] = Int32(names.count)
        if names.count * 2 > slots.count { grow() }
        return nil
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (e, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(e + 1)
        }
    }
}
