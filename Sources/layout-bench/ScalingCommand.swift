import ArgumentParser
import BenchHarness
import BenchStatistics
import Cassowary
import Foundation
import LayoutGenerators
import GLPKReference
import LayoutModel
import LayoutSolving

/// `layout-bench scaling`: how the native Cassowary solver grows on the
/// alternating grid, for the note and for regressions. A benchmark, not a test.
struct ScalingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaling",
        abstract: "Time the Cassowary solver on the alternating grid at several sizes and insertion orders, or every family's growth.",
        discussion: """
            With --family (a family's name, or all): load, solve and a width resize of each \
            generated family at each of --sizes on each of --solvers (cassowary and the glpk \
            reference by default), medians of --repetitions, the growth exponent per family, solver \
            and phase (from 10^3 to 10^4 when measured), and a summary line for each exponent above \
            1.15. --output DIR writes scaling.md and scaling.json there.

            Without --family: the alternating grid in depth. \
            For each R: build + solve (every constraint added, variables updated) in four insertion \
            orders, the growth exponent between successive sizes, the time of one container-width \
            edit + update (a 320/375/414/768/1024 sweep), and adding + removing one required \
            constraint, and the process's resident memory (RSS) with the edit-first solver alive. \
            Medians of --repetitions runs after one warm-up. Build in release mode \
            (scripts/layout-bench does).
            """
    )

    @Option(parsing: .upToNextOption, help: "Row counts.")
    var rows: [Int] = [10, 100, 1000, 10000]

    @Option(help: "Repetitions per measurement (median reported).")
    var repetitions = 5

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    enum SolverName: String, CaseIterable, ExpressibleByArgument { case cassowary, glpk }

    @Option(help: "cassowary (default) or glpk (the reference: wrapper vs glp_simplex time, levels, ambiguity).")
    var solver: SolverName = .cassowary

    enum Order: String, CaseIterable {
        case editFirst = "edit-first", editLast = "edit-last", reversed, shuffled
    }

    @Option(parsing: .upToNextOption, help: "Families to measure for growth (\(ScalingFamily.allCases.map(\.rawValue).joined(separator: ", ")), or all).")
    var family: [String] = []

    @Option(parsing: .upToNextOption, help: "Sizes for --family (rows or views).")
    var sizes: [Int] = [1000, 3000, 10000]

    @Option(help: "Built-in solvers for --family, comma-separated (cassowary, glpk).")
    var solvers = "cassowary,glpk"

    @Option(help: "With --family: a directory to write scaling.md and scaling.json to.")
    var output: String?

    /// The families asked for, in the order of ``ScalingFamily/allCases``.
    func families() throws -> [ScalingFamily] {
        if family.contains("all") { return ScalingFamily.allCases }
        for name in family where ScalingFamily(rawValue: name) == nil {
            throw ValidationError("unknown family '\(name)' (known: \(ScalingFamily.allCases.map(\.rawValue).joined(separator: ", ")), all)")
        }
        return ScalingFamily.allCases.filter { family.contains($0.rawValue) }
    }

    func solverSpecs() throws -> [SolverSpec] {
        try solvers.split(separator: ",").map { name in
            switch name {
            case "cassowary": return SolverSpec(name: "cassowary", kind: .cassowary)
            case "glpk": return SolverSpec(name: "glpk", kind: .glpk)
            default: throw ValidationError("--solvers: '\(name)' is not a built-in solver (cassowary, glpk)")
            }
        }
    }

    func validate() throws {
        _ = try families()
        _ = try solverSpecs()
        guard sizes.allSatisfy({ (1...200_000).contains($0) }) else { throw ValidationError("--sizes must be in 1...200000") }
        guard rows.allSatisfy({ (1...200_000).contains($0) }) else { throw ValidationError("--rows must be in 1...200000") }
        guard (1...1000).contains(repetitions) else { throw ValidationError("--repetitions must be in 1...1000") }
    }

    /// The grid lowered, as solver definitions over dense variables.
    struct Problem {
        var variableCount: Int
        var names: [String]
        var rows: [(terms: [(Int, Double)], constant: Double, relation: CassowaryRelation, strength: Strength)]
        var widthIndex: Int
        var probeIndex: Int  // a variable in the middle of the chain (row R/2's left height)
        var probePartner: Int
    }

    static func problem(rows: Int) throws -> Problem {
        let layout = try AlternatingGrid.layout(rows: rows)
        let system = try layout.lowered()
        var result: [(terms: [(Int, Double)], constant: Double, relation: CassowaryRelation, strength: Strength)] = []
        for row in system.constraints {
            if case .container(let c) = row.origin, c == .width { continue }  // the width is an edit
            let relation: CassowaryRelation = row.relation == .equal ? .equal : row.relation == .lessThanOrEqual ? .lessThanOrEqual : .greaterThanOrEqual
            result.append((row.expression.terms.map { ($0.variable.index, $0.coefficient) }, row.expression.constant, relation,
                           row.priority.isRequired ? .required : .soft(row.priority.rawValue)))
        }
        let middle = system.viewNames.firstIndex(of: AlternatingGrid.viewNames(row: max(1, rows / 2)).left) ?? 1
        let partner = system.viewNames.firstIndex(of: AlternatingGrid.viewNames(row: max(1, rows / 2)).right) ?? 1
        return Problem(variableCount: system.variableCount, names: system.variables.map { system.name(of: $0) }, rows: result,
                       widthIndex: FrameVariable(view: 0, component: .width).index,
                       probeIndex: FrameVariable(view: middle, component: .height).index,
                       probePartner: FrameVariable(view: partner, component: .width).index)
    }

    /// Builds and solves in an order; returns the solver and its variables.
    static func build(_ p: Problem, order: Order, width: Double = 375) throws -> (CassowarySolver, [CassowaryVariable]) {
        var solver = CassowarySolver()
        let variables = (0..<p.variableCount).map { solver.makeVariable(p.names[$0]) }
        func addEdit() throws {
            try solver.addEditVariable(variables[p.widthIndex], strength: .soft(1000))
            try solver.suggestValue(variables[p.widthIndex], width)
        }
        var indices = Array(p.rows.indices)
        switch order {
        case .reversed: indices.reverse()
        case .shuffled:
            var rng = SplitMix(seed: 42)
            indices.shuffle(using: &rng)
        default: break
        }
        if order != .editLast { try addEdit() }
        for i in indices {
            let r = p.rows[i]
            try solver.addConstraint(ConstraintDefinition(terms: r.terms.map { (variables[$0.0], $0.1) }, constant: r.constant,
                                                          relation: r.relation, strength: r.strength))
        }
        if order == .editLast { try addEdit() }
        solver.updateVariables()
        return (solver, variables)
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double { try Runner.seconds(body) }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    func run() throws {
        if !family.isEmpty {
            try runFamilies()
            return
        }
        if solver == .glpk {
            try runReference()
            return
        }
        var table: [[String]] = [["R", "constraints", "order", "build+solve", "exponent", "edit+update", "add+rm ineq", "add+rm eq",
                                  "rows", "cells", "longest", "RSS"]]
        var records: [String] = []
        var previous: [Order: (r: Int, t: Double)] = [:]
        for r in rows {
            let problem = try Self.problem(rows: r)
            for order in Order.allCases {
                // Why a warm-up: the first run pays page faults and allocator growth.
                _ = try Self.build(problem, order: order)
                var times: [Double] = []
                var built: (CassowarySolver, [CassowaryVariable])?
                for _ in 0..<repetitions {
                    times.append(try Self.seconds { built = try Self.build(problem, order: order) })
                }
                let t = Self.median(times)
                let exponent = previous[order].map { log(t / $0.t) / log(Double(r) / Double($0.r)) }
                previous[order] = (r, t)
                var editTime = Double.nan, ineqTime = Double.nan, eqTime = Double.nan
                guard let built else { continue }
                var solver = built.0
                let variables = built.1
                let stats = solver.statistics
                // The process's resident memory with this solver alive (edit-first
                // only: the sizes grow, so the first order of each R is the one
                // the previous R's garbage affects least).
                let resident = order == .editFirst ? StageProfile.residentBytes() : 0
                if order == .editFirst {
                    let widths: [Double] = [320, 375, 414, 768, 1024]
                    var edits: [Double] = []
                    for _ in 0..<max(3, repetitions) {
                        for w in widths {
                            edits.append(try Self.seconds {
                                try solver.suggestValue(variables[problem.widthIndex], w)
                                solver.updateVariables()
                            })
                        }
                    }
                    editTime = Self.median(edits)
                    let probe = variables[problem.probeIndex]
                    var ineq: [Double] = [], eq: [Double] = []
                    // Made outside the timed region (a new variable grows the solver's arrays).
                    let extra = solver.makeVariable("extra")
                    for _ in 0..<max(3, repetitions) {
                        ineq.append(try Self.seconds {
                            let c = try solver.addConstraint(ConstraintDefinition(terms: [(probe, 1)], constant: -1,
                                                                                  relation: .greaterThanOrEqual, strength: .required))
                            try solver.removeConstraint(c)
                            solver.updateVariables()
                        })
                        // A required equality that is not implied: a fresh variable tied to the probe.
                        eq.append(try Self.seconds {
                            let c = try solver.addConstraint(ConstraintDefinition(terms: [(extra, 1), (probe, -1)], constant: 0,
                                                                                  relation: .equal, strength: .required))
                            try solver.removeConstraint(c)
                            solver.updateVariables()
                        })
                    }
                    ineqTime = Self.median(ineq)
                    eqTime = Self.median(eq)
                }
                func ms(_ x: Double) -> String { x.isNaN ? "-" : String(format: "%.4f ms", x * 1000) }
                table.append([String(r), String(problem.rows.count + 1), order.rawValue, ms(t),
                              exponent.map { String(format: "%.2f", $0) } ?? "-", ms(editTime), ms(ineqTime), ms(eqTime),
                              String(stats.rows), String(stats.cells), String(stats.longestRow),
                              resident > 0 ? String(format: "%.1f MB", Double(resident) / 1e6) : "-"])
                records.append("{\"rows\":\(r),\"order\":\"\(order.rawValue)\",\"build_solve_s\":\(t),\"edit_s\":\(editTime.isNaN ? "null" : "\(editTime)"),\"add_remove_inequality_s\":\(ineqTime.isNaN ? "null" : "\(ineqTime)"),\"add_remove_equality_s\":\(eqTime.isNaN ? "null" : "\(eqTime)"),\"tableau_rows\":\(stats.rows),\"tableau_cells\":\(stats.cells),\"resident_bytes\":\(resident > 0 ? "\(resident)" : "null")}")
                FileHandle.standardError.write(Data("  R=\(r) \(order.rawValue): \(ms(t))\n".utf8))
            }
        }
        if json {
            print("[\n  " + records.joined(separator: ",\n  ") + "\n]")
        } else {
            let widths = table[0].indices.map { c in table.map { $0[c].count }.max() ?? 0 }
            for row in table {
                print(row.enumerated().map { c, s in String(repeating: " ", count: widths[c] - s.count) + s }.joined(separator: "  "))
            }
        }
    }
}

