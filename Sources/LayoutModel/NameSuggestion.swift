/// "Did you mean": the closest of some names to a mistyped one.
public enum NameSuggestion {
    /// The name equal ignoring case, else the closest within edit distance 2; nil if none.
    /// - Complexity: O(names · word length · name length); words over 40 characters get no suggestion.
    public static func closest(to word: String, among names: [String]) -> String? {
        closest(to: word, among: Candidates(names))
    }

    /// Names with their lowercased bytes, made once for many suggestions.
    public struct Candidates: Sendable {
        let names: [String]
        let lowered: [[UInt8]]

        public init(_ names: [String]) {
            self.names = names
            lowered = names.map { Array($0.lowercased().utf8) }
        }
    }

    /// ``closest(to:among:)`` over candidates made once.
    ///
    /// Why lengths first: a distance of at most 2 needs lengths within 2,
    /// and an equal name an equal length, so most candidates are passed over
    /// without a comparison (a suggestion among 10^5 views was a lowercased
    /// copy and a full distance per view).
    /// - Complexity: O(names) plus O(word length · name length) per name of a near length.
    public static func closest(to word: String, among candidates: Candidates) -> String? {
        let lower = Array(word.lowercased().utf8)
        for (i, name) in candidates.lowered.enumerated() where name.count == lower.count && name == lower {
            return candidates.names[i]
        }
        guard word.count <= 40 else { return nil }
        var best: (index: Int, distance: Int)?
        var previous: [Int] = [], current: [Int] = []
        for (i, name) in candidates.lowered.enumerated() where abs(name.count - lower.count) <= 2 {
            let d = distance(lower, name, atMost: 2, &previous, &current)
            if d <= 2, d < (best?.distance ?? .max) { best = (i, d) }
        }
        return best.map { candidates.names[$0.index] }
    }

    /// ``editDistance(_:_:)`` when it is at most `limit`, else some value
    /// above `limit`: stops at the first row whose every entry is above it
    /// (entries never decrease down a column's diagonal, so no later row
    /// can come back under), which for unrelated names is the first rows.
    /// The two rows are the caller's, reused between calls.
    static func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int, _ previous: inout [Int], _ current: inout [Int]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...b.count)
        current.removeAll(keepingCapacity: true)
        current.append(contentsOf: repeatElement(0, count: b.count + 1))
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Levenshtein distance of two byte strings.
    public static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
