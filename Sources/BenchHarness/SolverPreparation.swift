// A pinned solver version (`kiwi@1.3.2`) lives in its own environment that
// must be installed before the solver can answer `hello` within its time
// limit (an install takes seconds to minutes): the harness starts the
// solver's command once with LAYOUT_BENCH_PREPARE=1 first, and waits.

import Foundation

/// Runs the preparation step of pinned solver versions.
public enum SolverPreparation {
    /// The environment variable that asks a solver command to install what it
    /// needs and exit (0: ready) instead of serving requests.
    public static let variable = "LAYOUT_BENCH_PREPARE"

    /// Prepares `spec` if it needs it: starts its command with
    /// `LAYOUT_BENCH_PREPARE=1`, waits at most `timeout` seconds.
    ///
    /// Why a failure is returned, not thrown: a version that cannot be
    /// installed on this machine is left out of the run with the reason, as a
    /// solver whose package is missing is; its command, started anyway,
    /// declines `hello` with the same reason.
    /// - Returns: nil when ready (or nothing to do), else why not (the end of
    ///   the command's standard error).
    public static func prepare(_ spec: SolverSpec, timeout: Double = 900) -> String? {
        guard spec.needsPreparation, case .external(let command, let directory) = spec.kind, !command.isEmpty else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = "1"
        process.environment = environment
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { return "could not start \(command.joined(separator: " ")): \(error.localizedDescription)" }
        // The standard error is drained on its own thread (a full pipe would
        // stop the install), while this one polls against the deadline, so a
        // hung install cannot hang the run.
        let output = Output()
        let reader = Thread { output.data = errors.fileHandleForReading.readDataToEndOfFile(); output.done.signal() }
        reader.start()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            // SIGKILL, not terminate()'s SIGTERM: a parent that ignores a
            // signal passes that on to its children (tests do), and a
            // half-done install is cleared by the next preparation anyway.
            if Date() >= deadline { timedOut = true; kill(process.processIdentifier, SIGKILL); break }
            usleep(20_000)
        }
        process.waitUntilExit()
        output.done.wait()
        guard !timedOut, process.terminationReason == .exit, process.terminationStatus == 0 else {
            let tail = String(decoding: output.data.suffix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let how = timedOut ? "stopped after \(timeout) s" : process.terminationReason == .exit ? "exit \(process.terminationStatus)" : "killed by a signal"
            return "preparing \(spec.name) failed (\(how))" + (tail.isEmpty ? "" : ": \(tail)")
        }
        return nil
    }
}

/// The reader thread's result.
private final class Output: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
