/// Values keyed by a dense, counting-up integer id (constraint ids here).
///
/// Why not a dictionary: ids are handed out in order from 0, so an array of
/// optionals is a perfect hash; the two dictionaries this replaces cost a
/// hash-table entry per constraint and a cache miss per lookup (evidence:
/// docs/measurements.md#m-2026-11-23-profile).
/// Iteration is in id order, so everything built from it is deterministic.
struct DenseTable<Value: DenseTableValue> {
    /// Why values, not optionals, with a vacant value for "none": an
    /// optional's tag is a byte past the value, which rounded a 48-byte
    /// record up to 56 (6.4 MB over a grid's 800,000 constraints).
    private var slots: [Value] = []
    /// The number of ids with a value.
    private(set) var count = 0

    /// The value of `id`, nil if none; setting nil removes it.
    /// - Complexity: O(1) amortised (setting past the end grows the table).
    subscript(id: Int) -> Value? {
        get { id >= 0 && id < slots.count && !slots[id].isVacant ? slots[id] : nil }
        set {
            guard id >= 0 else { return }
            // (A vacant value given is taken as nil.)
            let value = newValue.flatMap { $0.isVacant ? nil : $0 }
            if id >= slots.count {
                guard let value else { return }
                // Why a plain append for the next id: ids come in order, and
                // the generic append of a repeated vacancy cost hundreds of
                // instructions per constraint added.
                if id > slots.count { slots.append(contentsOf: repeatElement(Value.vacant, count: id - slots.count)) }
                slots.append(value)
                count += 1
                return
            }
            let wasVacant = slots[id].isVacant
            if wasVacant, value != nil { count += 1 } else if !wasVacant, value == nil { count -= 1 }
            slots[id] = value ?? Value.vacant
        }
    }

    /// Room for ids below `count` without growing (growth by doubling
    /// leaves up to half the table unused and copies it on the way).
    /// - Complexity: O(count).
    mutating func reserveCapacity(_ count: Int) { slots.reserveCapacity(count) }

    /// Changes every value present in place, in id order.
    /// - Complexity: O(largest id).
    mutating func updateEach(_ body: (inout Value) -> Void) {
        for id in slots.indices where !slots[id].isVacant {
            body(&slots[id])
        }
    }

    /// The ids and values present, by id.
    /// - Complexity: O(largest id).
    var entries: [(id: Int, value: Value)] {
        var out: [(id: Int, value: Value)] = []
        out.reserveCapacity(count)
        for (id, slot) in slots.enumerated() where !slot.isVacant { out.append((id, slot)) }
        return out
    }
}

/// A value that a ``DenseTable`` stores as itself: one of its own bit
/// patterns, never a real value, stands for "none".
protocol DenseTableValue {
    /// The value that marks an id without one.
    static var vacant: Self { get }
    var isVacant: Bool { get }
}

/// The set of basic rows that contain one symbol (a column of the tableau).
///
/// Why not `Set<Int32>`: there is one column per symbol (a million at
/// 800,000 constraints) and almost all of them hold one to three rows; a
/// hash set allocates for each, which made the column index the largest
/// part of the tableau's memory. Three tiers, by length:
/// - up to three rows inline, in the column's own 16 bytes;
/// - up to ``listLimit`` rows in a plain array: an insert appends, a removal
///   finds the row by a scan and moves the last one into the hole. Why not
///   the hash set from four rows on: most updates a pivot makes fall on
///   columns of 4 to 30 rows (56% of a random layout's resize, 28% on inline
///   ones; docs/measurements.md#m-2026-11-29-column-lists), and there a scan
///   of a cache line or two costs less than hashing, probing and the
///   backward shift of a removal;
/// - past that (a container edit that every row depends on) a hash set
///   (``SpilledColumn``), so insert and remove stay O(1) however long it
///   gets. It turns back into a list when it shrinks to ``listReturn`` rows
///   (a gap between the two bounds, so a column at the bound does not
///   convert at every change).
/// Iteration order: inline rows and a list's rows in insertion order (a
/// removal moves the last one into the hole), a hash set's in slot order.
/// All follow from the sequence of inserts and removes alone, never from the
/// process: the order decides which rows are raised first when re-ranking,
/// and so the last bits of some answers (with Swift's per-process seeded
/// `Set`, one real screen's frames changed in the 14th digit from run to run).
struct ColumnSet: Sequence, ExpressibleByArrayLiteral {
    /// Why an enum: the tiers are never in use together, so they share their
    /// bytes: 16 a column (three ids and a count, or one reference), 8 MB
    /// over the million symbols of a grid at R = 10^5.
    private enum Storage {
        case inline(Int32, Int32, Int32, count: UInt8)
        case list([Int32])
        case spilled(SpilledColumn)
    }
    private var storage = Storage.inline(0, 0, 0, count: 0)

