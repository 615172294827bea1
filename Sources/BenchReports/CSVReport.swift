import BenchMetrics
import BenchSchema
import CSV
import Foundation

/// The tidy CSV: one row per case x variant x solver x phase.
///
/// Columns (docs/results-format.md#resultscsv): `case, variant, solver, phase,
/// verdict, views, constraints, min_s, median_s, median_ci_low_s,
/// median_ci_high_s, p90_s, max_s, n, iterations, allocations, reasons`.
/// Times are seconds, written to 9 significant digits (the clock counts
/// nanoseconds; a sample is a mean over `iterations` rounds), so no binary
/// float noise (`0.00021150700000000002`) reaches the file. `median_ci_*` is
/// the 95% bootstrap interval of the median; `p90_s` is empty below 10
/// samples (it would be the maximum). `allocations`: heap allocations of the
/// phase, for solvers that run in the harness's process; empty otherwise.
/// `reasons`: the verdict's reasons, joined by ` | `. Timed phases exist for
/// the default variant; every other (case, variant, solver) has one row with
/// phase `check` and empty statistics. The `parse` phase is
/// solver-independent (solver `-`).
public enum CSVReport {
    public static let columns = ["case", "variant", "solver", "phase", "verdict", "views", "constraints",
                                 "min_s", "median_s", "median_ci_low_s", "median_ci_high_s", "p90_s", "max_s", "n",
                                 "iterations", "allocations", "reasons"]

    /// A measured figure at 9 significant digits, shortest form.
    public static func number(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "" }
        return Double(String(format: "%.9g", x)).map { "\($0)" } ?? ""
    }

    /// The CSV text. Quoting by yaslab/CSV.swift, correct for any case name.
    /// - Throws: the writer's error (only on an encoding failure).
    public static func render(_ results: ResultsDocument) throws -> String {
        let csv = try CSVWriter(stream: .toMemory())
        try csv.write(row: columns)
        // A count read from a results file: printed whole when it is one, as
        // read otherwise (never converted with a trapping `Int(_:)`).
        func count(_ x: Double) -> String {
            x.isFinite && x.rounded() == x && abs(x) < 9e15 ? String(format: "%.0f", x) : number(x)
        }
        for c in results.cases {
            let base = [String(c.views), String(c.constraints)]
            func figures(_ t: ResultsDocument.Timing) -> [String] {
                [number(t.min), number(t.median), number(t.median_ci?.first), number(t.median_ci?.last), number(t.p90),
                 number(t.max), String(t.n), String(t.iterations ?? 1)]
            }
            if let parse = c.timings.first(where: { $0.phase == .parse }) {
                try csv.write(row: [c.name, "default", "-", Phase.parse.rawValue, ""] + base + figures(parse) + ["", ""])
            }
            for r in c.results {
                let timings = c.timings.filter { $0.solver == r.solver && r.variant == "default" }
                let reasons = r.reasons.joined(separator: " | ")
                if timings.isEmpty {
                    try csv.write(row: [c.name, r.variant, r.solver, "check", r.verdict.rawValue] + base
                                  + Array(repeating: "", count: 9) + [reasons])
                }
                for t in timings {
                    let allocations = t.phase.allocationCounter.flatMap { c.counters[r.solver]?[$0] }.map(count) ?? ""
                    try csv.write(row: [c.name, r.variant, r.solver, t.phase.rawValue, r.verdict.rawValue] + base + figures(t) + [allocations, reasons])
                }
            }
        }
        csv.stream.close()
        guard let data = csv.stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
