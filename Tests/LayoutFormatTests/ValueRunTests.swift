@testable import LayoutFormat
import Testing

/// ``ValueRun``: values moved out in order, each exactly once, and whatever
/// is not moved destroyed with the run.
@Suite("A run of values handed from one thread to another")
struct ValueRunTests {
    /// A value whose life can be watched through a weak reference.
    final class Tracked {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    @Test("a run takes values until it is full, and moves them out in the order they came")
    func order() {
        let run = ValueRun<String>(capacity: 3)
        // The capacity is rounded up to whole pages: at least the one asked for.
        #expect(run.capacity >= 3)
        var appended = 0
        while !run.isFull {
            #expect(run.append("value \(appended)"))
            appended += 1
        }
        #expect(appended == run.capacity)
        #expect(!run.append("one too many"))
        #expect(run.count == appended)
        var array = ["before"]
        run.move(into: &array)
        #expect(array == ["before"] + (0..<appended).map { "value \($0)" })
        // Moved out once: a second move adds nothing.
        run.move(into: &array)
        #expect(array.count == appended + 1)
    }

    @Test("moved in steps, into an array with and without room: each value once, in order")
    func movedInSteps() {
        let run = ValueRun<String>(capacity: 600)
        var roomy: [String] = []
        roomy.reserveCapacity(1_000)
        var tight: [String] = []
        let copy = ValueRun<String>(capacity: 600)
        var expected: [String] = []
        for step in 0..<5 {
            for k in 0..<(step * 37 + 1) {
                let value = "step \(step) value \(k) " + String(repeating: "x", count: k % 20)
                run.append(value)
                copy.append(value)
                expected.append(value)
            }
            run.move(into: &roomy)
            copy.move(into: &tight)
            #expect(roomy == expected)
            #expect(tight == expected)
        }
        // Nothing left to move: the drain is empty.
        run.move(into: &roomy)
        #expect(roomy.count == expected.count)
    }

    @Test("values moved out live on in the array; those left in the run die with it; none twice")
    func ownership() {
        var moved: [Tracked] = []
        weak var first: Tracked?
        weak var left: Tracked?
        do {
            let run = ValueRun<Tracked>(capacity: 2)
            let a = Tracked(1)
            first = a
            run.append(a)
            run.move(into: &moved)
            let b = Tracked(2)
            left = b
            run.append(b)
        }
        // `a` is held by the array only; `b` was never moved and went with the run.
        #expect(first != nil)
        #expect(moved.map(\.id) == [1])
        #expect(left == nil)
        #expect(isKnownUniquelyReferenced(&moved[0]))
    }
}
