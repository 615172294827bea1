import BenchSchema
import Foundation

/// An error for the user, with its exit status (the same codes as `layout-bench`).
struct ToolError: Error {
    enum Status: Int32 {
        case usage = 64, dataError = 65, noInput = 66, cannotCreate = 73
    }

    var message: String
    var status: Int32

    init(message: String, status: Status) {
        self.message = message
        self.status = status.rawValue
    }
}

/// Where things are, as `layout-bench` finds them.
enum Tool {
    /// The checkout this binary was built in (`.build/<config>/layout-bench-history`),
    /// else the working directory.
    static func repositoryRoot() -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: "Corpus") && fm.fileExists(atPath: "Package.swift") { return fm.currentDirectoryPath }
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        for _ in 0..<6 {
            url.deleteLastPathComponent()
            if fm.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
               fm.fileExists(atPath: url.appendingPathComponent("Corpus").path) {
                return url.path
            }
        }
        return fm.currentDirectoryPath
    }

    static func latestResults() -> String {
        (repositoryRoot() as NSString).appendingPathComponent("Reports/latest/results.json")
    }

    /// - Throws: ``ToolError`` 66 for a file that cannot be read, 65 for one that is not results.
    static func read(_ path: String) throws(ToolError) -> ResultsDocument {
        do { return try ResultsDocument.read(path) } catch {
            throw ToolError(message: error.description, status: FileManager.default.fileExists(atPath: path) ? .dataError : .noInput)
        }
    }

    /// Writes `text` to `path` atomically, creating parent directories.
    static func write(_ text: String, to path: String) throws(ToolError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ToolError(message: "cannot write \(path): \(error.localizedDescription)", status: .cannotCreate)
        }
    }
}
