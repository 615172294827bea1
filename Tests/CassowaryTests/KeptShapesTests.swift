@testable import Cassowary
import LayoutGenerators
import LayoutModel
import Testing

/// A run of resizes at one shape shifts through a kept column and evaluates
/// through a plan (Cassowary/KeptShapes.swift): the same values as the walk,
/// bit for bit, and nothing kept survives a change of shape.
@Suite("Kept shapes: the edit's column and the evaluation plan")
struct KeptShapesTests {
    /// A solver loaded with `layout`'s rows, the container width (variable 2)
    /// an edit at `width`.
    /// `floor`: ``Tableau/keptShapesFloor`` (0: these small layouts keep shapes too).
    static func load(_ layout: Layout, width: Double, keepsShapes: Bool = true, floor: Int = 0) throws -> (CassowarySolver, [CassowaryVariable]) {
        try StressTests.loadWithWidthEdit(layout.lowered(), width: width, configure: { solver in
            solver.tableau.keepsShapes = keepsShapes
            solver.tableau.keptShapesFloor = floor
        })
    }

    /// Resizes to each width in turn (the width edit is variable 2),
    /// evaluating after each, then calls `check` with the width.
    static func resize(_ solver: inout CassowarySolver, _ variables: [CassowaryVariable], through widths: [Double],
                       check: (CassowarySolver, Double) -> Void = { _, _ in }) throws {
        for width in widths {
            try solver.suggestValue(variables[2], width)
            solver.updateVariables()
            check(solver, width)
        }
    }

    /// The values the walk gives now (a fresh scratch never plans).
    static func walked(_ solver: CassowarySolver) -> [Double] { solver.tableau.values(of: solver.variableSymbols) }

