import ArgumentParser
import BenchHarness
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
            With --family (a family's name, or all): load, solve and a width resize (batches of \
            at least 10 ms, after two untimed resizes) of each generated family at each of --sizes on each of --solvers (cassowary and the glpk \
            reference by default), medians of --repetitions rounds (each round samples every size, \
            ascending and descending in turn, after a warm-up round), the growth exponent per family, \
            solver and phase (from 10^3 to 10^4 when measured) with its 95% interval from the rounds \
            (bootstrap, each round's sizes drawn together), and a summary line for each exponent above \
            1.15 that says whether its interval is wholly above (beyond the noise) or holds 1.15, and one \
            for each exponent at or below 1.15 whose interval reaches above. --order puts each layout's constraints in another order first (reversed, or shuffled \
            with a fixed seed): the growth in an order other than the generator's (the native solver \
            loads a file whose lines do not come view by view in the layout's structural order, so \
            every such order loads alike). A random family (random-feasible) is measured on \
            --instances layouts a size (seeds 1 to N, 8 by default): each phase's time is the mean \
            of the instances' medians, and the report lists each instance's own exponent (one \
            random layout of 10^3 views is one draw, and draws differ by half in a resize). \
            --output DIR writes scaling.md and scaling.json there.

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

    @Option(parsing: .upToNextOption, help: "Families to measure for growth (\(ScalingFamily.allCases.map(\.rawValue).joined(separator: ", ")), or all).")
    var family: [String] = []

    @Option(parsing: .upToNextOption, help: "Sizes for --family (rows or views).")
    var sizes: [Int] = [1000, 3000, 10000]

    @Option(help: "Built-in solvers for --family, comma-separated (cassowary, glpk).")
    var solvers = SolverNames(["cassowary", "glpk"])

    @Option(help: "With --family: a directory to write scaling.md and scaling.json to.")
    var output: String?

    @Option(help: "With --family: the order the constraints are added in (file, reversed, shuffled; the shuffle's seed is fixed).")
    var order: ConstraintOrder = .file

    @Option(help: "With --family: layouts a size of a random family (random-feasible: seeds 1 to N, 1...64); each time is the mean of their medians, and the report lists each one's exponent.")
    var instances = 8

    /// The families asked for, in the order of ``ScalingFamily/allCases``.
    func families() throws -> [ScalingFamily] {
        if family.contains("all") { return ScalingFamily.allCases }
        for name in family where ScalingFamily(rawValue: name) == nil {
            throw ValidationError("unknown family '\(name)' (known: \(ScalingFamily.allCases.map(\.rawValue).joined(separator: ", ")), all)")
        }
        return ScalingFamily.allCases.filter { family.contains($0.rawValue) }
    }

    /// The built-in solvers named by --solvers (the registry's built-in list).
    func solverSpecs() throws -> [SolverSpec] {
        let builtIn = SolverRegistry()
        return try solvers.names.map { name in
            guard let spec = builtIn.solvers.first(where: { $0.name == name }) else {
                throw ValidationError("--solvers: '\(name)' is not a built-in solver (\(builtIn.solvers.map(\.name).joined(separator: ", ")))")
            }
            return spec
        }
    }

    func validate() throws {
        _ = try families()
        _ = try solverSpecs()
        guard sizes.allSatisfy({ (1...200_000).contains($0) }) else { throw ValidationError("--sizes must be in 1...200000") }
        guard rows.allSatisfy({ (1...200_000).contains($0) }) else { throw ValidationError("--rows must be in 1...200000") }
        guard (1...1000).contains(repetitions) else { throw ValidationError("--repetitions must be in 1...1000") }
        guard (1...64).contains(instances) else { throw ValidationError("--instances must be in 1...64") }
        // Without --family the grid's depth mode measures its four orders
        // itself; an --order there would be silently ignored.
        guard order == .file || !family.isEmpty else {
            throw ValidationError("--order applies to --family (without it, the alternating grid is measured in four orders)")
        }
    }

    func run() throws {
        if !family.isEmpty {
            try runFamilies()
        } else if solver == .glpk {
            try runReference()
        } else {
            try runGrid()
        }
    }
}

