// Solver versions side by side (`run --solvers kiwi@1.0.1,kiwi@1.5.1`): for
// each solver run in several versions, the cases whose verdict changes from
// one version to the next, and the first version where it did — the line a
// bug tracker wants ("fixed in", "broken since").

import BenchSchema

/// The version history of the solvers a results document ran in several versions.
public struct VersionMatrix: Sendable {
    /// One solver run in two or more versions.
    public struct Family: Sendable, Equatable {
        /// The name before `@` (`kiwi`).
        public var base: String
        /// The runs' solver names and versions, oldest first.
        public var members: [(solver: String, version: String)]
        /// The cases whose worst verdict is not the same in every version:
        /// each step where it changes (from the version before to this one).
        public var changes: [(case: String, steps: [(version: String, from: Verdict, to: Verdict)])]

        public static func == (a: Family, b: Family) -> Bool {
            a.base == b.base && a.members.map(\.solver) == b.members.map(\.solver) && a.members.map(\.version) == b.members.map(\.version)
                && a.changes.map(\.case) == b.changes.map(\.case)
        }
    }

    public private(set) var families: [Family] = []

    /// - Complexity: O(cases × results per case × versions).
    public init(_ document: ResultsDocument) {
        var bases: [String] = []
        var grouped: [String: [(solver: String, version: String)]] = [:]
        for solver in document.solvers {
            let parts = solver.name.split(separator: "@", maxSplits: 1).map(String.init)
            let base = parts[0]
            // Why the hello's version first: the plain `kiwi` column is the
            // version the quick start installed, known only from its hello.
            guard let version = solver.hello?.version ?? (parts.count == 2 ? parts[1] : nil) else { continue }
            if grouped[base] == nil { bases.append(base) }
            grouped[base, default: []].append((solver.name, version))
        }
        for base in bases {
            guard var members = grouped[base], members.count >= 2 else { continue }
            members.sort { Self.precedes($0.version, $1.version) }
            var family = Family(base: base, members: members, changes: [])
            for c in document.cases {
                let verdicts = members.map { m in Verdict.worst(c.results.filter { $0.solver == m.solver }.map(\.verdict)) }
                var steps: [(version: String, from: Verdict, to: Verdict)] = []
                for i in verdicts.indices.dropFirst() {
                    if let from = verdicts[i - 1], let to = verdicts[i], from != to { steps.append((members[i].version, from, to)) }
                }
                if !steps.isEmpty { family.changes.append((c.name, steps)) }
            }
            families.append(family)
        }
    }

    /// Release order: numeric components compare as numbers (1.10 after
    /// 1.9), other components as text; a shorter version that is a prefix comes first.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let x = a.split(whereSeparator: { !$0.isLetter && !$0.isNumber }), y = b.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        for (p, q) in zip(x, y) where p != q {
            if let m = Int(p), let n = Int(q) { return m < n }
            return p < q
        }
        return x.count < y.count
    }

    /// A few lines per family for a summary (at most `limit` cases named each).
    public func text(limit: Int = 10) -> String {
        var out = ""
        for family in families {
            out += "versions of \(family.base) (" + family.members.map(\.version).joined(separator: ", ") + "): "
            out += family.changes.isEmpty ? "the same verdict in every case\n" : "verdicts change in \(family.changes.count) case(s)\n"
            for (name, steps) in family.changes.prefix(limit) {
                out += "  \(name): " + steps.map { "\($0.from) → \($0.to) at \($0.version)" }.joined(separator: "; ") + "\n"
            }
            if family.changes.count > limit { out += "  ...\n" }
        }
        return out
    }
}
