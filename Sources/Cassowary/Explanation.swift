extension CassowarySolver {
    /// A minimal (irreducible) subset of `definitions` that cannot all hold,
    /// as indices in ascending order; empty if they can.
    ///
    /// The progression algorithm: grow a conflict one member at a time; each
    /// new member is the last constraint of the shortest prefix of the
    /// remaining candidates that is infeasible together with the members so
    /// far, found by binary search. Every member is necessary, so the result is
    /// irreducible; it costs O(k log n) feasibility checks for a conflict of
    /// size k among n candidates, each a linear-time rebuild. Only the
    /// required parts of the definitions are used.
    ///
    /// - Parameter mustInclude: a candidate known to be in every conflict of
    ///   interest (the constraint that just failed); it is tried first.
    /// Numerically, feasibility need not be monotone: rows that conflict by
    /// less than the tolerance (`a = 1e7` against `a = 10000000.0000001`)
    /// can be feasible in one order and not in another, and then no prefix is
    /// found infeasible. Then the whole candidate set (infeasible as a whole,
    /// checked first) is returned: a conflict, not a minimal one, rather than
    /// a wrong index.
    ///
    /// - Complexity: O(k × n log n) for chain-like systems.
    public static func minimalConflict(_ definitions: [ConstraintDefinition], variableCount: Int,
                                       mustInclude: Int? = nil) -> [Int] {
        let mustInclude = mustInclude.flatMap { definitions.indices.contains($0) ? $0 : nil }
        var members: [Int] = mustInclude.map { [$0] } ?? []
        var remaining = definitions.indices.filter { $0 != mustInclude }
        guard !feasible(members + remaining, definitions, variableCount) else { return [] }
        let everything = (members + remaining).sorted()
        while feasible(members, definitions, variableCount) {
            // Non-monotone (see above): members + remaining was infeasible when
            // it was formed, and no prefix of it is now.
            guard !remaining.isEmpty, !feasible(members + remaining, definitions, variableCount) else { return everything }
            // Smallest k such that members + remaining[0..<k] is infeasible.
            var lo = 1, hi = remaining.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if feasible(members + remaining[0..<mid], definitions, variableCount) { lo = mid + 1 } else { hi = mid }
            }
            members.append(remaining[lo - 1])
            remaining = Array(remaining[0..<(lo - 1)])
        }
        return members.sorted()
    }

    /// Whether the required forms of the selected definitions can all hold.
    static func feasible(_ selection: some Sequence<Int>, _ definitions: [ConstraintDefinition], _ variableCount: Int) -> Bool {
        var probe = CassowarySolver()
        for _ in 0..<variableCount { _ = probe.makeVariable() }
        for i in selection {
            var definition = definitions[i]
            definition.strength = .required
            do {
                let handle = CassowaryConstraint(id: probe.nextConstraintID)
                try probe.insert(definition, as: handle, edit: nil, explain: false)
                probe.nextConstraintID += 1
            } catch {
                return false
            }
        }
        return true
    }
}
