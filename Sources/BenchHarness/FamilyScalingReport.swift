import BenchMetrics
import BenchStatistics
import Foundation

/// The report of `scaling --family`: the tables of times and exponents, the
/// random families' instances, the frame budget and the summary lines.
extension FamilyScaling {
    /// The Markdown report: one table of times (solvers side by side per
    /// family and size), one of deciding exponents, and the flagged list.
    public static func markdown(_ measurements: [ScalingMeasurement]) -> String {
        let solvers = groups(measurements).map(\.1).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        func time(_ s: Double) -> String {
            s.isNaN ? "-" : s >= 1 ? String(format: "%.2f s", s) : s >= 1e-3 ? String(format: "%.1f ms", s * 1e3) : String(format: "%.1f µs", s * 1e6)
        }
        var lines = ["| family | size | constraints | " + solvers.flatMap { s in phases.map { "\(s) \($0)" } }.joined(separator: " | ") + " |"]
        lines.append("|" + String(repeating: " --- |", count: 3 + solvers.count * phases.count))
        var rows: [(ScalingFamily, Int)] = []
        for m in measurements where !rows.contains(where: { $0.0 == m.family && $0.1 == m.size }) { rows.append((m.family, m.size)) }
        for (family, size) in rows {
            let here = measurements.filter { $0.family == family && $0.size == size }
            let cells = solvers.flatMap { s in
                phases.map { p in here.first { $0.solver == s }.map { time($0.seconds(p)) } ?? "-" }
            }
            lines.append("| \(family.rawValue) | \(size) \(family.sizeUnit) | \(here.first?.constraints ?? 0) | " + cells.joined(separator: " | ") + " |")
        }
        let deciding = decidingExponents(measurements)
        lines.append("")
        lines.append("Growth exponents (`t ∝ size^k`; flagged above \(flagThreshold); in brackets the "
                     + "\(Int(intervalLevel * 100))% interval over the rounds, each round's sizes resampled together):")
        lines.append("")
        lines.append("| family | sizes | " + solvers.flatMap { s in phases.map { "\(s) \($0)" } }.joined(separator: " | ") + " |")
        lines.append("|" + String(repeating: " --- |", count: 2 + solvers.count * phases.count))
        for family in families(measurements) {
            let here = deciding.filter { $0.family == family }
            let span = here.first.map { "\($0.fromSize) → \($0.toSize)" } ?? "-"
            let cells = solvers.flatMap { s in
                phases.map { p in
                    here.first { $0.solver == s && $0.phase == p }.map(cell) ?? "-"
                }
            }
            lines.append("| \(family.rawValue) | \(span) | " + cells.joined(separator: " | ") + " |")
        }
        lines += instanceLines(measurements)
        lines.append("")
        lines += frameBudget(measurements, solvers: solvers)
        lines.append("")
        lines.append(summary(measurements))
        return lines.joined(separator: "\n") + "\n"
    }

    /// An exponent as the table shows it: the estimate, its interval in
    /// brackets when the rounds gave one, and the flag.
    static func cell(_ e: GrowthExponent) -> String {
        let estimate = e.exponent.map { String(format: "%.2f", $0) } ?? "-"
        let interval = intervalText(e).map { " (\($0))" } ?? ""
        return estimate + interval + (e.flagged ? " ⚑" : "")
    }

    /// "1.09 … 1.26", or nil without an interval.
    static func intervalText(_ e: GrowthExponent) -> String? {
        guard let low = e.low, let high = e.high else { return nil }
        return String(format: "%.2f … %.2f", low, high)
    }

