import BenchHarness
import Foundation

/// Wall time and memory of each stage of one command (`solve --profile`),
/// so that a user can see where a whole run goes.
///
/// Each stage is measured once, as it runs (no repetition: this is a profile
/// of the run the user asked for, not a benchmark).
struct StageProfile {
    struct Stage {
        var name: String
        var seconds: Double
        /// Processor time of every thread of the process during the stage:
        /// above `seconds` when the stage ran on more than one thread (the
        /// parse of a large file), so that a rate is not mistaken for one
        /// thread's.
        var cpuSeconds: Double
        /// Resident memory when the stage ended.
        var residentBytes: Int
        /// The process's peak resident memory when the stage ended: a stage
        /// whose transient memory sets the peak shows it here, not above.
        var peakBytes: Int
        /// What the stage processed, for a rate (bytes read or parsed).
        var bytes: Int?
    }

    private(set) var stages: [Stage] = []
    let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds

    init(enabled: Bool) { self.enabled = enabled }

    /// Runs `body` as stage `name` (timed only when enabled).
    mutating func measure<T, E: Error>(_ name: String, bytes: Int? = nil, _ body: () throws(E) -> T) throws(E) -> T {
        guard enabled else { return try body() }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let c0 = Self.processCPUSeconds()
        let value = try body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        let c1 = Self.processCPUSeconds()
        stages.append(Stage(name: name, seconds: Double(t1 - t0) / 1e9, cpuSeconds: c1 - c0, residentBytes: ProcessMemory.residentBytes(),
                            peakBytes: RunResults.peakResidentBytes(), bytes: bytes))
        return value
    }

    /// The processor time used by all threads of the process so far.
    static func processCPUSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Sets the byte count of the last stage (known only after it ran, e.g. a read).
    mutating func setBytes(_ bytes: Int) {
        if !stages.isEmpty { stages[stages.count - 1].bytes = bytes }
    }

    /// The table: stage, time, share of the whole process so far, rate, memory.
    func table() -> String {
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let measured = stages.reduce(0) { $0 + $1.seconds }
        var rows: [[String]] = [["stage", "seconds", "CPU", "share", "rate", "RSS after", "peak so far"]]
        for stage in stages {
            let rate = stage.bytes.map { $0 > 0 && stage.seconds > 0 ? String(format: "%.1f MB/s", Double($0) / 1e6 / stage.seconds) : "" } ?? ""
            rows.append([stage.name, String(format: "%.4f", stage.seconds), String(format: "%.4f", stage.cpuSeconds), share(stage.seconds, of: total), rate,
                         megabytes(stage.residentBytes), megabytes(stage.peakBytes)])
        }
        rows.append(["(other)", String(format: "%.4f", max(0, total - measured)), "", share(max(0, total - measured), of: total), "", "", ""])
        rows.append(["total", String(format: "%.4f", total), String(format: "%.4f", Self.processCPUSeconds()), "100%", "", "", "peak " + megabytes(RunResults.peakResidentBytes())])
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == 0 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                       : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private func share(_ seconds: Double, of total: Double) -> String {
        total > 0 ? String(format: "%.1f%%", 100 * seconds / total) : ""
    }

    private func megabytes(_ bytes: Int) -> String { bytes > 0 ? String(format: "%.1f MB", Double(bytes) / 1e6) : "" }
}

/// Values kept alive until the process exits. Why: a command's last act was
/// freeing object graphs of hundreds of megabytes (a solver's tableau, a
/// parsed layout) that the exit frees at no cost. Only for values a command
/// no longer needs just before it returns.
enum KeepUntilExit {
    nonisolated(unsafe) private static var kept: [Any] = []

    static func keep(_ values: Any...) { kept.append(contentsOf: values) }
}
