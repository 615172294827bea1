@testable import LayoutFormat
import Testing

/// ``ValueSlots`` and ``arrayBuiltInPlace(capacity:_:)``: the regions'
/// values, closed up, in order, each exactly once, whether they fit in
/// their regions, overflow into the gap of a short region, or spill.
@Suite("An array built in place by regions")
struct ValueSlotsTests {
    /// A value whose life can be watched through a weak reference.
    final class Tracked {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    /// Builds an array of `sizes.count` regions of the given sizes, region
    /// k given `fills[k]` values (labelled "k.i"), and returns it.
    static func build(sizes: [Int], fills: [Int]) -> [String] {
        arrayBuiltInPlace(capacity: sizes.reduce(0, +)) { (storage: UnsafeMutableBufferPointer<String>) in
            var regions = FileParser.regions(of: storage, sizes: sizes)
            for (k, n) in fills.enumerated() {
                for i in 0..<n { regions[k].append("\(k).\(i)") }
            }
            return regions
        }
    }

    static func expected(_ fills: [Int]) -> [String] {
        fills.enumerated().flatMap { k, n in (0..<n).map { "\(k).\($0)" } }
    }

    @Test("regions filled exactly, short, empty, overflowing into a short neighbour's gap, or past it",
          arguments: [
              ([4, 4, 4], [4, 4, 4]),      // exact: nothing moves
              ([4, 4, 4], [2, 4, 1]),      // short regions: the later ones move down
              ([4, 4, 4], [0, 0, 0]),
              ([4, 4, 4], [0, 9, 0]),      // an overflow fits in an empty region's room
              ([4, 4, 4], [0, 9, 1]),      // ... not before the last region's value: spilled
              ([4, 4, 4], [2, 5, 3]),      // overflow into a gap left by the first region
              ([4, 4, 4], [6, 4, 4]),      // does not fit before the next region: spilled
              ([4, 4, 4], [4, 4, 40]),     // the last region past the storage: spilled
              ([0, 0], [3, 2]),            // no storage at all
              ([5], [5]),
          ])
    func closedUpInOrder(sizes: [Int], fills: [Int]) {
        #expect(Self.build(sizes: sizes, fills: fills) == Self.expected(fills), "\(sizes) \(fills)")
    }

    @Test("a region past its capacity keeps the rest in order; elements reads both")
    func overflowOrder() {
        var storage = [Int](repeating: 0, count: 3)
        storage.withUnsafeMutableBufferPointer { buffer in
            // Region 1..<3 of the three slots: two placed, three in the overflow.
            var slots = ValueSlots<Int>(buffer, offset: 1, capacity: 5)
            #expect(slots.capacity == 2, "clamped to the storage")
            for i in 0..<5 { slots.append(10 + i) }
            #expect(slots.count == 5)
            #expect(slots.placed == 2)
            #expect(slots.elements == [10, 11, 12, 13, 14])
        }
        var plain = ValueSlots<Int>()
        plain.append(contentsOf: [1, 2, 3])
        #expect(plain.elements == [1, 2, 3] && plain.placed == 0)
    }

    @Test("every value lives on in the array exactly once, in place or spilled")
    func ownership() {
        for fills in [[2, 1], [3, 3], [5, 1]] {
            weak var watched: Tracked?
            var built: [Tracked] = arrayBuiltInPlace(capacity: 6) { (storage: UnsafeMutableBufferPointer<Tracked>) in
                var regions = FileParser.regions(of: storage, sizes: [3, 3])
                var id = 0
                for (k, n) in fills.enumerated() {
                    for _ in 0..<n {
                        let value = Tracked(id)
                        if id == 0 { watched = value }
                        regions[k].append(value)
                        id += 1
                    }
                }
                return regions
            }
            #expect(built.map(\.id) == Array(0..<fills.reduce(0, +)), "\(fills)")
            for i in built.indices { #expect(isKnownUniquelyReferenced(&built[i]), "\(fills): \(i) held twice") }
            built = []
            #expect(watched == nil, "\(fills): a value outlived its array")
        }
    }

    @Test("region sizes: the counts, scaled down to the limit in all")
    func regionSizes() {
        #expect(FileParser.regionSizes([3, 4], limit: 10) == [3, 4])
        #expect(FileParser.regionSizes([60, 40], limit: 10) == [6, 4])
        #expect(FileParser.regionSizes([], limit: 10) == [])
    }
}
