import ArgumentParser
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

    func fail(_ message: String) -> ToolError { ToolError(message: message, status: .dataError) }

    /// The settings that must agree between shards for their numbers to be
    /// one run's: their names in the file and how each is spelled.
    static func sharedSettings(_ s: ResultsDocument.Settings) -> [(name: String, value: String)] {
        func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
        return [("repetitions", text(s.repetitions)), ("warmup", text(s.warmup)), ("time_budget_s", text(s.time_budget_s)),
                ("sample_time_s", text(s.sample_time_s)), ("scale", text(s.scale)), ("timeout_s", text(s.timeout_s)),
                ("corpus_digest", text(s.corpus_digest))]
    }

    func run() throws {
        var documents: [ResultsDocument] = []
        for file in files {
            guard FileManager.default.fileExists(atPath: file) else {
                throw ToolError(message: "cannot read \(file)", status: .noInput)
            }
            do { documents.append(try ResultsDocument.read(file)) } catch { throw fail(error.description) }
        }
        guard let first = documents.first else { throw ValidationError("no files") }

        // Do the shards belong together?
        let firstSettings = first.settings ?? ResultsDocument.Settings()
        var seenShards = Set<Int>()
        var count: Int?
        for (file, document) in zip(files, documents) {
            let settings = document.settings ?? ResultsDocument.Settings()
            guard let shard = settings.shard, let parsed = Shard(argument: shard) else {
                throw fail("\(file) is not a shard (made without --shard K/N)")
            }
            if let count, count != parsed.count { throw fail("\(file) is shard \(shard), but \(files[0]) is of \(count) shards") }
            count = parsed.count
            guard seenShards.insert(parsed.index).inserted else { throw fail("shard \(parsed) is given twice (\(file))") }
            guard settings.corpus_digest != nil, settings.corpus_cases != nil else {
                throw fail("\(file) has no corpus digest (made by an older layout-bench): cannot check that the shards belong together")
            }
            for (mine, theirs) in zip(Self.sharedSettings(settings), Self.sharedSettings(firstSettings)) where mine.value != theirs.value {
                throw fail("\(file) differs from \(files[0]) in \(mine.name): \(mine.value) vs \(theirs.value)"
                           + (mine.name == "corpus_digest" ? " (the shards ran over different corpora)" : ""))
            }
            if document.solvers.map(\.name) != first.solvers.map(\.name) {
                throw fail("\(file) ran solvers \(document.solvers.map(\.name).joined(separator: ",")), \(files[0]) ran \(first.solvers.map(\.name).joined(separator: ","))")
            }
            // Shards of one run are one commit's code: another commit's timings and verdicts are another run.
            if let mine = document.machine.commit, let theirs = first.machine.commit, mine != theirs {
                throw fail("\(file) was made at commit \(mine.prefix(12)), \(files[0]) at \(theirs.prefix(12)): shards of one run come from one commit")
            }
            if document.machine.cpu != first.machine.cpu {
                printError("note: \(file) ran on another CPU (\(document.machine.cpu)): its timings are not comparable with the others'")
            }
        }
        if let count, !partial {
            let missing = (1...count).filter { !seenShards.contains($0) }
            if !missing.isEmpty {
                throw fail("shard(s) " + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " missing (--partial merges anyway)")
            }
        }

        // Cases, in corpus order.
        let order = firstSettings.corpus_cases ?? []
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var cases: [ResultsDocument.Case] = []
        var problems: [ResultsDocument.Problem] = []
        var seen = Set<String>()
        for document in documents {
            for c in document.cases {
                guard seen.insert(c.name).inserted else { throw fail("case '\(c.name)' appears in more than one file") }
                guard position[c.name] != nil else { throw fail("case '\(c.name)' is not in the corpus the shards were made from") }
                cases.append(c)
            }
            problems += document.problems
        }
        cases.sort { position[$0.name, default: 0] < position[$1.name, default: 0] }
        var merged = first
        merged.cases = cases
        merged.problems = problems
        merged.summary = merged.recountedSummary()
        // ISO 8601 in UTC: text order is time order.
        merged.finished = documents.map(\.finished).max() ?? first.finished
        merged.started = documents.map(\.started).min() ?? first.started
        merged.merged_from = files
        // The merged document is a whole run (or the shards given), not a shard.
        merged.settings = firstSettings
        merged.settings?.shard = nil
        do {
            try merged.write(to: URL(fileURLWithPath: output))
        } catch {
            throw ToolError(message: "cannot write \(output): \(error.localizedDescription)", status: .cannotCreate)
        }
        print("merged \(files.count) files, \(cases.count) cases -> \(output)")
    }
}
