@testable import LayoutModel
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// ``StandbyThread``: the work handed over runs once, on the thread, and
/// is done when `join` returns; a thread given none ends when released.
@Suite("A thread started before its work is known")
struct StandbyThreadTests {
    final class Box: @unchecked Sendable {
        var values: [Int] = []
        let runs = Atomic<Int>(0)
    }

    @Test("work handed over later runs exactly once and is done when join returns", arguments: [0, 1, 5])
    func workRunsOnce(delayMilliseconds: Int) {
        let box = Box()
        let standby = StandbyThread()
        if delayMilliseconds > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: delayMilliseconds * 1_000_000)
            nanosleep(&pause, nil)
        }
        standby.run {
            box.values = Array(0..<1000)
            box.runs.add(1, ordering: .relaxed)
        }
        standby.join()
        #expect(box.values == Array(0..<1000))
        #expect(box.runs.load(ordering: .relaxed) == 1)
        // A second hand-over runs on the caller's thread, once.
        standby.run { box.runs.add(1, ordering: .relaxed) }
        #expect(box.runs.load(ordering: .relaxed) == 2)
    }

    @Test("released without work, the thread ends: join returns, and work after it runs on the caller")
    func releasedWithoutWork() {
        let box = Box()
        let standby = StandbyThread()
        standby.release()
        standby.join()
        standby.run { box.runs.add(1, ordering: .relaxed) }
        #expect(box.runs.load(ordering: .relaxed) == 1)
        // Dropped without a join or a release: the deinit releases it (no hang).
        for _ in 0..<20 { _ = StandbyThread() }
    }
}
