import ArgumentParser
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

    /// The settings that must agree between shards for their numbers to be one run's.
    static let sharedSettings = ["repetitions", "warmup", "time_budget_s", "sample_time_s", "scale", "timeout_s", "corpus_digest"]

    func fail(_ message: String) -> ExitCode {
        printError("error: \(message)")
        return ExitStatus.dataError.exitCode
    }

    func run() throws {
        var documents: [[String: Any]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("error: cannot read \(file)")
                throw ExitStatus.noInput.exitCode
            }
            guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  object["schema"] as? String == "layout-bench/results", (object["version"] as? NSNumber)?.intValue == 1 else {
                throw fail("\(file) is not a layout-bench results document (schema layout-bench/results, version 1)")
            }
            documents.append(object)
        }
        guard var merged = documents.first else { throw ValidationError("no files") }

        // Do the shards belong together?
        func settings(_ d: [String: Any]) -> [String: Any] { d["settings"] as? [String: Any] ?? [:] }
        func text(_ value: Any?) -> String {
            guard let value, !(value is NSNull) else { return "none" }
            if let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) {
                return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
            }
            return "\(value)"
        }
        func solverNames(_ d: [String: Any]) -> [String] {
            (d["solvers"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        var seenShards = Set<Int>()
        var count: Int?
        for (file, document) in zip(files, documents) {
            guard let shard = settings(document)["shard"] as? String, let parsed = Shard(argument: shard) else {
                throw fail("\(file) is not a shard (made without --shard K/N)")
            }
            if let count, count != parsed.count { throw fail("\(file) is shard \(shard), but \(files[0]) is of \(count) shards") }
            count = parsed.count
            guard seenShards.insert(parsed.index).inserted else { throw fail("shard \(parsed) is given twice (\(file))") }
            guard settings(document)["corpus_digest"] != nil, settings(document)["corpus_cases"] != nil else {
                throw fail("\(file) has no corpus digest (made by an older layout-bench): cannot check that the shards belong together")
            }
            for key in Self.sharedSettings where text(settings(document)[key]) != text(settings(documents[0])[key]) {
                throw fail("\(file) differs from \(files[0]) in \(key): \(text(settings(document)[key])) vs \(text(settings(documents[0])[key]))"
                           + (key == "corpus_digest" ? " (the shards ran over different corpora)" : ""))
            }
            if solverNames(document) != solverNames(documents[0]) {
                throw fail("\(file) ran solvers \(solverNames(document).joined(separator: ",")), \(files[0]) ran \(solverNames(documents[0]).joined(separator: ","))")
            }
            let cpu = (document["machine"] as? [String: Any])?["cpu"] as? String
            if cpu != (documents[0]["machine"] as? [String: Any])?["cpu"] as? String {
                printError("note: \(file) ran on another CPU (\(cpu ?? "unknown")): its timings are not comparable with the others'")
            }
        }
        if let count, !partial {
            let missing = (1...count).filter { !seenShards.contains($0) }
            if !missing.isEmpty {
                throw fail("shard(s) " + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " missing (--partial merges anyway)")
            }
        }

        // Cases, in corpus order.
        let order = (settings(documents[0])["corpus_cases"] as? [String] ?? [])
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var cases: [[String: Any]] = []
        var problems: [Any] = []
        var seen = Set<String>()
        for document in documents {
            for c in document["cases"] as? [[String: Any]] ?? [] {
                let name = c["name"] as? String ?? ""
                guard seen.insert(name).inserted else { throw fail("case '\(name)' appears in more than one file") }
                guard position[name] != nil else { throw fail("case '\(name)' is not in the corpus the shards were made from") }
                cases.append(c)
            }
            problems += document["problems"] as? [Any] ?? []
        }
        cases.sort { position[$0["name"] as? String ?? "", default: 0] < position[$1["name"] as? String ?? "", default: 0] }
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
        // The merged document is a whole run (or the shards given), not a shard.
        var mergedSettings = settings(documents[0])
        mergedSettings["shard"] = NSNull()
        merged["settings"] = mergedSettings
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
