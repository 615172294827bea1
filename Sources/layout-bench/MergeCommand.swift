import ArgumentParser
import BenchHarness
import BenchSchema
import Foundation

/// `layout-bench merge`: joins the results of `run --shard K/N` runs.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the results.json files of sharded runs into one.",
        discussion: """
            The files must be shards of one run: each made with --shard K/N, the same N, distinct K, \
            the same corpus (the same case list and texts: settings.corpus_digest), the same solvers \
            and the same sampling settings (repetitions, warm-up, time budget, sample time, scale, \
            timeout). Every shard 1...N must be there unless --partial is given. Cases come out in \
            corpus order, problems joined, the summary recomputed; machine and settings come from the \
            first file (a note is printed when the shards ran on different CPUs). Exits 65 if the \
            files do not belong together, are not layout-bench results documents, or a case appears twice.
            """
    )

    @Argument(help: "results.json files of the shards.")
    var files: [String]

    @Option(name: .shortAndLong, help: "Where to write the merged results.json.")
    var output: String

    @Flag(help: "Merge even if some shards of 1...N are missing.")
    var partial = false

    func run() throws {
        var shards: [(file: String, document: ResultsDocument)] = []
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else {
                throw ToolError(message: "cannot read \(file)", status: .noInput)
            }
            do { shards.append((file, try ResultsDocument.read(file))) } catch {
                throw ToolError(message: error.description, status: .dataError)
            }
        }
        guard !shards.isEmpty else { throw ValidationError("no files") }
        let merged: ResultsDocument
        do {
            merged = try ShardMerge.merge(shards, partial: partial) { printError($0) }
        } catch {
            throw ToolError(message: error.description, status: .dataError)
        }
        do {
            try merged.write(to: URL(fileURLWithPath: output))
        } catch {
            throw ToolError(message: "cannot write \(output): \(error.localizedDescription)", status: .cannotCreate)
        }
        print("merged \(files.count) files, \(merged.cases.count) cases -> \(output)")
    }
}
