// A run of values that one thread fills and another moves into an array,
// without copying them: what a parse chunk's thread hands to the main thread
// (ParallelLines.swift).
//
// Why not an array of the values, appended with `append(contentsOf:)`: that
// copies every value (a constraint's strings and box retained, 54
// instructions of copy and as many of destroy, about 200 a constraint
// with the retains and releases) while the main thread waits; the chunk's
// thread was done with them. Here each value is moved in with `move()` (a
// bitwise take: no retain, no release) and the run's memory is returned to
// the system at once.
//
// Why memory mapped by hand: the main thread's arrays grow by the chunk's
// runs while the runs are freed one by one, so the process holds one copy
// and one run. Freed through `malloc`, a run below glibc's mapping threshold
// (at most 32 MiB) would stay in the heap; mapped here it goes back to the
// system, so runs can be small (docs/measurements.md#m-2026-11-27-moved-runs).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Values of `Element` in one block of memory, appended by one thread and
/// moved out, in order, by another after a join.
///
/// Why a class: the run owns its memory; `deinit` destroys whatever was not
/// moved out and returns the memory, whichever path ends its life.
/// Why `@unchecked Sendable`: the run is used by one thread at a time, and
/// the hand-over is a `pthread_join` (``PlainChunk/join()``).
final class ValueRun<Element>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    /// The bytes mapped by `mmap`, or 0 when the memory came from `allocate`.
    private let mappedBytes: Int
    /// How many values the run holds at most.
    let capacity: Int
    /// The values appended (those below ``moved`` were moved out).
    private(set) var count = 0
    private var moved = 0

    /// A run with room for at least `capacity` values (at least one).
    init(capacity: Int) {
        let stride = MemoryLayout<Element>.stride
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        let wanted = max(1, capacity) * stride
        let bytes = (wanted + page - 1) / page * page
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let mapped, mapped != MAP_FAILED, MemoryLayout<Element>.alignment <= page {
            base = mapped.bindMemory(to: Element.self, capacity: bytes / stride)
            mappedBytes = bytes
            self.capacity = bytes / stride
        } else {
            // No mapping (or a platform without it): the allocator's memory does as well.
            base = UnsafeMutablePointer<Element>.allocate(capacity: max(1, capacity))
            mappedBytes = 0
            self.capacity = max(1, capacity)
        }
    }

    var isFull: Bool { count >= capacity }

    /// Appends `value`; false, with nothing appended, when the run is full.
    ///
    /// - Complexity: O(1).
    @discardableResult
    func append(_ value: consuming Element) -> Bool {
        guard count < capacity else { return false }
        (base + count).initialize(to: value)
        count += 1
        return true
    }

    /// Moves every value not yet moved to the end of `array`, in order.
    ///
    /// Why through `append(contentsOf:)` and ``Drain``: the array then hands
    /// its free capacity to the drain in one call, and the values are moved
    /// in as bytes (`moveInitialize`, a `memcpy`); appended one at a time,
    /// each paid the array's uniqueness and capacity checks (the main
    /// thread moves a chunk's 400,000 constraints of a 10^5-row grid while
    /// the other threads are done).
    /// - Complexity: O(values moved), amortised. (No `reserveCapacity`
    ///   here beyond the append's own, which grows the array geometrically.)
    func move(into array: inout [Element]) {
        array.append(contentsOf: Drain(run: self))
    }

    /// The values of a run not yet moved, as a sequence that moves them out.
    struct Drain: Sequence, IteratorProtocol {
        let run: ValueRun

        var underestimatedCount: Int { run.count - run.moved }

        mutating func next() -> Element? {
            guard run.moved < run.count else { return nil }
            defer { run.moved += 1 }
            return (run.base + run.moved).move()
        }

        /// Moves as many values as `buffer` holds, at once.
        __consuming func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (Drain, Int) {
            let n = Swift.min(buffer.count, run.count - run.moved)
            if n > 0, let target = buffer.baseAddress {
                target.moveInitialize(from: run.base + run.moved, count: n)
                run.moved += n
            }
            return (self, n)
        }
    }

    deinit {
        (base + moved).deinitialize(count: count - moved)
        if mappedBytes > 0 {
            munmap(UnsafeMutableRawPointer(base), mappedBytes)
        } else {
            base.deallocate()
        }
    }
}
