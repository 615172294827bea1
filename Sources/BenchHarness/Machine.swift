import Foundation
import GLPKReference

/// The machine and toolchain a run was measured on.
public struct MachineInfo: Sendable {
    public var cpu: String
    public var cores: Int
    public var memoryBytes: UInt64
    public var os: String
    public var swift: String
    public var glpk: String
    public var commit: String?

    /// Reads /proc, /etc/os-release, `swift --version` and `git rev-parse HEAD`.
    public static func current() -> MachineInfo {
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let cpu = read("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let memory = read("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } }.map { $0 * 1024 } ?? 0
        let os = read("/etc/os-release").split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst(12)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "unknown"
        return MachineInfo(cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: memory, os: os,
                           swift: run(["swift", "--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown",
                           glpk: GLPKLayoutSolver.glpkVersion,
                           // The A/B gate names the base binary's commit (its runs start in the head's checkout).
                           commit: ProcessInfo.processInfo.environment["LAYOUT_BENCH_COMMIT"] ?? run(["git", "rev-parse", "HEAD"]))
    }

    static func run(_ command: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
