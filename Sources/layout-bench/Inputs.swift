import BenchHarness
import Foundation
import LayoutFormat
import LayoutModel

/// Finding and reading `.layout` inputs.
enum Inputs {
    /// The files named by `paths`: files as given, directories searched
    /// recursively for `*.layout`, each directory's files in sorted order so
    /// output is the same on every machine.
    ///
    /// Paths that do not exist come back as `missing` and are reported by the caller.
    static func collect(_ paths: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path == "-" || fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            if isDirectory.boolValue {
                let found = (fm.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".layout") }
                    .sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
                if found.isEmpty { missing.append(path) }
                files += found
            } else {
                files.append(path)
            }
        }
        return (files, missing)
    }

    /// Reads and parses one file (`-` is standard input).
    static func parse(_ path: String) -> (result: ParseResult, readable: Bool) {
        LayoutParser.parseFile(atPath: path)
    }

    /// Writes `text` to `path` atomically (a temporary file renamed into place),
    /// creating parent directories; `-` writes to standard output.
    static func write(_ text: String, to path: String) throws(ToolError) {
        if path == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ToolError(message: "cannot write \(path): \(error.localizedDescription)", status: .cannotCreate)
        }
    }

    /// The checkout the default corpus is in (where `Reports/` goes), else the working directory.
    static func repositoryRoot(corpus: String? = defaultCorpus()) -> String {
        corpus.map { ($0 as NSString).deletingLastPathComponent } ?? "."
    }

    /// The default corpus: `Corpus/` in the working directory, else the one of
    /// the checkout this binary was built in (`.build/<config>/layout-bench`).
    static func defaultCorpus() -> String? {
        if FileManager.default.fileExists(atPath: "Corpus") { return "Corpus" }
        return toolCorpus()
    }

    /// The tool's own registry: `Corpus/solvers.json` of the checkout this
    /// binary was built in (never a folder the user named as cases).
    static func toolRegistry() -> String? {
        toolCorpus().map { ($0 as NSString).appendingPathComponent("solvers.json") }
    }

    /// The solvers every command may use, by the one registry rule
    /// (``SolverRegistry/discover(solversFiles:workingDirectory:tool:commandLine:)``).
    /// - Throws: ``ToolError`` (64) for a malformed registry or entry.
    static func registry(solversFiles: [String] = [], commandLine: [String] = []) throws(ToolError) -> SolverRegistry {
        do { return try SolverRegistry.discover(solversFiles: solversFiles, tool: toolRegistry(), commandLine: commandLine) } catch {
            throw ToolError(message: "\(error)", status: .usage)
        }
    }

    /// Prepares the pinned versions among `specs` (``SolverPreparation``),
    /// saying so on standard error; one that fails is noted and then
    /// declines `hello`, so it is left out with the reason, as a missing
    /// package is.
    static func prepare(_ specs: [SolverSpec], quiet: Bool = false) {
        for spec in specs where spec.needsPreparation {
            if !quiet { printError("layout-bench: preparing \(spec.name) (the first use installs it into the cache)...") }
            if let failure = SolverPreparation.prepare(spec) { printError("note: \(failure)") }
        }
    }

    /// `Corpus/` of the checkout this binary was built in.
    static func toolCorpus() -> String? {
        let fm = FileManager.default
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        for _ in 0..<6 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Corpus")
            if fm.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
               fm.fileExists(atPath: candidate.path) {
                return candidate.path
            }
        }
        return nil
    }
}

/// Writes text to standard output in one write (no per-line buffering).
func writeStandardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}