    /// The longest list; one more row moves the column into a hash set.
    static let listLimit = 32
    /// The length at which a hash set turns back into a list.
    static let listReturn = 16

    init() {}

    init(arrayLiteral elements: Int32...) {
        for e in elements { insert(e) }
    }

    var count: Int {
        switch storage {
        case .inline(_, _, _, let n): return Int(n)
        case .list(let list): return list.count
        case .spilled(let set): return set.count
        }
    }
    /// Whether the rows live in a hash set (a column that grew past ``listLimit``).
    var isSpilled: Bool {
        if case .spilled = storage { return true }
        return false
    }
    var isEmpty: Bool { count == 0 }

    func contains(_ element: Int32) -> Bool {
        switch storage {
        case .inline(let a, let b, let c, let n):
            return (n > 0 && a == element) || (n > 1 && b == element) || (n > 2 && c == element)
        case .list(let list): return list.contains(element)
        case .spilled(let set): return set.contains(element)
        }
    }

    /// Adds `element` (nothing if present).
    /// - Complexity: O(``listLimit``) at most.
    mutating func insert(_ element: Int32) {
        switch storage {
        case .inline(let a, let b, let c, let n):
            if contains(element) { return }
            switch n {
            case 0: storage = .inline(element, 0, 0, count: 1)
            case 1: storage = .inline(a, element, 0, count: 2)
            case 2: storage = .inline(a, b, element, count: 3)
            default:
                // Room for 16 rows, the hash set's first table's worth:
                // with 8, a list of 9 to 12 rows allocated once more than
                // the set did (the A/B gate counts allocations: with 8,
                // seven of the corpus's cases took 2-6% more).
                var list: [Int32] = []
                list.reserveCapacity(Self.listReturn)
                list.append(a)
                list.append(b)
                list.append(c)
                list.append(element)
                storage = .list(list)
            }
        case .list(var list):
            if list.contains(element) { return }
            // Why the placeholder first: the binding is a second reference
            // to the buffer, and the append would copy it; with the enum's
            // own reference gone it is the only one.
            storage = .inline(0, 0, 0, count: 0)
            if list.count < Self.listLimit {
                list.append(element)
                storage = .list(list)
            } else {
                var set = SpilledColumn()
                for e in list { set.insert(e) }
                set.insert(element)
                storage = .spilled(set)
            }
        case .spilled(var set):
            storage = .inline(0, 0, 0, count: 0)  // (see the list's)
            set.insert(element)
            storage = .spilled(set)
        }
    }

    /// Removes `element` (nothing if absent).
    /// - Complexity: O(``listLimit``) at most.
    mutating func remove(_ element: Int32) {
        switch storage {
        case .inline(let a, let b, let c, let n):
            // The last row moves into the hole (the order the inline rows keep).
            if n > 0 && a == element {
                storage = n == 1 ? .inline(0, 0, 0, count: 0) : n == 2 ? .inline(b, 0, 0, count: 1) : .inline(c, b, 0, count: 2)
            } else if n > 1 && b == element {
                storage = n == 2 ? .inline(a, 0, 0, count: 1) : .inline(a, c, 0, count: 2)
            } else if n > 2 && c == element {
                storage = .inline(a, b, 0, count: 2)
            }
        case .list(var list):
            guard let i = list.firstIndex(of: element) else { return }
            storage = .inline(0, 0, 0, count: 0)  // (see ``insert(_:)``)
            // The last row moves into the hole, as inline.
            let last = list.removeLast()
            if i < list.count { list[i] = last }
            storage = .list(list)
        case .spilled(var set):
            storage = .inline(0, 0, 0, count: 0)  // (see ``insert(_:)``)
            set.remove(element)
            if set.count <= Self.listReturn {
                // Room for the list's whole range, so that it does not
                // grow again before it would turn back into a set.
                var list: [Int32] = []
                list.reserveCapacity(Self.listLimit)
                for e in set { list.append(e) }
                storage = .list(list)
            } else {
                storage = .spilled(set)
            }
        }
    }

    /// Whether an undo of inserting `element` needs the column's whole value:
    /// inline rows, or a full list that the insert turns into a hash set. A
    /// list or a hash set that keeps its tier is undone by the element alone.
    /// Why not the value always: the journal's copy would share the buffer,
    /// and the change would then copy it (allocations of a real screen's
    /// load up to +57% when lists were journaled by value).
    func undoNeedsValue(inserting element: Int32) -> Bool {
        switch storage {
        case .inline: return true
        case .list(let list): return list.count >= Self.listLimit && !list.contains(element)
        case .spilled: return false
        }
    }

