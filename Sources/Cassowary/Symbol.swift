/// A tableau symbol: a tiny (id, kind) value, compared and ordered by id.
///
/// Ids are dense small integers (reused after release) so that per-symbol
/// data lives in arrays indexed by id rather than in hash maps.
struct Symbol: Hashable, Comparable, CustomStringConvertible {
    enum Kind: UInt8 {
        /// A user variable: unrestricted in sign, never in an objective.
        case external
        /// The slack of an inequality (>= 0); the marker of that constraint.
        case slack
        /// An error of a soft constraint (>= 0), in its level's objective row.
        case error
    }

    let id: Int32
    let kind: Kind

    /// Restricted symbols are >= 0 and may enter or leave the basis in the simplex.
    var isRestricted: Bool { kind != .external }

    static func == (a: Symbol, b: Symbol) -> Bool { a.id == b.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    static func < (a: Symbol, b: Symbol) -> Bool { a.id < b.id }

    var description: String {
        switch kind {
        case .external: return "v\(id)"
        case .slack: return "s\(id)"
        case .error: return "e\(id)"
        }
    }
}
