// The arrays a parse fills, built in place: each chunk of lines (one per
// thread, ParallelLines.swift) writes its values straight into its own
// region of the final array's storage, sized by pass 1's count of the
// chunk's lines, and the regions are closed up at the end.
//
// Why in place: the chunks' threads once filled runs of their own, which
// the main thread moved into its arrays, as they came and after its own
// chunk. Every value of a later chunk was then written twice and its pages
// faulted twice (the run's, then the array's; a fault is about 2 µs on
// these VMs), and the main thread's moves were a tail after both threads
// were done: 1.6-5.7 ms of a 10^4-row grid's 25 ms parse, 45-50 ms of a
// 10^5-row grid's 240 ms (docs/measurements.md#m-2026-11-28-parse-in-place).
// Written in place, each value is written once, by the thread that read
// it, and the main thread has nothing left to move when the threads end.
//
// Why a region can overflow: pass 1 counts lines by their first byte, which
// is exact for the plain lines every generated family is made of, but a
// visual format or `when` line makes several constraints, and the count is
// capped (``FileParser/reserveLimit``). The values past a region's end go
// to an array of its own, in order; closing up moves them in after the
// region's values, or, when they do not fit before the next region, moves
// everything into a new array (one copy, as the arrays' growth made before).

import MemoryHints
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A region of an array's storage that one chunk fills, in order, with
/// an array for whatever does not fit.
///
/// Why a struct with a pointer: one thread writes a region at a time (the
/// chunk's, then the main thread after the join), and its appends are the
/// inner loop of the parse (80,000 a 10^4-row grid), so each is a bound
/// check and a store, no retain of a shared object.
struct ValueSlots<Element> {
    /// The whole array's storage (nil for a region that is only an array).
    private let storage: UnsafeMutablePointer<Element>?
    /// Where the region starts in the storage, and its length.
    let offset: Int
    let capacity: Int
    /// Values written in the region, from its start.
    private(set) var placed = 0
    /// Values appended after the region was full, in order.
    private(set) var overflow: [Element] = []
    /// Slots from the region's start whose pages are known to be mapped.
    private var prefaulted = 0

    /// A region with no storage: every value goes to its array (a parser
    /// that is not filling an array in place: the line tests).
    init() {
        storage = nil
        offset = 0
        capacity = 0
    }

    /// The region `offset..<offset + capacity` of `buffer`, clamped to it.
    init(_ buffer: UnsafeMutableBufferPointer<Element>, offset: Int, capacity: Int) {
        storage = buffer.baseAddress
        let start = min(max(0, offset), buffer.count)
        self.offset = start
        self.capacity = buffer.baseAddress == nil ? 0 : min(max(0, capacity), buffer.count - start)
    }

    var count: Int { placed + overflow.count }
    var isEmpty: Bool { count == 0 }

    /// Appends `value` in the region, or to the overflow when it is full.
    /// - Complexity: O(1) (amortised, past the region).
    @inline(__always)
    mutating func append(_ value: consuming Element) {
        if placed < capacity, let storage {
            if placed == prefaulted { prefault(storage) }
            (storage + offset + placed).initialize(to: value)
            placed += 1
        } else {
            overflow.append(value)
        }
    }

    /// The pages of the next ``prefaultBytes`` of the region, mapped at once.
    ///
    /// Why: a parse writes fresh memory, and each first write to a page is a
    /// fault, about 2 µs on these VMs (a 10^5-row grid's arrays are 30,000
    /// pages); asked for a stretch at a time, the kernel maps them in one
    /// call. Why a stretch, not the whole region: a region is sized by a
    /// count of lines that may be errors, and only what is written is mapped.
    @inline(never)
    private mutating func prefault(_ storage: UnsafeMutablePointer<Element>) {
        let stride = MemoryLayout<Element>.stride
        let step = max(1, Self.prefaultBytes / max(1, stride))
        // Why not for a region under a stretch: its faults are few, and the
        // call was a system call for every array of every small file
        // (+5% of the corpus's parse time in the A/B gate).
        guard capacity > step else {
            prefaulted = capacity
            return
        }
        let end = min(capacity, prefaulted + step)
        Prefault.pages(from: UnsafeMutableRawPointer(storage + offset + prefaulted),
                       to: UnsafeMutableRawPointer(storage + offset + end))
        prefaulted = end
    }

