// `layout-bench scaling` without --family: the native Cassowary solver on the
// alternating grid in depth (four insertion orders, edits, add + remove,
// memory), and the GLPK reference's costs on the same grid. A benchmark, not
// a test: the command prints what these return.

import Cassowary
import CassowaryLayout
import Foundation
import GLPKReference
import LayoutGenerators
import LayoutModel
import LayoutSolving

/// The alternating grid through the core Cassowary solver directly (no
/// adapter), in several insertion orders.
public enum GridScaling {
    /// The order in which the grid's constraints are added.
    public enum Order: String, CaseIterable, Sendable {
        case editFirst = "edit-first", editLast = "edit-last", reversed, shuffled
    }

    /// The grid lowered, as solver definitions over dense variables.
    struct Problem {
        var variableCount: Int
        var names: [String]
        /// The grid's lowered rows but the container width (an edit instead).
        var rows: [LoweredConstraint]
        var widthIndex: Int
        var probeIndex: Int  // a variable in the middle of the chain (row R/2's left height)
        var probePartner: Int
    }

    /// One size and order: medians of the repetitions (seconds; NaN where not measured).
    public struct Record: Sendable {
        public var rows: Int
        /// The grid's constraints plus the container-width edit.
        public var constraints: Int
        public var order: Order
        public var buildSolve: Double
        /// Growth exponent of build + solve since the previous size (same order).
        public var exponent: Double?
        /// One container-width edit + update (edit-first only).
        public var edit = Double.nan
        /// Adding and removing a required inequality (edit-first only).
        public var addRemoveInequality = Double.nan
        /// Adding and removing a required equality on a fresh variable (edit-first only).
        public var addRemoveEquality = Double.nan
        public var tableauRows: Int
        public var tableauCells: Int
        public var longestRow: Int
        /// The process's resident memory with the solver alive (edit-first only; 0 otherwise).
        public var residentBytes: Int
    }

