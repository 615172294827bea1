import BenchReports
import BenchSchema
import Testing

/// Solver versions side by side: where a verdict changes, oldest version first.
@Suite("Version matrix")
struct VersionMatrixTests {
    static func hello(_ version: String) -> ResultsDocument.Solver.Hello {
        ResultsDocument.Solver.Hello(name: "kiwi", version: version, protocol: 1, semantics: "weighted", incremental: true, edits: true, max_rows: nil, ambiguity: nil)
    }

    @Test("versions in release order (1.10 after 1.9; the plain column by its hello); each change names its first version")
    func changes() {
        var d = InteropTests.document([
            ("fixed", [InteropTests.result("kiwi@1.10.0", .pass), InteropTests.result("kiwi@1.9.1", .error),
                       InteropTests.result("kiwi", .pass), InteropTests.result("glpk", .pass)]),
            ("same", [InteropTests.result("kiwi@1.10.0", .pass), InteropTests.result("kiwi@1.9.1", .pass), InteropTests.result("kiwi", .pass)]),
            ("regressed-in-a-variant", [InteropTests.result("kiwi@1.10.0", .pass), InteropTests.result("kiwi@1.10.0", .fail, variant: "v"),
                                        InteropTests.result("kiwi@1.9.1", .pass), InteropTests.result("kiwi", .fail)]),
        ])
        d.solvers = [ResultsDocument.Solver(name: "glpk", kind: "built-in", reference: true),
                     ResultsDocument.Solver(name: "kiwi@1.10.0", kind: "external", reference: false, hello: Self.hello("1.10.0")),
                     ResultsDocument.Solver(name: "kiwi@1.9.1", kind: "external", reference: false, hello: Self.hello("1.9.1")),
                     ResultsDocument.Solver(name: "kiwi", kind: "external", reference: false, hello: Self.hello("1.11.2"))]
        let matrix = VersionMatrix(d)
        #expect(matrix.families.count == 1)  // glpk ran in one version only
        #expect(matrix.families[0].members.map(\.version) == ["1.9.1", "1.10.0", "1.11.2"])
        #expect(matrix.text() == """
            versions of kiwi (1.9.1, 1.10.0, 1.11.2): verdicts change in 2 case(s)
              fixed: error → pass at 1.10.0
              regressed-in-a-variant: pass → fail at 1.10.0

            """)
    }

    @Test("one version of each solver: no family, no text")
    func none() {
        let d = InteropTests.document([("one", [InteropTests.result("a", .pass), InteropTests.result("b", .fail)])])
        #expect(VersionMatrix(d).families.isEmpty)
        #expect(VersionMatrix(d).text().isEmpty)
    }
}
