import BenchReports
import BenchSchema
import Testing

/// The interop view: cases every solver passes, and failures in one solver only.
@Suite("Interop")
struct InteropTests {
    static func result(_ solver: String, _ verdict: Verdict, variant: String = "default") -> ResultsDocument.Result {
        ResultsDocument.Result(variant: variant, solver: solver, verdict: verdict, reasons: [], status: "solved", levels: [],
                               ambiguous: nil, conflict: [], frames: [:])
    }

    static func document(_ cases: [(String, [ResultsDocument.Result])]) -> ResultsDocument {
        var document = ResultsDocumentTests.small()
        document.solvers = ["a", "b", "c"].map { ResultsDocument.Solver(name: $0, kind: "built-in", reference: $0 == "a") }
        document.cases = cases.map { name, results in
            ResultsDocument.Case(name: name, source: name, views: 1, constraints: 1, variants: ["default", "v"], results: results,
                                 timings: [], counters: [:])
        }
        return document
    }

    @Test("a case counts when two or more solvers ran it; one failing solver is named; a failing variant fails the case")
    func interop() {
        let d = Self.document([
            ("all-pass", [Self.result("a", .pass), Self.result("b", .weightedDivergence), Self.result("c", .pass)]),
            ("b-fails-a-variant", [Self.result("a", .pass), Self.result("b", .pass), Self.result("b", .fail, variant: "v"),
                                   Self.result("c", .pass)]),
            ("two-fail", [Self.result("a", .pass), Self.result("b", .error), Self.result("c", .fail)]),
            ("one-solver-only", [Self.result("a", .pass), Self.result("b", .unsupported), Self.result("c", .unsupported)]),
            ("c-fails", [Self.result("a", .pass), Self.result("c", .error)]),
        ])
        let interop = Interop(d)
        #expect(interop.compared == 4)
        #expect(interop.passedByAll == 1)
        #expect(interop.score == 0.25)
        #expect(interop.failsOnlyIn.map(\.solver) == ["b", "c"])
        #expect(interop.failsOnlyIn.map(\.cases) == [["b-fails-a-variant"], ["c-fails"]])
        #expect(interop.text() == """
            interop: 1 of 4 cases pass in every solver that runs them (25.0%)
              fails only in b: 1 case(s): b-fails-a-variant
              fails only in c: 1 case(s): c-fails

            """)
    }

    @Test("error-first ranking: one wrong answer ranks below any number of unsolved cases; then cases solved; ties keep run order")
    func ranking() {
        let d = Self.document([
            // a solves 2, b solves 3 but answers one case wrongly, c solves 1 and errors on one
            ("one", [Self.result("a", .pass), Self.result("b", .pass), Self.result("c", .pass)]),
            ("two", [Self.result("a", .pass), Self.result("b", .pass), Self.result("c", .error)]),
            ("three", [Self.result("a", .unsupported), Self.result("b", .pass), Self.result("c", .unsupported)]),
            ("four", [Self.result("a", .error), Self.result("b", .pass), Self.result("b", .fail, variant: "v")]),
        ])
        let standings = SolverTable.standings(d)
        #expect(standings.map(\.solver) == ["a", "c", "b"])
        #expect(standings.map(\.wrong) == [0, 0, 1])
        #expect(standings.map(\.solved) == [2, 1, 3])
        #expect(SolverTable.rows(d).map { $0.last } == ["1", "3", "2"])
        #expect(SolverTable.ranked(d).map(\.solver.name) == ["a", "c", "b"])
    }
}
