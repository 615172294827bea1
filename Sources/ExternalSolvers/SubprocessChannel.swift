import Foundation
import LayoutSolving

/// A child process spoken to one JSON line at a time, with a deadline on
/// every answer. A child that hangs, dies, floods its output or answers junk
/// is reported as such and killed; the caller's run goes on.
final class SubprocessChannel: @unchecked Sendable {
    /// Why the channel gave no answer (public as ``ExternalFailure/Reason``).
    typealias Failure = ExternalFailure.Reason

    /// Whether `env` would find `program`: a path (with a `/`, relative to
    /// the working directory) that is an executable file, or a name on `PATH`.
    static func resolves(_ program: String, in workingDirectory: String?) -> Bool {
        let files = FileManager.default
        if program.contains("/") {
            let path = if let workingDirectory, !program.hasPrefix("/") { workingDirectory + "/" + program } else { program }
            return files.isExecutableFile(atPath: path)
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return searchPath.split(separator: ":").contains { files.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// Answers longer than this are junk (a solver printing without end):
    /// 16 MiB, ten times the values of an 80,000-variable problem.
    static let maximumLineBytes = 16 << 20

    private let process = Process()
    private let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
    private let lock = NSCondition()
    private var buffer = Data()
    private var lines: [Data] = []
    private var closed = false
    private var overflow = false
    private var stderrTail = Data()
    private var inputClosed = false
    private var stderrClosed = false

    init(command: [String], workingDirectory: String?) throws(Failure) {
        guard let executable = command.first else { throw .couldNotStart("empty command") }
        // Why look it up first: through `env`, a missing program is only an
        // exit status 127 after the start; found here, it is `couldNotStart`.
        guard Self.resolves(executable, in: workingDirectory) else {
            throw .couldNotStart("\(executable): no such executable (not a file, or not on PATH)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + command.dropFirst()
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        do { try process.run() } catch { throw .couldNotStart("\(command.joined(separator: " ")): \(error.localizedDescription)") }
        Self.startReader(stdoutPipe.fileHandleForReading, name: "layout-bench.solver-stdout") { [weak self] data in
            guard let self else { return false }
            self.receive(data)
            return true
        }
        Self.startReader(stderrPipe.fileHandleForReading, name: "layout-bench.solver-stderr") { [weak self] data in
            guard let self else { return false }
            self.lock.lock()
            self.stderrTail.append(data)
            if self.stderrTail.count > 4096 { self.stderrTail = self.stderrTail.suffix(4096) }
            if data.isEmpty { self.stderrClosed = true }
            self.lock.broadcast()
            self.lock.unlock()
            return true
        }
    }

    /// Reads `handle` on a thread of its own until end of file, handing each
    /// chunk (and finally an empty one) to `deliver`, which returns false when
    /// nobody listens any more.
    ///
    /// Why blocking reads on a thread rather than `readabilityHandler`: on
    /// Linux the handler missed the end of file when it arrived together with
    /// the last data (measured: a child that answers and then closes its output
    /// was seen as hanging in 2 of 3 runs), and the end of file is how a child
    /// that stopped talking is told from a slow one. A blocking `read` returns
    /// 0 exactly once every writer has closed the pipe.
    private static func startReader(_ handle: FileHandle, name: String,
                                    deliver: @escaping @Sendable (Data) -> Bool) {
        let thread = Thread {
            // The handle is captured, so its descriptor stays open while read.
            let fd = handle.fileDescriptor
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                let data = count > 0 ? Data(chunk[0..<count]) : Data()
                if !deliver(data) || count <= 0 { return }
            }
        }
        thread.name = name
        thread.start()
    }

    private func receive(_ data: Data) {
        lock.lock()
        defer { lock.broadcast(); lock.unlock() }
        if data.isEmpty {
            closed = true
            return
        }
        // Why split the new chunk rather than search the buffer: a child that
        // floods one endless line would make every search rescan megabytes.
        var rest = data[...]
        while let newline = rest.firstIndex(of: 0x0A) {
            buffer.append(rest[rest.startIndex..<newline])
            lines.append(buffer)
            buffer = Data()
            rest = rest[(newline + 1)...]
        }
        buffer.append(rest)
        if buffer.count > Self.maximumLineBytes {
            overflow = true
            buffer = Data()
        }
    }

    /// Sends one request line and waits for one answer line.
    func request(_ line: String, operation: String, timeout: Double) throws(Failure) -> Data {
        let payload = Data((line + "\n").utf8)
        lock.lock()
        let dead = closed || !process.isRunning
        lock.unlock()
        if dead { throw exitFailure() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        switch send(payload, until: deadline) {
        case .sent: break
        case .peerGone:
            // The child closed its input: it is exiting, or alive but deaf.
            throw exitFailure()
        case .timedOut:
            terminate()
            throw .timedOut(seconds: timeout, operation: operation)
        }
        lock.lock()
        while lines.isEmpty && !closed && !overflow {
            if !lock.wait(until: deadline) {
                lock.unlock()
                terminate()
                throw .timedOut(seconds: timeout, operation: operation)
            }
        }
        if overflow {
            lock.unlock()
            terminate()
            throw .flooded(bytes: Self.maximumLineBytes)
        }
        if lines.isEmpty {
            lock.unlock()
            throw exitFailure()
        }
        let answer = lines.removeFirst()
        lock.unlock()
        return answer
    }

    private enum SendOutcome { case sent, peerGone, timedOut }

    /// Writes the whole payload to the child's stdin before the deadline.
    ///
    /// Why not `FileHandle.write`: it blocks without limit once the pipe
    /// buffer (64 KiB) is full and the child does not read, so a solver that
    /// hangs before reading a large `load` would hang the run. Why SIGPIPE is
    /// ignored: a child that dies between our liveness check and the write
    /// would otherwise kill this whole process (Linux has no per-descriptor
    /// opt-out for pipes); ignored, the write fails with EPIPE and the child
    /// is reported as exited.
    private func send(_ payload: Data, until deadline: Date) -> SendOutcome {
        Self.ignoreBrokenPipes
        lock.lock()
        let inputClosed = self.inputClosed
        lock.unlock()
        if inputClosed { return .peerGone }
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        return payload.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> SendOutcome in
            guard let base = raw.baseAddress else { return .sent }
            var offset = 0
            while offset < raw.count {
                let written = write(fd, base + offset, raw.count - offset)
                if written > 0 { offset += written; continue }
                let code = errno
                if written < 0 && code == EINTR { continue }
                guard written < 0 && (code == EAGAIN || code == EWOULDBLOCK) else { return .peerGone }
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { return .timedOut }
                var waiter = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&waiter, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
                if ready > 0 && waiter.revents & Int16(POLLERR | POLLHUP) != 0 { return .peerGone }
            }
            return .sent
        }
    }

    /// Set once per process, the first time any channel writes.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// The report of a child that stopped talking (closed its input or its
    /// output). Why a grace period and not a plain wait: such a child is
    /// usually exiting, and its status and stderr are the useful report; but
    /// one that closed a pipe and lives on would make the wait endless.
    private func exitFailure() -> Failure {
        if !waitForExit(seconds: 2) { terminate() }
        process.waitUntilExit()
        // The last words on stderr may still be in flight to its reader.
        let drained = Date(timeIntervalSinceNow: 1)
        lock.lock()
        while !stderrClosed && lock.wait(until: drained) {}
        let tail = String(decoding: stderrTail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        lock.unlock()
        return .exited(status: process.terminationStatus, stderr: tail)
    }

    /// Kills the child (SIGKILL after SIGTERM) and closes the pipes.
    func terminate() {
        if process.isRunning {
            process.terminate()
            if !waitForExit(seconds: 1) { kill(process.processIdentifier, SIGKILL) }
        }
        lock.lock()
        let wasClosed = inputClosed
        inputClosed = true
        lock.unlock()
        if !wasClosed { try? stdinPipe.fileHandleForWriting.close() }
    }

    /// Polls until the child has exited or `seconds` pass; whether it exited.
    private func waitForExit(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return !process.isRunning
    }

    var isRunning: Bool { process.isRunning }

    /// Sends `quit` (which has no answer), closes the child's input and
    /// waits up to `seconds` for it to exit.
    /// - Returns: the exit status, or nil if it had to be killed.
    func quit(within seconds: Double) -> Int32? {
        _ = send(Data("{\"op\":\"quit\"}\n".utf8), until: Date(timeIntervalSinceNow: seconds))
        lock.lock()
        let wasClosed = inputClosed
        inputClosed = true
        lock.unlock()
        if !wasClosed { try? stdinPipe.fileHandleForWriting.close() }
        guard waitForExit(seconds: seconds) else {
            terminate()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { terminate() }
}
