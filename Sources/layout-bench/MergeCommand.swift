import ArgumentParser
import Foundation

/// `layout-bench merge`: joins the results of `run --shard K/N` runs.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the results.json files of sharded runs into one.",
        discussion: """
            Cases are concatenated in shard order (each case must appear once), problems joined, \
            the summary recomputed; machine and settings come from the first file. Exits 65 if a \
            file is not a layout-bench results document or a case appears twice.
            """
    )

    @Argument(help: "results.json files of the shards.")
    var files: [String]

    @Option(name: .shortAndLong, help: "Where to write the merged results.json.")
    var output: String

    func run() throws {
        var documents: [[String: Any]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("error: cannot read \(file)")
                throw ExitStatus.noInput.exitCode
            }
            guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  object["schema"] as? String == "layout-bench/results", (object["version"] as? NSNumber)?.intValue == 1 else {
                printError("error: \(file) is not a layout-bench results document (schema layout-bench/results, version 1)")
                throw ExitStatus.dataError.exitCode
            }
            documents.append(object)
        }
        guard var merged = documents.first else { throw ValidationError("no files") }
        var cases: [[String: Any]] = []
        var problems: [Any] = []
        var seen = Set<String>()
        for document in documents {
            for c in document["cases"] as? [[String: Any]] ?? [] {
                let name = c["name"] as? String ?? ""
                guard seen.insert(name).inserted else {
                    printError("error: case '\(name)' appears in more than one file")
                    throw ExitStatus.dataError.exitCode
                }
                cases.append(c)
            }
            problems += document["problems"] as? [Any] ?? []
        }
        // Recompute the summary: verdict counts per solver.
        var summary: [String: [String: Int]] = [:]
        for c in cases {
            for r in c["results"] as? [[String: Any]] ?? [] {
                guard let solver = r["solver"] as? String, let verdict = r["verdict"] as? String else { continue }
                summary[solver, default: [:]][verdict, default: 0] += 1
            }
        }
        merged["cases"] = cases
        merged["problems"] = problems
        merged["summary"] = summary
        merged["finished"] = documents.compactMap { $0["finished"] as? String }.max() ?? merged["finished"] ?? ""
        merged["started"] = documents.compactMap { $0["started"] as? String }.min() ?? merged["started"] ?? ""
        merged["merged_from"] = files
        do {
            let data = try JSONSerialization.data(withJSONObject: merged, options: [.prettyPrinted, .sortedKeys])
            let url = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            printError("error: cannot write \(output): \(error.localizedDescription)")
            throw ExitStatus.cannotCreate.exitCode
        }
        print("merged \(files.count) files, \(cases.count) cases -> \(output)")
    }
}
