// Sharded runs: which cases a shard runs (`run --shard K/N`), which cases a
// run selects, and the rules by which the shards' results merge back into
// one run (`merge`).

import BenchSchema
import Foundation

/// Shard `index` of `count`: the cases at offsets i with i mod count == index - 1.
public struct Shard: CustomStringConvertible, Equatable, Sendable {
    /// 1...count.
    public var index: Int
    public var count: Int

    /// Parses `K/N` (1 ≤ K ≤ N); nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    /// Whether the case at `offset` (in corpus order) belongs to this shard.
    public func contains(offset: Int) -> Bool { offset % count == index - 1 }

    public var description: String { "\(index)/\(count)" }
}

/// Which cases a run runs: files and folders, a generated scale, name
/// globs to keep and to skip, and a shard.
public struct CaseSelection: Sendable {
    public var paths: [String]
    public var scale: Scale?
    public var filter: [String] = []
    public var skip: [String] = []
    public var shard: Shard?

    public init(paths: [String], scale: Scale?) {
        self.paths = paths
        self.scale = scale
    }

    /// The selected cases, the files that could not be read, and what a shard
    /// must share with its siblings for `merge`: the whole (unsharded) case
    /// list in corpus order and a digest of its texts.
    public struct Selected: Sendable {
        public var cases: [BenchCase]
        public var problems: [CaseProblem]
        public var corpusNames: [String]
        public var corpusDigest: String
    }

    /// Reads the files, adds the generated families, applies the globs, then the shard.
    /// - Complexity: O(cases × globs) after reading the files.
    public func select() -> Selected {
        let (files, problems) = CaseCollector.files(paths)
        var cases = files
        if let scale { cases += CaseCollector.generated(scale) }
        if !filter.isEmpty { cases = cases.filter { c in filter.contains { Glob.matches(c.name, $0) } } }
        cases = cases.filter { c in !skip.contains { Glob.matches(c.name, $0) } }
        let corpusNames = cases.map(\.name)
        let corpusDigest = CaseCollector.digest(cases)
        if let shard {
            cases = cases.enumerated().filter { shard.contains(offset: $0.offset) }.map(\.element)
        }
        return Selected(cases: cases, problems: problems, corpusNames: corpusNames, corpusDigest: corpusDigest)
    }
}

/// Why shards' results do not merge into one run.
public struct MergeError: Error, CustomStringConvertible {
    public var description: String
}

/// The rules by which the results of `run --shard K/N` merge into one run.
public enum ShardMerge {
    /// The settings that must agree between shards for their numbers to be
    /// one run's: their names in the file and how each is spelled.
    static func sharedSettings(_ s: ResultsDocument.Settings) -> [(name: String, value: String)] {
        func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
        return [("repetitions", text(s.repetitions)), ("warmup", text(s.warmup)), ("time_budget_s", text(s.time_budget_s)),
                ("sample_time_s", text(s.sample_time_s)), ("scale", text(s.scale)), ("timeout_s", text(s.timeout_s)),
                ("corpus_digest", text(s.corpus_digest))]
    }

    /// The merged document: cases in corpus order, problems joined, the
    /// summary recomputed; machine and settings from the first file.
    /// - Parameters:
    ///   - shards: each file's name (for messages) and its document, at least one.
    ///   - partial: merge even when some shards of 1...N are missing.
    ///   - note: called with a note for the user (shards that ran on another CPU).
    /// - Throws: ``MergeError`` when the files are not shards of one run (the
    ///   shard count, a shard given twice, settings, solvers, commit or corpus
    ///   differ), a shard is missing without `partial`, or a case appears twice.
    /// - Complexity: O(cases × log cases).
    public static func merge(_ shards: [(file: String, document: ResultsDocument)], partial: Bool,
                             note: (String) -> Void = { _ in }) throws(MergeError) -> ResultsDocument {
        guard let first = shards.first?.document else { throw MergeError(description: "no files") }
        let firstSettings = first.settings ?? ResultsDocument.Settings()
        try checkBelongTogether(shards, partial: partial, note: note)
        let cases = try casesInCorpusOrder(shards.map(\.document), order: firstSettings.corpus_cases ?? [])
        var merged = first
        merged.cases = cases
        merged.problems = shards.flatMap(\.document.problems)
        merged.summary = merged.recountedSummary()
        // ISO 8601 in UTC: text order is time order.
        merged.finished = shards.map(\.document.finished).max() ?? first.finished
        merged.started = shards.map(\.document.started).min() ?? first.started
        merged.merged_from = shards.map(\.file)
        // The merged document is a whole run (or the shards given), not a shard.
        merged.settings = firstSettings
        merged.settings?.shard = nil
        return merged
    }