    static var prefaultBytes: Int { 1 << 20 }

    /// - Complexity: O(`values.count`).
    mutating func append(contentsOf values: [Element]) {
        for value in values { append(value) }
    }

    /// The values, in order (a copy; for tests and diagnostics, not the parse).
    var elements: [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        if let storage {
            all.append(contentsOf: UnsafeBufferPointer(start: storage + offset, count: placed))
        }
        all.append(contentsOf: overflow)
        return all
    }

    /// Closes up `regions` (in order, disjoint, ascending in `buffer`) so
    /// that their values are the first elements of `buffer`, in order, and
    /// returns how many; or, when some region's values and overflow do not
    /// fit before the next region's start, moves every value into `spill`
    /// (in order) and returns 0. Either way every value placed in a region
    /// has been moved exactly once.
    ///
    /// - Complexity: O(values); a region already in place is not touched,
    ///   and a closed-up region is one `memmove`.
    static func assemble(_ regions: consuming [ValueSlots], in buffer: UnsafeMutableBufferPointer<Element>,
                         spill: inout [Element]?) -> Int {
        guard let base = buffer.baseAddress else {
            // No storage: every value is in an overflow array.
            var all: [Element] = []
            for region in regions { all.append(contentsOf: region.overflow) }
            if !all.isEmpty { spill = all }
            return 0
        }
        // In place when each region's values end before the next values
        // still to be moved (the next region with any placed).
        var end = 0
        var fits = true
        var nextPlaced = [Int](repeating: buffer.count, count: regions.count)
        var following = buffer.count
        for i in regions.indices.reversed() {
            nextPlaced[i] = following
            if regions[i].placed > 0 { following = regions[i].offset }
        }
        for (i, region) in regions.enumerated() {
            end += region.count
            if end > nextPlaced[i] { fits = false }
        }
        guard fits else {
            var all: [Element] = []
            all.reserveCapacity(end)
            for region in regions {
                for k in 0..<region.placed { all.append((base + region.offset + k).move()) }
                all.append(contentsOf: region.overflow)
            }
            spill = all
            return 0
        }
        var written = 0
        for region in regions {
            // Why a move down may overlap: `moveInitialize` copies forward
            // when the target is below the source, as a memmove does.
            if written != region.offset, region.placed > 0 {
                (base + written).moveInitialize(from: base + region.offset, count: region.placed)
            }
            written += region.placed
            for value in region.overflow {
                (base + written).initialize(to: value)
                written += 1
            }
        }
        return written
    }
}

/// The kernel's side of ``ValueSlots``'s prefault: whole pages, one call.
enum Prefault {
    static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Maps the pages of `start..<end` for writing, in one call
    /// (``memory_hints_populate_write``; where the kernel cannot, they
    /// fault as written).
    static func pages(from start: UnsafeMutableRawPointer, to end: UnsafeMutableRawPointer) {
        let first = Int(bitPattern: start) & ~(pageSize - 1)
        let last = Int(bitPattern: end)
        guard last > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = memory_hints_populate_write(pointer, last - first)
    }
}

/// An array built in place by `fill`, which writes the values into regions
/// of the storage it is given (``ValueSlots``) and returns the regions, in
/// order.
///
/// - Complexity: O(`capacity`) of address space; O(values) time.
func arrayBuiltInPlace<Element>(capacity: Int,
                                _ fill: (UnsafeMutableBufferPointer<Element>) -> [ValueSlots<Element>]) -> [Element] {
    var spill: [Element]?
    let built = [Element](unsafeUninitializedCapacity: max(0, capacity)) { buffer, count in
        count = ValueSlots.assemble(fill(buffer), in: buffer, spill: &spill)
    }
    return spill ?? built
}