    /// The random families' instances: how many each mean covers, and the
    /// spread of their own exponents beside the mean's (none without instances).
    static func instanceLines(_ measurements: [ScalingMeasurement]) -> [String] {
        let spread = instanceExponents(measurements)
        guard !spread.isEmpty else { return [] }
        var lines = ["", "Random families, measured on several instances a size: each time above is the mean of the instances' medians; "
                     + "each instance's own exponent beside the mean's:", ""]
        lines.append("| family | solver | phase | sizes | instances (seeds) | exponent of the mean | instances' exponents | instances above \(flagThreshold) |")
        lines.append("|" + String(repeating: " --- |", count: 8))
        let deciding = decidingExponents(measurements)
        for e in deciding {
            let mine = spread.filter { $0.family == e.family && $0.solver == e.solver && $0.phase == e.phase }
            guard !mine.isEmpty else { continue }
            let values = mine.compactMap(\.exponent).sorted()
            let seeds = mine.map(\.seed)
            let range = values.isEmpty ? "-" : String(format: "%.2f … %.2f (median %.2f)", values[0], values[values.count - 1],
                                                       TimingSummary.median(sorted: values))
            let mean = (e.exponent.map { String(format: "%.2f", $0) } ?? "-") + (e.flagged ? " ⚑" : "")
            let above = values.filter { $0 > flagThreshold }.count
            lines.append("| \(e.family.rawValue) | \(e.solver) | \(e.phase) | \(e.fromSize) → \(e.toSize) | \(mine.count) "
                         + "(\(seeds.min() ?? 0)-\(seeds.max() ?? 0)) | \(mean) | \(range) | \(above) of \(mine.count) |")
        }
        return lines
    }

    /// Beside the exponents, what they mean for a user: per family and
    /// solver, the largest size measured whose load + solve fits a frame at
    /// 120 Hz and at 60 Hz (the report's frame budget, for the families).
    static func frameBudget(_ measurements: [ScalingMeasurement], solvers: [String]) -> [String] {
        var lines = ["Largest size laid out (load + solve) within one frame, 8.3 ms / 16.7 ms:", ""]
        lines.append("| family | " + solvers.joined(separator: " | ") + " |")
        lines.append("|" + String(repeating: " --- |", count: 1 + solvers.count))
        for family in families(measurements) {
            let cells = solvers.map { solver -> String in
                let mine = measurements.filter { $0.family == family && $0.solver == solver && !($0.load + $0.solve).isNaN }
                guard !mine.isEmpty else { return "-" }
                func largest(_ budget: Double) -> String {
                    mine.filter { $0.load + $0.solve <= budget }.map(\.size).max().map(String.init) ?? "none"
                }
                return "\(largest(1.0 / 120)) / \(largest(1.0 / 60))"
            }
            lines.append("| \(family.rawValue) (\(family.sizeUnit)) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// One line per flagged family, solver and phase, or one line saying none
    /// is; each with its interval and where that lies against the threshold,
    /// and a line for each exponent not flagged whose interval reaches above it.
    public static func summary(_ measurements: [ScalingMeasurement]) -> String {
        let deciding = decidingExponents(measurements)
        let flagged = deciding.filter(\.flagged)
        func subject(_ e: GrowthExponent) -> String {
            String(format: "%@ on %@, %@ grows as size^%.2f from %d to %d %@", e.family.rawValue, e.solver, e.phase.rawValue,
                   e.exponent ?? 0, e.fromSize, e.toSize, e.family.sizeUnit)
        }
        func noise(_ e: GrowthExponent) -> String {
            guard let text = intervalText(e), let rounds = e.rounds, let standing = e.standing else {
                return " (one round: no interval)"
            }
            let threshold = String(format: "%.2f", flagThreshold)
            let reading = switch standing {
            case .above: "wholly above \(threshold): beyond the rounds' noise"
            case .straddling: "\(threshold) inside it: the rounds' noise alone can put the estimate on either side"
            case .below: "wholly at or below \(threshold)"
            }
            return " (\(Int(intervalLevel * 100))% interval \(text) over \(rounds) rounds, \(reading))"
        }
        var lines = flagged.map { "FLAGGED: " + subject($0) + noise($0) }
        if flagged.isEmpty { lines.append("No family grows faster than size^\(flagThreshold) on any solver and phase.") }
        lines += deciding.filter { !$0.flagged && $0.standing == .straddling }.map { "NEAR: " + subject($0) + noise($0) }
        return lines.joined(separator: "\n")
    }
}