extension ScalingCommand {
    /// `--family`: measure, print the table (or JSON), write the files.
    func runFamilies() throws {
        let measurements = try FamilyScaling.measure(families: try families(), sizes: sizes, solvers: try solverSpecs(),
                                                     repetitions: repetitions) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let markdown = FamilyScaling.markdown(measurements)
        let document = FamilyScalingDocument(measurements: measurements, exponents: FamilyScaling.exponents(measurements),
                                             deciding: FamilyScaling.decidingExponents(measurements))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let jsonData = try encoder.encode(document)
        if let output {
            let directory = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(markdown.utf8).write(to: directory.appendingPathComponent("scaling.md"))
            try jsonData.write(to: directory.appendingPathComponent("scaling.json"))
        }
        if json {
            print(String(decoding: jsonData, as: UTF8.self))
        } else {
            print(markdown, terminator: "")
        }
    }

    /// The grid with three soft levels (500, 250, 100) on the top view, so the
    /// lexicographic solve has levels to iterate over.
    static func threeLevelGrid(rows: Int) throws -> Layout {
        var layout = try AlternatingGrid.layout(rows: rows)
        layout.expectations = []
        layout.constraints.append(LayoutConstraint(ItemAttribute("top", .height), .equal, nil, constant: 200, priority: Priority(500)))
        layout.constraints.append(LayoutConstraint(ItemAttribute("top", .height), .lessThanOrEqual, nil, constant: 100,
                                                   priority: Priority(100)))
        return layout
    }

