import CSV
import Foundation

/// The tidy CSV: one row per case x variant x solver x phase.
///
/// Columns (documented in the README): `case, variant, solver, phase,
/// verdict, views, constraints, min_s, median_s, p90_s, max_s, n, allocations`
/// (heap allocations of the phase, for solvers that run in the harness's
/// process; empty otherwise). Timed
/// phases exist for the default variant; every other (case, variant, solver)
/// has one row with phase `check` and empty statistics. The `parse` phase is
/// solver-independent (solver `-`).
public enum CSVReport {
    public static let columns = ["case", "variant", "solver", "phase", "verdict", "views", "constraints",
                                 "min_s", "median_s", "p90_s", "max_s", "n", "allocations"]

    /// The CSV text. Quoting by yaslab/CSV.swift, correct for any case name.
    /// - Throws: the writer's error (only on an encoding failure).
    public static func render(_ results: ResultsFile) throws -> String {
        let csv = try CSVWriter(stream: .toMemory())
        try csv.write(row: columns)
        func number(_ x: Double?) -> String { x.map { $0.isFinite ? "\($0)" : "" } ?? "" }
        // A count read from a results file: printed whole when it is one, as
        // read otherwise (never converted with a trapping `Int(_:)`).
        func count(_ x: Double) -> String {
            x.isFinite && x.rounded() == x && abs(x) < 9e15 ? String(format: "%.0f", x) : number(x)
        }
        for c in results.cases {
            let base = [String(c.views), String(c.constraints)]
            if let parse = c.timings.first(where: { $0.phase == "parse" }) {
                try csv.write(row: [c.name, "default", "-", "parse", ""] + base
                              + [number(parse.min), number(parse.median), number(parse.p90), number(parse.max), String(parse.n), ""])
            }
            for r in c.results {
                let timings = c.timings.filter { $0.solver == r.solver && r.variant == "default" }
                if timings.isEmpty {
                    try csv.write(row: [c.name, r.variant, r.solver, "check", r.verdict] + base + ["", "", "", "", "", ""])
                }
                for t in timings {
                    let allocations = c.counters[r.solver]?["allocations/" + t.phase].map(count) ?? ""
                    try csv.write(row: [c.name, r.variant, r.solver, t.phase, r.verdict] + base
                                  + [number(t.min), number(t.median), number(t.p90), number(t.max), String(t.n), allocations])
                }
            }
        }
        csv.stream.close()
        guard let data = csv.stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
