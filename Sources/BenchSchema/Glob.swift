/// Glob patterns over case names, as `run --filter`/`--skip` and a baseline's
/// per-case thresholds write them: `*` any run of characters, `?` one
/// character, everything else literal. The one matcher of the project.
public enum Glob {
    /// Whether `name` matches `pattern`.
    ///
    /// Why a table of pattern prefixes rather than backtracking: each `*`
    /// would retry every split, exponential in the stars on a name that
    /// almost matches; this is one pass over the name.
    /// - Complexity: O(*name* × *pattern*) time, O(*pattern*) memory.
    public static func matches(_ name: String, _ pattern: String) -> Bool {
        let g = Array(pattern)
        // matched[j]: the pattern's first j characters match the name so far.
        var matched = [Bool](repeating: false, count: g.count + 1)
        matched[0] = true
        for j in 0..<g.count where g[j] == "*" { matched[j + 1] = matched[j] }
        var next = matched
        for c in name {
            next[0] = false
            for j in 0..<g.count {
                if g[j] == "*" {
                    next[j + 1] = next[j] || matched[j + 1]
                } else {
                    next[j + 1] = (g[j] == "?" || g[j] == c) && matched[j]
                }
            }
            swap(&matched, &next)
        }
        return matched[g.count]
    }
}