    static func problem(rows: Int) throws -> Problem {
        let layout = try AlternatingGrid.layout(rows: rows)
        let system = try layout.lowered()
        var result: [LoweredConstraint] = []
        for row in system.constraints {
            if case .container(let c) = row.origin, c == .width { continue }  // the width is an edit
            result.append(row)
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
        let indices: [Int]
        switch order {
        case .reversed: indices = ConstraintOrder.reversed.permutation(count: p.rows.count)
        case .shuffled: indices = ConstraintOrder.shuffled.permutation(count: p.rows.count)
        case .editFirst, .editLast: indices = ConstraintOrder.file.permutation(count: p.rows.count)
        }
        if order != .editLast { try addEdit() }
        for i in indices {
            try solver.addConstraint(ConstraintDefinition(p.rows[i], variables: variables))
        }
        if order == .editLast { try addEdit() }
        solver.updateVariables()
        return (solver, variables)
    }

    /// Median of `xs` (NaN when empty).
    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Every size in every order: build + solve (medians of `repetitions`
    /// after one warm-up), and for edit-first also edits, add + remove and memory.
    /// - Parameter progress: a line per size and order.
    /// - Throws: a solver error (none on a valid grid).
    /// - Complexity: O(repetitions × Σ rows) solver work.
    public static func measure(rows sizes: [Int], repetitions: Int, progress: (Record) -> Void = { _ in }) throws -> [Record] {
        var records: [Record] = []
        var previous: [Order: (r: Int, t: Double)] = [:]
        for r in sizes {
            let problem = try problem(rows: r)
            for order in Order.allCases {
                // Why a warm-up: the first run pays page faults and allocator growth.
                _ = try build(problem, order: order)
                var times: [Double] = []
                var built: (CassowarySolver, [CassowaryVariable])?
                for _ in 0..<repetitions {
                    times.append(try Runner.seconds { built = try build(problem, order: order) })
                }
                let t = median(times)
                let exponent = previous[order].map { log(t / $0.t) / log(Double(r) / Double($0.r)) }
                previous[order] = (r, t)
                guard let built else { continue }
                var solver = built.0
                let stats = solver.statistics
                var record = Record(rows: r, constraints: problem.rows.count + 1, order: order, buildSolve: t, exponent: exponent,
                                    tableauRows: stats.rows, tableauCells: stats.cells, longestRow: stats.longestRow,
                                    // The process's resident memory with this solver alive (edit-first
                                    // only: the sizes grow, so the first order of each R is the one
                                    // the previous R's garbage affects least).
                                    residentBytes: order == .editFirst ? ProcessMemory.residentBytes() : 0)
                if order == .editFirst {
                    try measureIncremental(&solver, built.1, problem, repetitions: repetitions, into: &record)
                }
                records.append(record)
                progress(record)
            }
        }
        return records
    }

    /// Edits (a width sweep) and add + remove of a required inequality and
    /// equality on a built solver.
    static func measureIncremental(_ solver: inout CassowarySolver, _ variables: [CassowaryVariable], _ problem: Problem,
                                   repetitions: Int, into record: inout Record) throws {
        let widths: [Double] = [320, 375, 414, 768, 1024]
        var edits: [Double] = []
        for _ in 0..<max(3, repetitions) {
            for w in widths {
                edits.append(try Runner.seconds {
                    try solver.suggestValue(variables[problem.widthIndex], w)
                    solver.updateVariables()
                })
            }
        }
        record.edit = median(edits)
        let probe = variables[problem.probeIndex]
        var ineq: [Double] = [], eq: [Double] = []
        // Made outside the timed region (a new variable grows the solver's arrays).
        let extra = solver.makeVariable("extra")
        for _ in 0..<max(3, repetitions) {
            ineq.append(try Runner.seconds {
                let c = try solver.addConstraint(ConstraintDefinition(terms: [(probe, 1)], constant: -1,
                                                                      relation: .greaterThanOrEqual, strength: .required))
                try solver.removeConstraint(c)
                solver.updateVariables()
            })
            // A required equality that is not implied: a fresh variable tied to the probe.
            eq.append(try Runner.seconds {
                let c = try solver.addConstraint(ConstraintDefinition(terms: [(extra, 1), (probe, -1)], constant: 0,
                                                                      relation: .equal, strength: .required))
                try solver.removeConstraint(c)
                solver.updateVariables()
            })
        }
        record.addRemoveInequality = median(ineq)
        record.addRemoveEquality = median(eq)
    }
}

/// The GLPK reference on the alternating grid with three soft levels: where
/// a load's time goes (inside GLPK or in the wrapper), the lexicographic
/// solve against one weighted LP, warm resizes and the ambiguity analysis.
public enum ReferenceScaling {
    /// One size: medians of the repetitions (seconds).
    public struct Record: Sendable {
        public var rows: Int
        public var constraints: Int
        public var views: Int
        public var loadSolve: Double
        /// Seconds inside `glp_simplex` of a fresh load.
        public var inGLPK: Double
        /// One weighted LP (weights 1e6 / 1e3 / 1) instead of the levels.
        public var weighted: Double
        /// A warm resize (median of a five-width sweep).
        public var resize: Double
        /// The ambiguity analysis's extra time (NaN above 401 views: too slow to include).
        public var ambiguity: Double
    }

    /// The grid with three soft levels (500, 250, 100) on the top view, so the
    /// lexicographic solve has levels to iterate over.
    public static func threeLevelGrid(rows: Int) throws -> Layout {
        var layout = try AlternatingGrid.layout(rows: rows)
        layout.expectations = []
        layout.constraints.append(LayoutConstraint(ItemAttribute("top", .height), .equal, nil, constant: 200, priority: Priority(500)))
        layout.constraints.append(LayoutConstraint(ItemAttribute("top", .height), .lessThanOrEqual, nil, constant: 100,
                                                   priority: Priority(100)))
        return layout
    }

    /// Every size, after one warm-up repetition each.
    /// - Throws: a solver error (none on a valid grid).
    /// - Complexity: O(repetitions × GLPK solves of each size).
    public static func measure(rows sizes: [Int], repetitions: Int, progress: (Record) -> Void = { _ in }) throws -> [Record] {
        var records: [Record] = []
        for r in sizes {
            let layout = try threeLevelGrid(rows: r)
            var totals: [Double] = [], simplex: [Double] = [], weighted: [Double] = [], resizes: [Double] = []
            let weights: [Priority: Double] = [Priority(500): 1e6, Priority(250): 1e3, Priority(100): 1]
            for rep in 0...repetitions {
                let solver = GLPKLayoutSolver(analyseAmbiguity: false)
                let t = try Runner.seconds { _ = try solver.load(layout, variant: nil) }
                let w = try Runner.seconds { _ = try GLPKLayoutSolver(analyseAmbiguity: false, weights: weights).load(layout, variant: nil) }
                var sweep: [Double] = []
                for width in [320.0, 414, 768, 1024, 375] {
                    sweep.append(try Runner.seconds { _ = try solver.resize(to: ContainerSize(width: width, height: nil)) })
                }
                if rep == 0 { continue }  // warm-up
                totals.append(t)
                weighted.append(w)
                resizes.append(GridScaling.median(sweep))
                simplex.append(0)
                // Time inside glp_simplex for a fresh load, measured on its own solver.
                let probe = GLPKLayoutSolver(analyseAmbiguity: false)
                let total = try Runner.seconds { _ = try probe.load(layout, variant: nil) }
                simplex[simplex.count - 1] = probe.statistics.glpkSeconds
                totals[totals.count - 1] = total
            }
            var ambiguity = Double.nan
            if layout.views.count <= 401 {
                let analysed = GLPKLayoutSolver(analyseAmbiguity: true)
                let plain = GLPKLayoutSolver(analyseAmbiguity: false)
                let withAnalysis = try Runner.seconds { _ = try analysed.load(layout, variant: nil) }
                let without = try Runner.seconds { _ = try plain.load(layout, variant: nil) }
                ambiguity = max(0, withAnalysis - without)
            }
            let record = Record(rows: r, constraints: layout.constraints.count + 4, views: layout.views.count,
                                loadSolve: GridScaling.median(totals), inGLPK: GridScaling.median(simplex),
                                weighted: GridScaling.median(weighted), resize: GridScaling.median(resizes), ambiguity: ambiguity)
            records.append(record)
            progress(record)
        }
        return records
    }
}

/// The process's memory.
public enum ProcessMemory {
    /// Resident set size in bytes (`/proc/self/statm`); 0 where it cannot be read.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
