/// Values keyed by a dense, counting-up integer id (constraint ids here).
///
/// Why not a dictionary: ids are handed out in order from 0, so an array of
/// optionals is a perfect hash; the two dictionaries this replaces cost a
/// hash-table entry per constraint and a cache miss per lookup (evidence:
/// docs/measurements.md#m-2026-11-23-profile).
/// Iteration is in id order, so everything built from it is deterministic.
struct DenseTable<Value> {
    private var slots: [Value?] = []
    /// The number of ids with a value.
    private(set) var count = 0

    /// The value of `id`, nil if none; setting nil removes it.
    /// - Complexity: O(1) amortised (setting past the end grows the table).
    subscript(id: Int) -> Value? {
        get { id >= 0 && id < slots.count ? slots[id] : nil }
        set {
            guard id >= 0 else { return }
            if id >= slots.count {
                guard let newValue else { return }
                // Why a plain append for the next id: ids come in order, and
                // the generic append of a repeated nil cost hundreds of
                // instructions per constraint added.
                if id > slots.count { slots.append(contentsOf: repeatElement(nil, count: id - slots.count)) }
                slots.append(newValue)
                count += 1
                return
            }
            if slots[id] == nil, newValue != nil { count += 1 } else if slots[id] != nil, newValue == nil { count -= 1 }
            slots[id] = newValue
        }
    }

    /// The ids and values present, by id.
    /// - Complexity: O(largest id).
    var entries: [(id: Int, value: Value)] {
        var out: [(id: Int, value: Value)] = []
        out.reserveCapacity(count)
        for (id, slot) in slots.enumerated() { if let slot { out.append((id, slot)) } }
        return out
    }
}

/// The set of basic rows that contain one symbol (a column of the tableau).
///
/// Why not `Set<Int32>`: there is one column per symbol (a million at
/// 800,000 constraints) and almost all of them hold one to three rows; a
/// hash set allocates for each, which made the column index the largest
/// part of the tableau's memory. Up to three rows live inline; a column that
/// grows past that (a container edit that every row depends on) moves to a
/// hash set, so insert and remove stay O(1) however long it gets.
/// Iteration order: inline rows in insertion order (a removal moves the last
/// one into the hole), then a spilled set's order. Nothing depends on it:
/// callers break ties by id.
struct ColumnSet: Sequence, ExpressibleByArrayLiteral {
    private var first: Int32 = 0, second: Int32 = 0, third: Int32 = 0
    private var inlineCount: UInt8 = 0
    private var spill: Set<Int32>?

    init() {}

    init(arrayLiteral elements: Int32...) {
        for e in elements { insert(e) }
    }

    var count: Int { spill?.count ?? Int(inlineCount) }
    /// Whether the rows live in a hash set (more than three were ever held).
    var isSpilled: Bool { spill != nil }
    var isEmpty: Bool { count == 0 }

    private func slot(_ i: Int) -> Int32 {
        switch i {
        case 0: return first
        case 1: return second
        default: return third
        }
    }

    private mutating func setSlot(_ i: Int, _ value: Int32) {
        switch i {
        case 0: first = value
        case 1: second = value
        default: third = value
        }
    }

    func contains(_ element: Int32) -> Bool {
        if let spill { return spill.contains(element) }
        for i in 0..<Int(inlineCount) where slot(i) == element { return true }
        return false
    }

    /// Adds `element` (nothing if present).
    /// - Complexity: O(1).
    mutating func insert(_ element: Int32) {
        if spill != nil {
            spill!.insert(element)
            return
        }
        if contains(element) { return }
        if inlineCount < 3 {
            setSlot(Int(inlineCount), element)
            inlineCount += 1
            return
        }
        var set = Set<Int32>(minimumCapacity: 8)
        set.insert(first)
        set.insert(second)
        set.insert(third)
        set.insert(element)
        spill = set
        inlineCount = 0
    }

    /// Removes `element` (nothing if absent).
    /// - Complexity: O(1).
    mutating func remove(_ element: Int32) {
        if spill != nil {
            spill!.remove(element)
            return
        }
        let n = Int(inlineCount)
        for i in 0..<n where slot(i) == element {
            setSlot(i, slot(n - 1))
            inlineCount -= 1
            return
        }
    }

    struct Iterator: IteratorProtocol {
        let column: ColumnSet
        var position = 0
        var spilled: Set<Int32>.Iterator?

        mutating func next() -> Int32? {
            if spilled != nil { return spilled!.next() }
            guard position < Int(column.inlineCount) else { return nil }
            defer { position += 1 }
            return column.slot(position)
        }
    }

    func makeIterator() -> Iterator { Iterator(column: self, spilled: spill?.makeIterator()) }
}

extension DenseTable: Sendable where Value: Sendable {}
extension ColumnSet: Sendable {}
