// Two results files compared case by case (`layout-bench compare`): bits for
// a refactoring (everything but times identical), answers for a change of
// algorithm (answers equal within rounding, ambiguous views free to move).

import BenchSchema
import Foundation

/// The differences between two runs' results, times excepted.
public struct ResultsComparison: Sendable {
    /// How strictly to compare.
    public enum Mode: Sendable {
        /// Verdicts, reasons, statuses, ambiguity lists, conflicts, levels,
        /// frames and counters identical; allocation counts within
        /// ``Baseline/Thresholds/allocationSlack`` (they vary by a few between
        /// processes of unchanged code).
        case bits
        /// Verdicts, reasons, statuses, ambiguity lists and conflicts
        /// identical; levels and the frames of determined views within 1e-9
        /// relative (another elimination order rounds differently); the frames
        /// of views listed as ambiguous are only counted when they move (any
        /// point of the optimal face is an answer); counters are costs, not compared.
        case answers
    }

    /// Each difference, as a line for the user, in case order.
    public private(set) var differences: [String] = []
    public private(set) var cases = 0
    public private(set) var results = 0
    public private(set) var counters = 0
    /// Frames of ambiguous views that moved (``Mode/answers`` only).
    public private(set) var movedAmbiguousFrames = 0
    public let mode: Mode

    /// Compares `before` with `after`.
    /// - Complexity: O(results × views + counters).
    public init(_ before: ResultsDocument, _ after: ResultsDocument, mode: Mode,
                allocationSlack: Double = Baseline.Thresholds.allocationSlack) {
        self.mode = mode
        cases = before.cases.count
        if before.cases.map(\.name) != after.cases.map(\.name) { differences.append("case lists differ") }
        let casesAfter = Dictionary(after.cases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for c in before.cases {
            guard let other = casesAfter[c.name] else { continue }
            compareResults(c, other)
            if mode == .bits { compareCounters(c, other, slack: allocationSlack) }
        }
    }

    /// One line: what was compared and how many differences.
    public var summary: String {
        switch mode {
        case .bits:
            return "\(cases) cases, \(results) results, \(counters) counters compared: \(differences.count) difference(s)"
        case .answers:
            return "\(cases) cases, \(results) results compared as answers: \(differences.count) difference(s); "
                + "\(movedAmbiguousFrames) frame(s) of ambiguous views moved on the optimal face"
        }
    }

    mutating func compareResults(_ c: ResultsDocument.Case, _ other: ResultsDocument.Case) {
        let after = Dictionary(other.results.map { ("\($0.variant)\u{0}\($0.solver)", $0) }, uniquingKeysWith: { first, _ in first })
        for r in c.results {
            let key = "(\(r.variant), \(r.solver))"
            guard let s = after["\(r.variant)\u{0}\(r.solver)"] else {
                differences.append("\(c.name) \(key): missing after")
                continue
            }
            results += 1
            let where_ = "\(c.name) \(key)"
            if r.verdict != s.verdict { differences.append("\(where_) verdict: \(r.verdict.rawValue) -> \(s.verdict.rawValue)") }
            if r.reasons != s.reasons { differences.append("\(where_) reasons: \(Self.text(r.reasons)) -> \(Self.text(s.reasons))") }
            if r.status != s.status { differences.append("\(where_) status: \(r.status ?? "none") -> \(s.status ?? "none")") }
            if r.ambiguous != s.ambiguous {
                differences.append("\(where_) ambiguous: \(Self.text(r.ambiguous)) -> \(Self.text(s.ambiguous))")
            }
            if r.conflict != s.conflict { differences.append("\(where_) conflict: \(Self.text(r.conflict)) -> \(Self.text(s.conflict))") }
            switch mode {
            case .bits:
                if r.levels != s.levels { differences.append("\(where_) levels: \(Self.text(r.levels)) -> \(Self.text(s.levels))") }
                if r.frames != s.frames { differences.append("\(where_) frames differ") }
            case .answers:
                compareAnswers(where_, r, s)
            }
        }
    }

    /// Levels and determined frames within 1e-9 relative; ambiguous views' frames counted when they move.
    mutating func compareAnswers(_ where_: String, _ before: ResultsDocument.Result, _ after: ResultsDocument.Result) {
        if before.levels.map(\.priority) != after.levels.map(\.priority)
            || !zip(before.levels, after.levels).allSatisfy({ Self.close($0.error, $1.error) }) {
            differences.append("\(where_) levels: \(Self.text(before.levels)) -> \(Self.text(after.levels))")
        }
        guard before.frames.keys.sorted() == after.frames.keys.sorted() else {
            differences.append("\(where_) frames: views differ")
            return
        }
        let free = Set(before.ambiguous ?? [])
        for view in before.frames.keys.sorted() {
            let a = before.frames[view] ?? [], b = after.frames[view] ?? []
            let same = zip(a, b).allSatisfy { Self.close($0, $1) }
            if free.contains(view) {
                movedAmbiguousFrames += same ? 0 : 1
            } else if !same {
                differences.append("\(where_) frame of \(view): \(a) -> \(b)")
            }
        }
    }

    mutating func compareCounters(_ c: ResultsDocument.Case, _ other: ResultsDocument.Case, slack: Double) {
        for solver in Set(c.counters.keys).union(other.counters.keys).sorted() {
            let mine = c.counters[solver] ?? [:], theirs = other.counters[solver] ?? [:]
            for counter in Set(mine.keys).union(theirs.keys).sorted(by: { $0.rawValue < $1.rawValue }) {
                counters += 1
                let a = mine[counter], b = theirs[counter]
                if a == b { continue }
                if counter.isAllocationCount, let a, let b, abs(a - b) <= slack { continue }
                differences.append("\(c.name) \(solver) \(counter.rawValue): \(a.map { "\($0)" } ?? "none") -> \(b.map { "\($0)" } ?? "none")")
            }
        }
    }

    /// Equal, or within `relative` of the larger magnitude (at least 1).
    static func close(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
        a == b || abs(a - b) <= relative * Swift.max(1, abs(a), abs(b))
    }

    /// A value for a difference line, cut at 200 characters.
    static func text<T>(_ value: T) -> String {
        let s = "\(value)"
        return s.count > 200 ? String(s.prefix(200)) + "..." : s
    }
}
