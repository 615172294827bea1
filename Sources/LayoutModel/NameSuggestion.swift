/// "Did you mean": the closest of some names to a mistyped one.
public enum NameSuggestion {
    /// The name equal ignoring case, else the closest within edit distance 2; nil if none.
    /// - Complexity: O(names · word length · name length); words over 40 characters get no suggestion.
    public static func closest(to word: String, among names: [String]) -> String? {
        let lower = word.lowercased()
        if let exact = names.first(where: { $0.lowercased() == lower }) { return exact }
        guard word.count <= 40 else { return nil }
        var best: (name: String, distance: Int)?
        for name in names {
            let d = editDistance(Array(lower.utf8), Array(name.lowercased().utf8))
            if d <= 2, d < (best?.distance ?? .max) { best = (name, d) }
        }
        return best?.name
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
