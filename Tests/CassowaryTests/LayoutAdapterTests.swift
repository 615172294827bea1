import Cassowary
@testable import CassowaryLayout
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

@Suite("Cassowary on whole layouts")
struct LayoutAdapterTests {
    @Test("the packed origin table gives back every origin it was given, and nil elsewhere")
    func originTableRoundTrips() {
        var origins: [LoweredConstraint.Origin] = [.constraint(index: 0), .constraint(index: 1 << 40)]
        origins += FrameComponent.allCases.map { .container($0) }
        for view in [1, 7, 1 << 33] {
            for axis in Axis.allCases {
                for kind in ContentConstraintKind.allCases { origins.append(.content(view: view, axis: axis, kind: kind)) }
            }
        }
        var table = OriginTable()
        for (i, origin) in origins.enumerated() { table[id: 3 * i] = origin }
        for (i, origin) in origins.enumerated() {
            #expect(table[id: 3 * i] == origin)
            #expect(table[id: 3 * i + 1] == nil)
        }
        #expect(table[id: -1] == nil && table[id: 3 * origins.count + 5] == nil)
        table[id: 3] = nil
        #expect(table[id: 3] == nil && table[id: 0] == origins[0])
    }

    static func corpusFiles() -> [String] { TestCorpus.files() }

    func parse(_ text: String) throws -> Layout {
        try #require(LayoutParser.parse(text, fileName: "t.layout").layout)
    }

    @Test("every corpus file's expectations hold in every variant", arguments: corpusFiles())
    func corpus(file: String) throws {
        let layout = try #require(LayoutParser.parseFile(atPath: file).result.layout)
        let solver = CassowaryLayoutSolver()
        for (i, variant) in layout.allVariants.enumerated() {
            let solution = i == 0 ? try solver.load(layout, variant: variant.name) : try solver.switchVariant(to: variant.name)
            let results = solution.check(layout.expectations(for: variant.name))
            for failure in results where failure.verdict == .failed {
                Issue.record("\(file) \(variant.name): \(failure.reason ?? "")")
            }
            #expect(results.filter { $0.verdict == .passed }.count > 0 || layout.expectations(for: variant.name).isEmpty)
        }
    }

