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
    /// - Complexity: O(values moved), amortised. (No `reserveCapacity`
    ///   here: one exactly as large as each run would reallocate the array
    ///   once a run, where appending grows it geometrically.)
    func move(into array: inout [Element]) {
        while moved < count {
            array.append((base + moved).move())
            moved += 1
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