    /// Do the shards belong together? One count, distinct shards, the same
    /// settings, solvers and commit; every shard present unless `partial`.
    static func checkBelongTogether(_ shards: [(file: String, document: ResultsDocument)], partial: Bool,
                                    note: (String) -> Void) throws(MergeError) {
        func fail(_ message: String) -> MergeError { MergeError(description: message) }
        guard let (firstFile, first) = shards.first else { return }
        let firstSettings = first.settings ?? ResultsDocument.Settings()
        var seenShards = Set<Int>()
        var count: Int?
        for (file, document) in shards {
            let settings = document.settings ?? ResultsDocument.Settings()
            guard let shard = settings.shard, let parsed = Shard(parsing: shard) else {
                throw fail("\(file) is not a shard (made without --shard K/N)")
            }
            if let count, count != parsed.count { throw fail("\(file) is shard \(shard), but \(firstFile) is of \(count) shards") }
            count = parsed.count
            guard seenShards.insert(parsed.index).inserted else { throw fail("shard \(parsed) is given twice (\(file))") }
            guard settings.corpus_digest != nil, settings.corpus_cases != nil else {
                throw fail("\(file) has no corpus digest (made by an older layout-bench): cannot check that the shards belong together")
            }
            for (mine, theirs) in zip(sharedSettings(settings), sharedSettings(firstSettings)) where mine.value != theirs.value {
                throw fail("\(file) differs from \(firstFile) in \(mine.name): \(mine.value) vs \(theirs.value)"
                           + (mine.name == "corpus_digest" ? " (the shards ran over different corpora)" : ""))
            }
            if document.solvers.map(\.name) != first.solvers.map(\.name) {
                throw fail("\(file) ran solvers \(document.solvers.map(\.name).joined(separator: ",")), \(firstFile) ran \(first.solvers.map(\.name).joined(separator: ","))")
            }
            // Shards of one run are one commit's code: another commit's timings and verdicts are another run.
            if let mine = document.machine.commit, let theirs = first.machine.commit, mine != theirs {
                throw fail("\(file) was made at commit \(mine.prefix(12)), \(firstFile) at \(theirs.prefix(12)): shards of one run come from one commit")
            }
            if document.machine.cpu != first.machine.cpu {
                note("note: \(file) ran on another CPU (\(document.machine.cpu)): its timings are not comparable with the others'")
            }
        }
        if let count, !partial {
            let missing = (1...count).filter { !seenShards.contains($0) }
            if !missing.isEmpty {
                throw fail("shard(s) " + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " missing (--partial merges anyway)")
            }
        }
    }

    /// Every shard's cases, each once, sorted into corpus order.
    static func casesInCorpusOrder(_ documents: [ResultsDocument], order: [String]) throws(MergeError) -> [ResultsDocument.Case] {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var cases: [ResultsDocument.Case] = []
        var seen = Set<String>()
        for document in documents {
            for c in document.cases {
                guard seen.insert(c.name).inserted else { throw MergeError(description: "case '\(c.name)' appears in more than one file") }
                guard position[c.name] != nil else {
                    throw MergeError(description: "case '\(c.name)' is not in the corpus the shards were made from")
                }
                cases.append(c)
            }
        }
        cases.sort { position[$0.name, default: 0] < position[$1.name, default: 0] }
        return cases
    }
}
