// A thread for one piece of work, and a bounded channel of blocks between
// two threads: what the parse's chunks (LayoutFormat's ParallelLines.swift)
// and the pipelined lowering (PipelinedLowering.swift) share.
//
// Why POSIX threads rather than Foundation's `Thread` or Dispatch: this
// module has no dependencies (the model is used by every front end and
// solver), and the work needs nothing but a start, a join and a lock.

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many threads one task of this library may use: `LAYOUT_BENCH_THREADS`
/// when set to a positive number (1: every stage on the calling thread, for
/// a profile of one thread or a machine shared with other work), else the
/// processors online.
package let availableThreads: Int = {
    if let text = getenv("LAYOUT_BENCH_THREADS").map({ String(cString: $0) }), let n = Int(text), n > 0 {
        return min(n, 64)
    }
    let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return max(1, online > 0 ? online : 1)
}()

/// Runs `body` on a thread of its own from ``start()`` until ``join()``.
///
/// When no thread can be made, ``start()`` runs `body` on the calling
/// thread: the result is the same, only later.
///
/// Why `@unchecked Sendable`: `body` runs on one thread at a time; whatever
/// it writes is read by the caller only after ``join()``, which orders the
/// two (`pthread_join` synchronises with the thread's end).
package final class WorkerThread: @unchecked Sendable {
    private let body: () -> Void
    private var handle: pthread_t?

    package init(_ body: @escaping () -> Void) { self.body = body }

    /// Starts the work.
    package func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<WorkerThread>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        if status == 0 {
            handle = thread
        } else {
            Unmanaged<WorkerThread>.fromOpaque(context).release()
            body()
        }
    }

    /// Waits for the work to finish (at once if it ran on the caller's thread).
    package func join() {
        if let handle { pthread_join(handle, nil) }
        handle = nil
    }

    // Why detach, not join: the thread holds the last reference while its
    // body returns, so this can run on the thread itself; a caller that
    // never joined leaves the thread's resources to the system this way.
    deinit {
        if let handle { pthread_detach(handle) }
    }
}

/// A thread started before its work is known, that takes the work when it
/// comes: ``run(_:)`` hands it over, ``join()`` waits for it, ``release()``
/// lets the thread end without any.
///
/// Why: on this project's VMs (Firecracker, two vCPUs) a thread made or
/// woken on an idle processor starts 0 to 4 ms later, at the idle
/// processor's next timer tick (measured: docs/measurements.md#m-2026-11-28-standby-threads),
/// which is a tenth of a 10^4-row grid's parse. Made a few milliseconds
/// ahead (before the line scan), the thread is running when its chunk is
/// ready. Why it polls with a short sleep, not a condition variable: a
/// wake-up from another processor is what is late; its own timer wakes it
/// on time. A poll every 100 µs costs a few microseconds of processor time.
/// Why it never gives up waiting: its owner releases it on every path
/// (the parse does, in a `defer`), and the handle's deinit does too.
package final class StandbyThread: @unchecked Sendable {
    /// What the thread and its handle share (the thread holds this, not
    /// the handle, so that the handle's deinit can release it).
    private final class Shared: @unchecked Sendable {
        /// 0: waiting; 1: work handed over; 2: released without work.
        let state = Atomic<Int>(0)
        /// Written before `state` becomes 1, read after the thread sees it.
        var work: (() -> Void)?
    }

    private let shared = Shared()
    private var handle: pthread_t?
    private var handedOver = false

    /// Starts the thread (when no thread can be made, the work runs on the
    /// caller's thread in ``run(_:)``).
    package init() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(shared).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let shared = Unmanaged<Shared>.fromOpaque(context).takeRetainedValue()
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
            while true {
                switch shared.state.load(ordering: .acquiring) {
                case 1:
                    shared.work?()
                    shared.work = nil
                    return nil
                case 2:
                    return nil
                default:
                    nanosleep(&pause, nil)
                }
            }
        }, context)
        if status == 0 {
            handle = thread
        } else {
            Unmanaged<Shared>.fromOpaque(context).release()
        }
    }

    /// Hands `body` to the thread (at most once; a second call runs its
    /// body on the caller's thread).
    package func run(_ body: @escaping () -> Void) {
        guard handle != nil, !handedOver else {
            body()
            return
        }
        handedOver = true
        shared.work = body
        shared.state.store(1, ordering: .releasing)
    }

    /// Waits for the work handed over to finish (at once when none was:
    /// the thread is released).
    package func join() {
        if !handedOver { release() }
        if let handle { pthread_join(handle, nil) }
        handle = nil
    }

    /// Lets the thread end without work (nothing once work was handed over).
    package func release() {
        guard !handedOver else { return }
        handedOver = true
        shared.state.store(2, ordering: .releasing)
    }

    deinit {
        release()
        if let handle { pthread_detach(handle) }
    }
}

/// Blocks of values from one producer thread to one consumer, at most
/// `capacity` waiting; either side may stop early.
///
/// Why blocks: a lock and a wake-up per value would cost more than most
/// values take to make.
package final class BlockChannel<Element>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var blocks: [[Element]] = []
    private var head = 0
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Producer: queues a block, waiting while `capacity` wait; false (the
    /// block dropped) once the consumer has cancelled.
    package func send(_ block: [Element]) -> Bool {
        locked {
            while blocks.count - head >= capacity, !cancelled { pthread_cond_wait(condition, mutex) }
            guard !cancelled else { return false }
            blocks.append(block)
            pthread_cond_broadcast(condition)
            return true
        }
    }

    /// Producer: no more blocks.
    package func finish() {
        locked {
            finished = true
            pthread_cond_broadcast(condition)
        }
    }

    /// Consumer: the next block, waiting for it; nil once the producer has
    /// finished and every block was taken.
    package func receive() -> [Element]? {
        locked {
            while head == blocks.count, !finished { pthread_cond_wait(condition, mutex) }
            guard head < blocks.count else { return nil }
            let block = blocks[head]
            blocks[head] = []
            head += 1
            // Why compact only when drained: the queue is short, and the
            // taken slots are empty arrays until then.
            if head == blocks.count {
                blocks.removeAll(keepingCapacity: true)
                head = 0
            }
            pthread_cond_broadcast(condition)
            return block
        }
    }

    /// Consumer: takes no more blocks; the producer's next ``send(_:)`` says so.
    package func cancel() {
        locked {
            cancelled = true
            blocks.removeAll()
            head = 0
            pthread_cond_broadcast(condition)
        }
    }
}
