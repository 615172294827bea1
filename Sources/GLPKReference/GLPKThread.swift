import CGLPK
import Foundation

/// The one thread that makes every GLPK call.
///
/// Why a dedicated thread: GLPK's environment (its memory pool, terminal
/// settings, error hooks) is thread-local, and a problem created in one
/// thread's environment must be used and freed in the same one. The reference
/// keeps its problem alive between calls (to re-solve from the previous
/// basis), and callers (the CLI, the test runner's worker threads) may be on
/// any thread, so every call is handed to this thread and waited for.
final class GLPKThread: @unchecked Sendable {
    static let shared = GLPKThread()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    /// Whether a job taken from `jobs` is still running.
    private var busy = false
    private var thread: Thread?

    private init() {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = "layout-bench.glpk"
        thread.stackSize = 16 << 20
        self.thread = thread
        thread.start()
    }

    private func loop() {
        // Silence GLPK's terminal output for this thread's environment, once.
        glp_term_out(GLP_OFF)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            busy = true
            condition.unlock()
            job()
            condition.lock()
            busy = false
            condition.unlock()
        }
    }

    /// Whether queued or running work remains (asynchronous frees).
    var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return jobs.isEmpty && !busy
    }

    /// Waits until the work queued so far has run; returns at once when idle.
    func drain() {
        if Thread.current == thread || isIdle { return }
        sync { () }
    }

    /// Runs `body` on the GLPK thread and returns its result.
    func sync<T>(_ body: @escaping () -> T) -> T {
        if Thread.current == thread { return body() }
        let done = NSCondition()
        var result: T?
        var finished = false
        condition.lock()
        jobs.append {
            let value = body()
            done.lock()
            result = value
            finished = true
            done.signal()
            done.unlock()
        }
        condition.signal()
        condition.unlock()
        done.lock()
        while !finished { done.wait() }
        done.unlock()
        // `finished` implies `result` was set by the job.
        guard let result else { return body() }
        return result
    }

    /// Queues `body` on the GLPK thread and returns at once. For work whose
    /// result nobody waits for (freeing a problem), so the caller does not
    /// pay a hand-off.
    func async(_ body: @escaping () -> Void) {
        if Thread.current == thread { return body() }
        condition.lock()
        jobs.append(body)
        condition.signal()
        condition.unlock()
    }

    /// GLPK's version string, e.g. "5.0".
    static var version: String {
        shared.sync { glp_version().map { String(cString: $0) } ?? "unknown" }
    }
}