    /// Whether an undo of removing `element` needs the column's whole value:
    /// inline rows, or a hash set that the removal turns into a list.
    func undoNeedsValue(removing element: Int32) -> Bool {
        switch storage {
        case .inline: return true
        case .list: return false
        case .spilled(let set): return set.count - 1 <= Self.listReturn && set.contains(element)
        }
    }

    /// Where `element` is in a list (nil for the other tiers or if absent):
    /// what an undo of its removal needs to put it back in its place.
    func listPosition(of element: Int32) -> Int? {
        if case .list(let list) = storage { return list.firstIndex(of: element) }
        return nil
    }

    /// Undoes a list's removal of `element` from `position` (the last row
    /// had moved into the hole): that row goes back to the end and `element`
    /// takes its place, so the list is as it was, order and all.
    mutating func restore(_ element: Int32, at position: Int) {
        guard case .list(var list) = storage, position <= list.count else {
            insert(element)
            return
        }
        storage = .inline(0, 0, 0, count: 0)  // (see ``insert(_:)``)
        if position == list.count {
            list.append(element)
        } else {
            list.append(list[position])
            list[position] = element
        }
        storage = .list(list)
    }

    /// Why one buffer for both long tiers: a list's rows and a hash set's
    /// slots are both `[Int32]` whose empty slots are negative, so one loop
    /// walks either (a set's walk starts past its count); an iterator with a
    /// field for each made every walk of an inline column (the grid's load
    /// walks thousands to rank rows) build and destroy both.
    struct Iterator: IteratorProtocol {
        fileprivate let inline: (Int32, Int32, Int32)
        fileprivate let buffer: [Int32]?
        fileprivate var position: Int
        fileprivate let end: Int

        mutating func next() -> Int32? {
            if let buffer {
                while position < end {
                    let v = buffer[position]
                    position += 1
                    if v >= 0 { return v }
                }
                return nil
            }
            guard position < end else { return nil }
            defer { position += 1 }
            switch position {
            case 0: return inline.0
            case 1: return inline.1
            default: return inline.2
            }
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .inline(let a, let b, let c, let n): return Iterator(inline: (a, b, c), buffer: nil, position: 0, end: Int(n))
        case .list(let list): return Iterator(inline: (0, 0, 0), buffer: list, position: 0, end: list.count)
        case .spilled(let set): return set.makeIterator()
        }
    }
}

extension DenseTable: Sendable where Value: Sendable {}
extension ColumnSet: Sendable {}

/// A set of non-negative row ids for a long column: open addressing with
/// linear probing and a fixed (unseeded) hash, so its iteration order is a
/// function of the operations alone (see ``ColumnSet``).
///
/// Why not `Set<Int32>`: Swift seeds its hashes per process, so the order in
/// which a spilled column was walked, and with it the solver's re-ranking,
/// changed from run to run. Why the count lives in the array: one reference
/// is all a ``ColumnSet`` carries, and there is a column per symbol. Why
/// removal shifts entries back instead of leaving tombstones: a column that
/// sees a row come and go over and over (an edit's, through add + remove)
/// would otherwise fill with tombstones and rehash every few operations.
struct SpilledColumn: Sequence {
    /// `[count, slot 0, slot 1, ...]`: a slot holds an id or -1 (empty); the
    /// slot count is a power of two, at most three quarters full.
    private var storage: [Int32] = SpilledColumn.table(slots: 16)

    private static let empty: Int32 = -1
    private static let header = 1

    var count: Int { Int(storage[0]) }
    private var capacity: Int { storage.count - Self.header }

    private static func table(slots: Int) -> [Int32] {
        var t = [Int32](repeating: empty, count: slots + header)
        t[0] = 0
        return t
    }

    /// Fibonacci hashing: the top bits of the id times 2^32/φ.
    private static func home(_ element: Int32, _ capacity: Int) -> Int {
        let h = UInt32(truncatingIfNeeded: element) &* 0x9E37_79B1
        return Int(h >> UInt32(32 - capacity.trailingZeroBitCount)) & (capacity - 1)
    }

    /// Where the probe run for `element` stops (0-based, after the header):
    /// its slot if present, else the empty slot that ends the run, the one
    /// an insert takes.
    @inline(__always)
    private func probe(_ element: Int32) -> (found: Bool, slot: Int) {
        let mask = capacity - 1
        var i = Self.home(element, capacity)
        while true {
            let v = storage[Self.header + i]
            if v == element { return (true, i) }
            if v == Self.empty { return (false, i) }
            i = (i + 1) & mask
        }
    }

    /// The slot (0-based, after the header) holding `element`, or nil.
    private func find(_ element: Int32) -> Int? {
        let stop = probe(element)
        return stop.found ? stop.slot : nil
    }