extension ScalingCommand {
    /// `--family`: measure, print the table (or JSON), write the files.
    func runFamilies() throws {
        let measurements = try FamilyScaling.measure(families: try families(), sizes: sizes, solvers: try solverSpecs(),
                                                     repetitions: repetitions, instances: instances, order: order) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let spread = FamilyScaling.instanceExponents(measurements)
        var markdown = FamilyScaling.markdown(measurements)
        if order != .file { markdown = "Constraints added in \(order.rawValue) order.\n\n" + markdown }
        let document = FamilyScalingDocument(measurements: measurements, exponents: FamilyScaling.exponents(measurements),
                                             deciding: FamilyScaling.decidingExponents(measurements), order: order,
                                             instanceExponents: spread.isEmpty ? nil : spread)
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

    /// The alternating grid in depth: build + solve in four orders, edits, add + remove, memory.
    func runGrid() throws {
        let records = try GridScaling.measure(rows: rows, repetitions: repetitions) { record in
            FileHandle.standardError.write(Data("  R=\(record.rows) \(record.order.rawValue): \(Self.ms(record.buildSolve, digits: 4))\n".utf8))
        }
        if json {
            print("[\n  " + records.map(Self.json).joined(separator: ",\n  ") + "\n]")
            return
        }
        var table: [[String]] = [["R", "constraints", "order", "build+solve", "exponent", "edit+update", "add+rm ineq", "add+rm eq",
                                  "rows", "cells", "longest", "RSS"]]
        for r in records {
            table.append([String(r.rows), String(r.constraints), r.order.rawValue, Self.ms(r.buildSolve, digits: 4),
                          r.exponent.map { String(format: "%.2f", $0) } ?? "-", Self.ms(r.edit, digits: 4),
                          Self.ms(r.addRemoveInequality, digits: 4), Self.ms(r.addRemoveEquality, digits: 4),
                          String(r.tableauRows), String(r.tableauCells), String(r.longestRow),
                          r.residentBytes > 0 ? String(format: "%.1f MB", Double(r.residentBytes) / 1e6) : "-"])
        }
        print(Self.aligned(table), terminator: "")
    }

    /// One record as a JSON object (the format `--json` has always printed).
    static func json(_ r: GridScaling.Record) -> String {
        func number(_ x: Double) -> String { x.isNaN ? "null" : "\(x)" }
        return "{\"rows\":\(r.rows),\"order\":\"\(r.order.rawValue)\",\"build_solve_s\":\(r.buildSolve),\"edit_s\":\(number(r.edit)),"
            + "\"add_remove_inequality_s\":\(number(r.addRemoveInequality)),\"add_remove_equality_s\":\(number(r.addRemoveEquality)),"
            + "\"tableau_rows\":\(r.tableauRows),\"tableau_cells\":\(r.tableauCells),"
            + "\"resident_bytes\":\(r.residentBytes > 0 ? "\(r.residentBytes)" : "null")}"
    }

    /// The reference on the three-level grid.
    func runReference() throws {
        let records = try ReferenceScaling.measure(rows: rows, repetitions: repetitions) { record in
            FileHandle.standardError.write(Data("  R=\(record.rows): \(Self.ms(record.loadSolve, digits: 3))\n".utf8))
        }
        var table: [[String]] = [["R", "constraints", "load+solve", "in GLPK", "wrapper", "weighted 1-LP", "lex/weighted",
                                  "resize (warm)", "ambiguity", "views"]]
        for r in records {
            table.append([String(r.rows), String(r.constraints), Self.ms(r.loadSolve, digits: 3), Self.ms(r.inGLPK, digits: 3),
                          String(format: "%.0f%%", (r.loadSolve - r.inGLPK) / max(r.inGLPK, 1e-12) * 100), Self.ms(r.weighted, digits: 3),
                          String(format: "%.2f", r.loadSolve / r.weighted), Self.ms(r.resize, digits: 3), Self.ms(r.ambiguity, digits: 3),
                          String(r.views)])
        }
        print("GLPK \(GLPKLayoutSolver.glpkVersion); the grid with three soft levels (500, 250, 100); "
              + "one hand-off to the GLPK thread and back: \(Self.ms(GLPKLayoutSolver.handOffSeconds(), digits: 3)) (a load makes two)")
        print(Self.aligned(table), terminator: "")
    }

    /// Milliseconds with `digits` decimals, `-` for NaN.
    static func ms(_ x: Double, digits: Int) -> String { x.isNaN ? "-" : String(format: "%.\(digits)f ms", x * 1000) }

    /// A table with right-aligned columns, a line per row.
    static func aligned(_ table: [[String]]) -> String {
        let widths = table[0].indices.map { c in table.map { $0[c].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { c, s in String(repeating: " ", count: widths[c] - s.count) + s }.joined(separator: "  ") + "\n"
        }.joined()
    }
}

extension ConstraintOrder: ExpressibleByArgument {}
