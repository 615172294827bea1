import Foundation

/// A git revision's release binary of layout-bench, built in a scratch folder
/// of its own (`.build-gate-COMMIT/`, ignored by git) and kept there: a
/// second gate against the same commit reuses it.
public enum RevisionBuild {
    /// Why a revision cannot be had.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// Not a commit of this repository (or no repository here): a usage error.
        case unknownRevision(String, reason: String)
        /// The revision's sources did not build: the command, and the end of its log.
        case buildFailed(String, log: String, logPath: String)

        public var description: String {
            switch self {
            case .unknownRevision(let revision, let reason):
                return "revision '\(revision)' cannot be resolved: \(reason)"
            case .buildFailed(let commit, let log, let logPath):
                return "revision \(commit.prefix(12)) does not build (its log: \(logPath)):\n\(log)"
            }
        }
    }

    /// The full commit id of `revision`.
    /// - Throws: ``Failure/unknownRevision(_:reason:)``.
    public static func resolve(_ revision: String, repository: String) throws(Failure) -> String {
        guard !revision.hasPrefix("-") else { throw .unknownRevision(revision, reason: "a revision does not start with '-'") }
        let result = Shell.run(["git", "-C", repository, "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"])
        guard result.status == 0, let commit = result.output.split(separator: "\n").first.map(String.init), !commit.isEmpty else {
            let inside = Shell.run(["git", "-C", repository, "rev-parse", "--git-dir"]).status == 0
            throw .unknownRevision(revision, reason: inside ? "no such commit in \(repository)" : "\(repository) is not a git checkout")
        }
        return commit
    }

    /// The revision to gate against when none is given: on `main` (or a
    /// detached HEAD), the previous commit; on another branch, where it left main.
    public static func defaultRevision(repository: String) -> String {
        let branch = Shell.run(["git", "-C", repository, "rev-parse", "--abbrev-ref", "HEAD"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if branch != "main" && branch != "HEAD" {
            let base = Shell.run(["git", "-C", repository, "merge-base", "HEAD", "main"])
            if base.status == 0 { return base.output.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        return "HEAD~1"
    }

    /// The release binary of `commit`, built if it is not there yet.
    /// - Parameters:
    ///   - repository: the checkout whose history holds `commit`; the scratch folder goes inside it.
    ///   - progress: one line per step, for the user (stderr).
    /// - Throws: ``Failure/buildFailed(_:log:logPath:)`` with the end of the build log.
    public static func binary(commit: String, repository: String, progress: (String) -> Void) throws(Failure) -> String {
        let folder = (repository as NSString).appendingPathComponent(".build-gate-\(commit.prefix(12))")
        let binary = (folder as NSString).appendingPathComponent("build/release/layout-bench")
        let stamp = (folder as NSString).appendingPathComponent("built")
        // The stamp is written last: a build that was interrupted is redone.
        if FileManager.default.fileExists(atPath: stamp), FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let sources = (folder as NSString).appendingPathComponent("src")
        let log = (folder as NSString).appendingPathComponent("build.log")
        try? FileManager.default.removeItem(atPath: sources)
        try? FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        progress("building \(commit.prefix(12))'s release binary in \(folder) (first time: a few minutes)")
        // `git archive`: the commit's tracked files exactly, without touching the work tree.
        let unpack = Shell.run(["sh", "-c", "git -C \"$1\" archive --format=tar \"$2\" | tar -x -C \"$3\"", "sh", repository, commit, sources])
        guard unpack.status == 0 else { throw .buildFailed(commit, log: unpack.output, logPath: log) }
        let build = Shell.run(["swift", "build", "-c", "release", "--product", "layout-bench",
                               "--package-path", sources, "--scratch-path", (folder as NSString).appendingPathComponent("build")],
                              log: log)
        guard build.status == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            let tail = build.output.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
            throw .buildFailed(commit, log: tail, logPath: log)
        }
        _ = FileManager.default.createFile(atPath: stamp, contents: Data(commit.utf8))
        return binary
    }
}

/// Runs a command to completion; its standard output and error together.
enum Shell {
    struct Result {
        var status: Int32
        var output: String
    }

    /// - Parameter log: also write the output to this file.
    static func run(_ command: [String], environment: [String: String]? = nil, log: String? = nil) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Result(status: 127, output: "cannot start \(command.first ?? ""): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if let log { _ = FileManager.default.createFile(atPath: log, contents: data) }
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