    func runReference() throws {
        var table: [[String]] = [["R", "constraints", "load+solve", "in GLPK", "wrapper", "weighted 1-LP", "lex/weighted",
                                  "resize (warm)", "ambiguity", "views"]]
        func ms(_ x: Double) -> String { x.isNaN ? "-" : String(format: "%.3f ms", x * 1000) }
        for r in rows {
            let layout = try Self.threeLevelGrid(rows: r)
            var totals: [Double] = [], simplex: [Double] = [], weighted: [Double] = [], resizes: [Double] = []
            let weights: [Priority: Double] = [Priority(500): 1e6, Priority(250): 1e3, Priority(100): 1]
            for rep in 0...repetitions {
                let solver = GLPKLayoutSolver(analyseAmbiguity: false)
                let t = try Self.seconds { _ = try solver.load(layout, variant: nil) }
                let w = try Self.seconds { _ = try GLPKLayoutSolver(analyseAmbiguity: false, weights: weights).load(layout, variant: nil) }
                var sweep: [Double] = []
                for width in [320.0, 414, 768, 1024, 375] {
                    sweep.append(try Self.seconds { _ = try solver.resize(to: ContainerSize(width: width, height: nil)) })
                }
                if rep == 0 { continue }  // warm-up
                totals.append(t)
                weighted.append(w)
                resizes.append(Self.median(sweep))
                simplex.append(0)
                // Time inside glp_simplex for a fresh load, measured on its own solver.
                let probe = GLPKLayoutSolver(analyseAmbiguity: false)
                let total = try Self.seconds { _ = try probe.load(layout, variant: nil) }
                simplex[simplex.count - 1] = probe.statistics.glpkSeconds
                totals[totals.count - 1] = total
            }
            var ambiguity = Double.nan
            if layout.views.count <= 401 {
                let analysed = GLPKLayoutSolver(analyseAmbiguity: true)
                let plain = GLPKLayoutSolver(analyseAmbiguity: false)
                let withAnalysis = try Self.seconds { _ = try analysed.load(layout, variant: nil) }
                let without = try Self.seconds { _ = try plain.load(layout, variant: nil) }
                ambiguity = max(0, withAnalysis - without)
            }
            let t = Self.median(totals), s = Self.median(simplex), w = Self.median(weighted)
            table.append([String(r), String(layout.constraints.count + 4), ms(t), ms(s),
                          String(format: "%.0f%%", (t - s) / max(s, 1e-12) * 100), ms(w), String(format: "%.2f", t / w),
                          ms(Self.median(resizes)), ms(ambiguity), String(layout.views.count)])
            FileHandle.standardError.write(Data("  R=\(r): \(ms(t))\n".utf8))
        }
        print("GLPK \(GLPKLayoutSolver.glpkVersion); the grid with three soft levels (500, 250, 100); "
              + "one hand-off to the GLPK thread and back: \(ms(GLPKLayoutSolver.handOffSeconds())) (a load makes two)")
        let widths = table[0].indices.map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            print(row.enumerated().map { c, s in String(repeating: " ", count: widths[c] - s.count) + s }.joined(separator: "  "))
        }
    }
}