    @Test("a conflict in a reordered layout is the file order's: the later of two conflicting lines gives way")
    func conflictKeepsFileOrder() throws {
        // 600 views in a row (over the reordering floor), their lines in
        // reverse (so the load reorders them), then two required widths of
        // v5: the file's order keeps 50, the structural order (by constant)
        // would keep 30.
        var views: [ViewDeclaration] = []
        var constraints: [LayoutConstraint] = []
        for i in 0..<600 {
            views.append(ViewDeclaration(name: "v\(i)"))
            let previous = i == 0 ? ItemAttribute("super", .left) : ItemAttribute("v\(i - 1)", .right)
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .left), .equal, previous, constant: 8))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .top), .equal, ItemAttribute("super", .top)))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .width), .equal, nil, constant: 20, priority: Priority(250)))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .height), .equal, nil, constant: 20))
        }
        constraints.reverse()
        constraints.append(LayoutConstraint(ItemAttribute("v5", .width), .equal, nil, constant: 50))
        constraints.append(LayoutConstraint(ItemAttribute("v5", .width), .equal, nil, constant: 30))
        let layout = try Layout(container: ContainerSize(width: 50_000, height: nil), views: views, constraints: constraints).validated()
        var reordered: Bool?
        _ = try layout.lowered(variant: nil, structural: true, start: { reordered = $1.reordered }, visit: { _ in false })
        #expect(reordered == true)

        let solver = CassowaryLayoutSolver()
        try solver.prepare(layout, variant: nil)
        let answer = try solver.solve()
        // The file's order, row by row: a lowered system is loaded as given.
        let inFileOrder = CassowaryLayoutSolver()
        try inFileOrder.prepare(try layout.lowered(variant: nil), of: layout)
        let expected = try inFileOrder.solve()
        #expect(answer.status == .unsatisfiable)
        #expect(answer.frame(of: "v5")?.width == 50)
        #expect(answer == expected)
        // Without a conflict the same layout is loaded in structural order, and answers alike.
        var satisfiable = layout.layout
        satisfiable.constraints.removeLast()
        let reorderedAnswer = try CassowaryLayoutSolver().load(satisfiable, variant: nil)
        #expect(reorderedAnswer.status == .solved)
        #expect(reorderedAnswer.frame(of: "v599") == Frame(x: 600 * 8 + 599 * 20 + 30, y: 0, width: 20, height: 20))
    }

    @Test("resize equals a fresh solve at that size", arguments: [320.0, 414, 768, 1024, 100])
    func resizeMatchesFresh(width: Double) throws {
        let layout = try AlternatingGrid.layout(rows: 10)
        let incremental = CassowaryLayoutSolver()
        _ = try incremental.load(layout, variant: nil)
        let resized = try incremental.resize(to: ContainerSize(width: width, height: nil))
        var atWidth = layout
        atWidth.container.width = width
        let fresh = try CassowaryLayoutSolver().load(atWidth, variant: nil)
        #expect(resized.status == fresh.status)
        for (a, b) in zip(resized.frames, fresh.frames) {
            for c in FrameComponent.allCases { #expect(Tolerance.crossCheck.isClose(a[c], b[c]), "\(a) vs \(b)") }
        }
        #expect(resized.levels == fresh.levels)
    }

    @Test("switching variants incrementally equals loading the variant fresh")
    func switchMatchesFresh() throws {
        let layout = try #require(LayoutParser.parseFile(atPath: TestCorpus.path("seed/readable-constraints.layout")).result.layout)
        let solver = CassowaryLayoutSolver()
        _ = try solver.load(layout, variant: nil)
        for name in ["ipadLandscape", "landscape", "ipad", "default", "ipadLandscape"] {
            let switched = try solver.switchVariant(to: name)
            let fresh = try CassowaryLayoutSolver().load(layout, variant: name)
            #expect(switched.frames == fresh.frames, "\(name)")
        }
    }

    @Test("a container size the required constraints cannot meet is unsatisfiable, with the container in the conflict")
    func containerTooSmall() throws {
        let layout = try parse("""
            container 320 x 100
            views a
            a.left = super.left
            a.right <= super.right
            a.width >= 400 # wide
            a.top = super.top
            a.height = 10
            """)
        let solution = try CassowaryLayoutSolver().load(layout, variant: nil)
        #expect(solution.status == .unsatisfiable)
        // super.x cancels out of a.right - super.right, so it is not part of the conflict.
        #expect(Set(solution.conflict.map(\.name)) == ["container width", "t.layout:3", "t.layout:4", "wide"])
        let solver = CassowaryLayoutSolver()
        var wide = layout
        wide.container.width = 500
        #expect(try solver.load(wide, variant: nil).status == .solved)
        let resized = try solver.resize(to: ContainerSize(width: 320, height: 100))
        #expect(resized.status == .unsatisfiable)
        // The loaded system keeps only soft and container rows: the conflict's
        // required rows come from lowering the variant again, at the new size.
        #expect(Set(resized.conflict.map(\.name)) == ["container width", "t.layout:3", "t.layout:4", "wide"])
        #expect(try solver.resize(to: ContainerSize(width: 640, height: 100)).status == .solved)
    }

    @Test("conflicting required constraints: the first that fails is reported with its minimal conflict")
    func conflict() throws {
        let layout = try parse("""
            container 100 x 100
            views a b
            a.width = 50 # first
            a.height = 10
            b.height = 10
            a.width >= b.width + 60
            b.width = 0 # third
            """)
        let solution = try CassowaryLayoutSolver().load(layout, variant: nil)
        #expect(solution.status == .unsatisfiable)
        #expect(solution.conflict.map(\.name) == ["first", "t.layout:6", "third"])
        #expect(solution.check([Expectation(.unsatisfiable)]).first?.verdict == .passed)
    }

    @Test("solve before load is an error, not a crash")
    func notLoaded() {
        #expect(throws: SolverError.notLoaded) { try CassowaryLayoutSolver().resize(to: ContainerSize(width: 1, height: 1)) }
        #expect(throws: SolverError.notLoaded) { try CassowaryLayoutSolver().switchVariant(to: nil) }
    }

    @Test("the core's errors reach the protocol typed: numerical trouble as such, the rest as the backend's own error")
    func typedBackendErrors() throws {
        let wrapped = CassowaryLayoutSolver.wrap(.internalError("objective is unbounded"), at: "c7")
        guard case .backend(let backend) = wrapped else {
            Issue.record("expected a backend error, got \(wrapped)")
            return
        }
        #expect(backend.solver == "cassowary" && backend.context == "c7")
        #expect(backend.underlying as? CassowaryError == .internalError("objective is unbounded"))
        #expect(wrapped.description == "internal solver error: c7: internal solver error: objective is unbounded")
        #expect(CassowaryLayoutSolver.wrap(.numericalTrouble("cycled"), at: "c7") == .numericalTrouble("c7: cycled"))
        // Equal when the same solver says the same thing.
        #expect(wrapped == CassowaryLayoutSolver.wrap(.internalError("objective is unbounded"), at: "c7"))
        #expect(wrapped != CassowaryLayoutSolver.wrap(.internalError("objective is unbounded"), at: "c8"))
    }
}