    @Test("resizes at one shape: the kept column and the plan give the walk's values bit for bit",
          arguments: [(rows: 40, family: "self-sizing"), (rows: 30, family: "grid")])
    func resizesAtOneShape(rows: Int, family: String) throws {
        let layout = family == "grid" ? try AlternatingGrid.layout(rows: rows) : try SelfSizingRows.layout(rows: rows)
        var (kept, variables) = try Self.load(layout, width: 375)
        var (plain, _) = try Self.load(layout, width: 375, keepsShapes: false)
        // Widths a few points apart keep every row feasible (no pivot), so
        // the shape stays and the kept paths are taken from the second resize on.
        let widths: [Double] = [380, 376, 383.5, 375, 379.25, 377]
        for (i, width) in widths.enumerated() {
            try kept.suggestValue(variables[2], width)
            kept.updateVariables()
            try plain.suggestValue(variables[2], width)
            plain.updateVariables()
            #expect(kept.values == Self.walked(kept), "\(family) resize \(i): the plan's values differ from the walk's")
            #expect(kept.values == plain.values, "\(family) resize \(i): the kept column's shift differs from the column index's")
        }
        #expect(kept.tableau.keptColumnShifts >= widths.count - 2, "the kept column was not used: \(kept.tableau.keptColumnShifts)")
        #expect(kept.evaluation.plannedEvaluations >= widths.count - 2, "the plan was not used: \(kept.evaluation.plannedEvaluations)")
        #expect(plain.tableau.keptColumnShifts == 0 && plain.evaluation.plannedEvaluations == 0)
        // The answer is the one a fresh load at the last width gives.
        let (fresh, _) = try Self.load(layout, width: widths[widths.count - 1])
        for (a, b) in zip(kept.values, fresh.values) { #expect(abs(a - b) <= 1e-9 * max(1, abs(b))) }
    }

    @Test("resizes whose dual simplex pivots keep the plan: the walk's values bit for bit",
          arguments: [(seed: UInt64(5), far: false), (seed: 17, far: false), (seed: 5, far: true)])
    func resizesThatPivot(seed: UInt64, far: Bool) throws {
        let layout = try RandomFeasible.layout(views: 120, seed: seed)
        var (kept, variables) = try Self.load(layout, width: 1000)
        var (plain, _) = try Self.load(layout, width: 1000, keepsShapes: false)
        // Widths far apart turn rows infeasible, so every resize pivots;
        // `far` goes back and forth to 9e6, the edge of the range the format
        // answers to full precision.
        let widths: [Double] = far ? [9e6, 700, 8e6, 1000, 6.4e6, 980, 9e6] : [700, 1000, 640, 1000, 700, 980, 620]
        var pivoting = 0
        for (i, width) in widths.enumerated() {
            let shapes = kept.tableau.shapeVersion, pivots = kept.tableau.pivotCount
            try kept.suggestValue(variables[2], width)
            kept.updateVariables()
            try plain.suggestValue(variables[2], width)
            plain.updateVariables()
            if kept.tableau.pivotCount > pivots && kept.tableau.shapeVersion != shapes { pivoting += 1 }
            #expect(kept.values == Self.walked(kept), "seed \(seed) resize \(i): the plan's values differ from the walk's")
            #expect(kept.values == plain.values, "seed \(seed) resize \(i): the kept solver differs from the plain one")
        }
        #expect(pivoting >= widths.count - 1, "the widths did not make the dual simplex pivot: \(pivoting)")
        #expect(kept.evaluation.plannedEvaluations >= widths.count - 2, "the plan was not kept across pivots: \(kept.evaluation.plannedEvaluations)")
        // A constraint added and removed between resizes (pivots that name
        // externals, symbols made and freed) drops the plan; values stay the walk's.
        let planned = kept.evaluation.plannedEvaluations
        let added = try kept.addConstraint(ConstraintDefinition(
            terms: [(variables[6], 1)], constant: -(kept.value(of: variables[6]) + 30), relation: .equal, strength: .soft(750)))
        kept.updateVariables()
        #expect(kept.evaluation.plannedEvaluations == planned, "a plan made before the new row was followed")
        #expect(kept.values == Self.walked(kept))
        try kept.removeConstraint(added)
        try Self.resize(&kept, variables, through: far ? [9e6, 1000, 7e6] : [700, 1000, 660]) { solver, width in
            #expect(solver.values == Self.walked(solver), "seed \(seed) after the removal, width \(width)")
        }
    }

    @Test("a pivot between restricted symbols keeps the evaluation's version; one that names an external does not")
    func evaluationVersion() {
        var t = Tableau()
        let x = t.makeSymbol(.external), s1 = t.makeSymbol(.slack), s2 = t.makeSymbol(.slack), s3 = t.makeSymbol(.slack)
        // x = 5 + s1 + 2 s2, and the restricted row s3 = 4 - s1 + s2.
        t.setRow(x, Row(constant: 5, cells: [.init(symbol: s1, coefficient: 1), .init(symbol: s2, coefficient: 2)]))
        t.setRow(s3, Row(constant: 4, cells: [.init(symbol: s1, coefficient: -1), .init(symbol: s2, coefficient: 1)]))
        var infeasible = Set<Int32>()
        let (shape, evaluation) = (t.shapeVersion, t.evaluationVersion)
        t.pivot(leaving: s3, entering: s1, infeasible: &infeasible)
        #expect(t.shapeVersion != shape, "a pivot changes the shape")
        #expect(t.evaluationVersion == evaluation, "a pivot between restricted symbols changed the evaluation's version")
        // s1 = 4 + s2 - s3, so x = 9 + 3 s2 - s3: the same terms (none basic), a new constant.
        #expect(t.values(of: [x]) == [9])
        t.pivot(leaving: x, entering: s2, infeasible: &infeasible)
        #expect(t.evaluationVersion != evaluation, "an external left the basis and the evaluation's version stayed")
        #expect(t.values(of: [x]) == [0])
    }

    @Test("a change of shape between resizes drops what was kept")
    func changeOfShape() throws {
        let layout = try SelfSizingRows.layout(rows: 20)
        var (solver, variables) = try Self.load(layout, width: 375)
        try Self.resize(&solver, variables, through: [380, 376, 383])
        let planned = solver.evaluation.plannedEvaluations
        let shifts = solver.tableau.keptColumnShifts
        #expect(planned > 0 && shifts > 0)
        // A new weak row (the first view 30 wider): a change of shape.
        let grown = try solver.addConstraint(ConstraintDefinition(
            terms: [(variables[6], 1)], constant: -(solver.value(of: variables[6]) + 30), relation: .equal, strength: .soft(1)))
        solver.updateVariables()
        #expect(solver.evaluation.plannedEvaluations == planned, "a plan of the old shape was followed")
        #expect(solver.values == Self.walked(solver))
        try solver.suggestValue(variables[2], 381)
        #expect(solver.tableau.keptColumnShifts == shifts, "a column of the old shape was used")
        solver.updateVariables()
        #expect(solver.values == Self.walked(solver))
        // Removing it changes the shape again; values stay the walk's.
        try solver.removeConstraint(grown)
        try Self.resize(&solver, variables, through: [379, 382, 377]) { solver, width in
            #expect(solver.values == Self.walked(solver), "width \(width)")
        }
        #expect(solver.evaluation.plannedEvaluations > planned && solver.tableau.keptColumnShifts > shifts)
    }

    @Test("below the floor of symbols nothing is kept, above it the same layout keeps its shape")
    func floor() throws {
        let layout = try SelfSizingRows.layout(rows: 12)
        var (small, variables) = try Self.load(layout, width: 375, floor: Tableau().keptShapesFloor)
        #expect(small.tableau.symbolCapacity < small.tableau.keptShapesFloor, "the layout is not below the default floor")
        var (kept, _) = try Self.load(layout, width: 375, floor: small.tableau.symbolCapacity)
        for width in [380.0, 376, 383, 377] {
            try small.suggestValue(variables[2], width)
            small.updateVariables()
            try kept.suggestValue(variables[2], width)
            kept.updateVariables()
            #expect(small.values == kept.values, "width \(width)")
        }
        #expect(small.tableau.keptColumnShifts == 0 && small.evaluation.plannedEvaluations == 0)
        #expect(kept.tableau.keptColumnShifts > 0 && kept.evaluation.plannedEvaluations > 0)
    }

    @Test("a rebuilt tableau does not follow the old tableau's plan")
    func rebuild() throws {
        let layout = try SelfSizingRows.layout(rows: 10)
        var (solver, variables) = try Self.load(layout, width: 375)
        try Self.resize(&solver, variables, through: [380, 376, 383])
        let planned = solver.evaluation.plannedEvaluations
        #expect(planned > 0)
        try solver.rebuild()
        solver.updateVariables()
        #expect(solver.evaluation.plannedEvaluations == planned, "the old tableau's plan was followed after a rebuild")
        #expect(solver.values == Self.walked(solver))
    }
}