    func contains(_ element: Int32) -> Bool { element >= 0 && find(element) != nil }

    /// Adds `element` (a negative id is ignored: ids are never negative).
    /// - Complexity: O(1) amortised.
    mutating func insert(_ element: Int32) {
        guard element >= 0 else { return }
        // One probe: the slot where the search for `element` stops is the
        // one an insert takes. Why: a search and then a second probe from
        // the home slot walked every probe run twice, and columns are
        // updated for every cell a pivot adds or cancels (a quarter of a
        // random layout's resize; docs/measurements.md#m-2026-11-28-restricted-pivots).
        var stop = probe(element)
        if stop.found { return }
        if (count + 1) * 4 > capacity * 3 {
            // The table grows first, as before, and the slot is found again in it.
            rehash(slots: capacity * 2)
            stop = probe(element)
        }
        let slot = Self.header + stop.slot
        storage.withUnsafeMutableBufferPointer { table in
            table[slot] = element
            table[0] += 1
        }
    }

    /// Removes `element` (nothing if absent), moving back the entries of
    /// its probe run that the hole would cut off from their home slots.
    /// - Complexity: O(1) amortised.
    mutating func remove(_ element: Int32) {
        guard element >= 0, let found = find(element) else { return }
        let capacity = self.capacity, mask = capacity - 1
        storage.withUnsafeMutableBufferPointer { table in
            var hole = found, j = found
            while true {
                j = (j + 1) & mask
                let v = table[Self.header + j]
                if v == Self.empty { break }
                let h = Self.home(v, capacity)
                // `v` may fill the hole unless its home lies cyclically in (hole, j].
                let between = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j)
                if !between {
                    table[Self.header + hole] = v
                    hole = j
                }
            }
            table[Self.header + hole] = Self.empty
            table[0] -= 1
        }
        // Why shrink: iteration walks the slots, so a column that emptied
        // after being long must not keep its size.
        if capacity > 16 && count * 8 < capacity { rehash(slots: capacity / 4) }
    }

    /// Re-inserts the entries, in slot order, into `slots` slots (a power of two).
    private mutating func rehash(slots: Int) {
        let size = Swift.max(16, slots)
        var new = Self.table(slots: size)
        for v in storage.dropFirst(Self.header) where v >= 0 {
            var i = Self.home(v, size)
            while new[Self.header + i] != Self.empty { i = (i + 1) & (size - 1) }
            new[Self.header + i] = v
        }
        new[0] = storage[0]
        storage = new
    }

    /// The slots in order, past the count: ``ColumnSet``'s walk, which
    /// skips the empty (negative) slots as it skips nothing in a list.
    func makeIterator() -> ColumnSet.Iterator {
        ColumnSet.Iterator(inline: (0, 0, 0), buffer: storage, position: Self.header, end: storage.count)
    }
}

/// A binary heap in one array, in an order the caller gives with each
/// operation (`before(a, b)`: `a` comes out first). Why the order per call
/// rather than stored: the tableau's flattening orders symbol ids by ranks
/// it owns (a stored closure would capture the tableau). The sift steps are
/// fixed, so the same operations in the same order give the same sequence,
/// ties included. The dual simplex's waiting rows are a heap of (constant,
/// id) entries (``InfeasibleQueue``).
struct BinaryHeap<Element> {
    private(set) var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    /// - Complexity: O(log count).
    @inline(__always)
    mutating func push(_ element: Element, by before: (Element, Element) -> Bool) {
        elements.append(element)
        var i = elements.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard before(elements[i], elements[parent]) else { break }
            elements.swapAt(i, parent)
            i = parent
        }
    }

    /// The first element in the order, removed; nil when empty.
    /// - Complexity: O(log count).
    /// (Inlined, as the heap of ids was before it took any element: out of
    /// line, the flattening of an equal row's load took 7% more instructions.)
    @inline(__always)
    mutating func pop(by before: (Element, Element) -> Bool) -> Element? {
        guard let top = elements.first else { return nil }
        let last = elements.removeLast()
        guard !elements.isEmpty else { return top }
        elements[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < elements.count, before(elements[l], elements[best]) { best = l }
            if r < elements.count, before(elements[r], elements[best]) { best = r }
            guard best != i else { return top }
            elements.swapAt(i, best)
            i = best
        }
    }

    /// Empties the heap, keeping its storage.
    mutating func removeAll() { elements.removeAll(keepingCapacity: true) }
}

extension BinaryHeap: Sendable where Element: Sendable {}

/// Symbol ids in a heap (the tableau's flattening).
typealias IDHeap = BinaryHeap<Int32>
