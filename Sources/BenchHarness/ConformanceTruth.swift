// The checks of `check-solver` that judge answers, not messages: a layout
// whose answer is known (the ambiguous one), the rows an unsatisfiable
// answer lists, priorities a weighted solver may trade. A wrong answer in
// protocol is its own outcome, out of spec only with `--strict`.

import GLPKReference
import LayoutFormat
import LayoutModel
import LayoutSolving

extension SolverConformance {
    /// One view placed, one free to slide sideways: the answer's frames are
    /// the reference's for `a` and `b`'s size and top, and the ambiguous
    /// views are exactly `b` (its x is not determined).
    static let ambiguousLayout = """
        container 200 x 100
        views a b
        a.left = super.left
        a.top = super.top
        a.width = 50
        a.height = 20
        b.top = a.bottom
        b.width = 30
        b.height = 10
        """
    /// Where weighted priorities and lexicographic ones part ways: the 250
    /// row's error is 100 times `a.height`, so a weighted solver whose
    /// weight ratio between 500 and 250 is under 100 gives up the 500 row
    /// (docs/layout-format.md, the semantics section).
    static let prioritiesLayout = """
        container 100 x 100
        views a b
        a.left = super.left
        a.top = super.top
        a.width = 10
        a.height = 10 @ 500
        b.left = super.left
        b.top = a.bottom
        b.width = 0
        b.height = 1
        b.width = a.height * 100 @ 250
        """
}

extension ConformanceSession {
    /// The rows an unsatisfiable answer lists are layout constraints, all
    /// required, and without them the layout is satisfiable (the reference
    /// says so): any such set is a right answer (an incremental solver lists
    /// the rows it refused, an LP a minimal conflict); a set whose removal
    /// leaves the conflict, or that names soft rows, is wrong.
    func unsatisfiableRows(_ conflicting: Layout) {
        step("answer: the rows an unsatisfiable load lists") {
            let solution = try solver.load(conflicting, variant: nil)
            guard solution.status == .unsatisfiable, !solution.conflict.isEmpty else {
                unsupported("answer: the rows an unsatisfiable load lists", "no rows listed (see 'unsatisfiable load')")
                return
            }
            var indices: [Int] = []
            for member in solution.conflict {
                guard case .constraint(let index) = member.origin, conflicting.constraints.indices.contains(index) else {
                    wrong("answer: the rows an unsatisfiable load lists", "\(member.name) is not a constraint of the layout")
                    return
                }
                guard conflicting.constraints[index].priority.isRequired else {
                    wrong("answer: the rows an unsatisfiable load lists", "\(member.name) is not required")
                    return
                }
                indices.append(index)
            }
            var without = conflicting
            without.constraints = conflicting.constraints.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
            let names = solution.conflict.map(\.description).joined(separator: "; ")
            if Self.reference(without)?.status == .solved {
                pass("answer: the rows an unsatisfiable load lists", "\(names): without them the layout is satisfiable")
            } else {
                wrong("answer: the rows an unsatisfiable load lists", "\(names): the layout without them still conflicts")
            }
        }
    }

    /// A layout with one free view: the frames the reference determines, and
    /// with the `ambiguity` capability exactly that view listed (a solver
    /// that always answers `free: []`, or lists too much, is wrong).
    func ambiguousAnswer(_ ambiguous: Layout) {
        let name = "answer: an ambiguous layout"
        step(name) {
            let solution = try solver.load(ambiguous, variant: nil)
            let reference = Self.reference(ambiguous)
            judge(name + " (frames)", ambiguous, solution, reference: reference)
            guard capabilities.ambiguityAnalysis else {
                unsupported(name + " (ambiguous views)", "the hello does not say ambiguity: true")
                return
            }
            let mine = (solution.ambiguous ?? []).sorted(), theirs = (reference?.ambiguous ?? []).sorted()
            if mine == theirs {
                pass(name + " (ambiguous views)", theirs.isEmpty ? "none, as the reference" : theirs.joined(separator: ", "))
            } else {
                wrong(name + " (ambiguous views)", "[\(mine.joined(separator: ", "))], the reference [\(theirs.joined(separator: ", "))]")
            }
        }
    }

    /// The timing pass's request, `"free": false` (protocol §3.3), on the
    /// ambiguous layout loaded last: an answer in spec without the list, and
    /// the same answer as the solve that listed it (only for `ambiguity: true`).
    func solveWithoutFreeList(_ ambiguous: Layout) {
        guard capabilities.ambiguityAnalysis else { return }
        let name = "solve with \"free\": false"
        step(name) {
            let listed = try solver.load(ambiguous, variant: nil)
            solver.listsFreeVariables = false
            defer { solver.listsFreeVariables = true }
            let timed = try solver.solve()
            if let difference = CrossCheck.sameAnswer(timed, listed, reference: Self.reference(ambiguous)) {
                fail(name, "differs from the answer with the free list: \(difference)")
            } else {
                pass(name, "the same answer, as the timing pass asks for it")
            }
        }
    }

    /// Priorities a weighted solver may trade: a lexicographic solver must
    /// give the reference's answer; a weighted one's divergence is reported,
    /// as declared.
    func priorities(_ layout: Layout) {
        step("answer: priorities that weights trade") {
            let solution = try solver.load(layout, variant: nil)
            judge("answer: priorities that weights trade", layout, solution, reference: Self.reference(layout))
        }
    }
}
