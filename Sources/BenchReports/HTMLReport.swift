import Foundation
import Plot

/// The self-contained HTML report: inline CSS and SVG, no scripts, no network.
public enum HTMLReport {
    typealias N = Node<HTML.BodyContext>

    // Leaves always go through escapeHTML (Plot escapes neither attribute
    // values nor text that looks like an entity).
    static func text(_ s: String) -> N { .raw(escapeHTML(s)) }
    static func attr(_ name: String, _ value: String) -> N { .attribute(named: name, value: escapeHTML(value)) }
    static func el(_ name: String, _ nodes: N...) -> N { .element(named: name, nodes: nodes) }
    static func el(_ name: String, _ nodes: [N]) -> N { .element(named: name, nodes: nodes) }
    static func number(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }

    static let css = """
        body{font:14px/1.4 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
        h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}h3{font-size:15px}
        table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
        th{background:#f4f4f4}td.name{text-align:left;font-family:monospace}
        .pass{background:#c8f0c8}.fail{background:#f7b9b9}.unsupported{background:#e8e8e8}.error{background:#f2d06b}
        .weighted-divergence{background:#bcd7f5}.cell{cursor:help;min-width:70px;text-align:center}
        .panels{display:flex;flex-wrap:wrap;gap:12px}.panel{border:1px solid #ddd;padding:6px}
        .panel .caption{font-size:12px;color:#555}.plots{display:flex;flex-wrap:wrap;gap:16px}
        .meta{color:#555;font-size:13px}
        """

    /// The page.
    /// - Parameter pictureLimit: cases with more views get no layout pictures.
    public static func render(_ results: ResultsFile, pictureLimit: Int = 400) -> String {
        let html = HTML(
            .head(.title("layout-bench report"), .meta(.charset(.utf8)), .style(css)),
            .body(
                el("h1", text("layout-bench report")),
                summary(results),
                matrix(results),
                scaling(results),
                ratios(results),
                pictures(results, limit: pictureLimit)
            )
        )
        return html.render()
    }

    // MARK: Summary

    static func summary(_ r: ResultsFile) -> N {
        let m = r.machine
        let verdicts = ["pass", "fail", "unsupported", "error", "weighted-divergence"]
        var rows: [N] = [el("tr", [el("th", text("solver"))] + verdicts.map { el("th", text($0)) } + [el("th", text("provenance"))])]
        for solver in r.solvers {
            var counts: [String: Int] = [:]
            for c in r.cases { for x in c.results where x.solver == solver.name { counts[x.verdict, default: 0] += 1 } }
            let untimed = r.cases.filter { $0.untimed?[solver.name] != nil }.count
            rows.append(el("tr", [el("td", attr("class", "name"), text(solver.name + (solver.reference ? " (reference)" : "")))]
                           + verdicts.map { v in el("td", attr("class", (counts[v] ?? 0) > 0 ? v : ""), text(String(counts[v] ?? 0))) }
                           + [el("td", attr("class", "name"), text(solver.provenance
                                 + (untimed > 0 ? "; not timed on \(untimed) case(s): no time_s in its answers" : "")))]))
        }
        let unavailable = r.unavailable_solvers ?? []
        return el("section",
                  el("p", attr("class", "meta"),
                     text("\(r.cases.count) cases, run \(r.started) – \(r.finished) on \(m.cpu), \(m.cores) cores, "
                          + "\(Int(m.memory_bytes / 1_073_741_824)) GiB, \(m.os); \(m.swift); GLPK \(m.glpk)"
                          + (m.commit.map { "; commit \($0.prefix(12))" } ?? ""))),
                  el("h2", text("Summary")),
                  el("table", rows),
                  unavailable.isEmpty ? .empty : el("p", text("Left out (could not start): "
                      + unavailable.map { "\($0.name): \($0.reason)" }.joined(separator: "; "))),
                  r.problems.isEmpty ? .empty : el("ul", r.problems.map { el("li", text("\($0.case): \($0.message)")) }))
    }

    // MARK: Conformance matrix

    /// The worst verdict of a case for a solver, over its variants.
    static func worst(_ verdicts: [String]) -> String {
        for v in ["error", "fail", "weighted-divergence", "unsupported", "pass"] where verdicts.contains(v) { return v }
        return "unsupported"
    }

    static func matrix(_ r: ResultsFile) -> N {
        var rows: [N] = [el("tr", [el("th", text("case"))] + r.solvers.map { el("th", text($0.name)) })]
        for c in r.cases {
            var cells: [N] = [el("td", attr("class", "name"), text(c.name))]
            for solver in r.solvers {
                let mine = c.results.filter { $0.solver == solver.name }
                let verdict = worst(mine.map(\.verdict))
                // The reason on hover: every variant's verdict and its reasons.
                let detail = mine.map { "\($0.variant): \($0.verdict)" + ($0.reasons.isEmpty ? "" : " — " + $0.reasons.joined(separator: "; ")) }
                    .joined(separator: "\n")
                cells.append(el("td", attr("class", "cell \(verdict)"), attr("title", detail), text(verdict)))
            }
            rows.append(el("tr", cells))
        }
        return el("section", el("h2", text("Conformance")),
                  el("p", attr("class", "meta"), text("Hover a cell for each variant's verdict and reasons.")),
                  el("table", rows))
    }

    // MARK: Scaling

    /// `family/alternating-grid-r100` -> (`alternating-grid`, 100).
    static func family(_ name: String) -> String? {
        guard name.hasPrefix("family/"), let dash = name.lastIndex(of: "-") else { return nil }
        return String(name[name.index(name.startIndex, offsetBy: 7)..<dash])
    }

    static func scaling(_ r: ResultsFile) -> N {
        let families = Array(Set(r.cases.compactMap { family($0.name) })).sorted()
        guard !families.isEmpty else {
            return el("section", el("h2", text("Scaling")), el("p", text("No generated families in this run (--scale none).")))
        }
        var plots: [N] = []
        for f in families {
            let cases = r.cases.filter { family($0.name) == f }
            for phase in ["load", "solve", "resize"] {
                var series: [(String, [(Double, Double)])] = []
                for solver in r.solvers {
                    let points = cases.compactMap { c -> (Double, Double)? in
                        guard let t = c.timings.first(where: { $0.solver == solver.name && $0.phase == phase }), t.median > 0 else { return nil }
                        return (Double(c.constraints), t.median)
                    }.sorted { $0.0 < $1.0 }
                    if !points.isEmpty { series.append((solver.name, points)) }
                }
                if !series.isEmpty { plots.append(SVGPlot.logLog(title: "\(f): \(phase)", series: series)) }
            }
            // Allocations of a load against size: linear growth is a fixed
            // number of allocations per constraint.
            var allocations: [(String, [(Double, Double)])] = []
            for solver in r.solvers {
                let points = cases.compactMap { c -> (Double, Double)? in
                    guard let count = c.counters[solver.name]?["allocations/load"], count > 0, count.isFinite else { return nil }
                    return (Double(c.constraints), count)
                }.sorted { $0.0 < $1.0 }
                if !points.isEmpty { allocations.append((solver.name, points)) }
            }
            if !allocations.isEmpty {
                plots.append(SVGPlot.logLog(title: "\(f): allocations in load", series: allocations, unit: ""))
            }
        }
        return el("section", el("h2", text("Scaling")),
                  el("p", attr("class", "meta"),
                     text("Median time (and heap allocations of a load, for in-process solvers) against constraint count, log-log; "
                          + "the legend gives the fitted growth exponent (least squares on the logs).")),
                  el("div", [attr("class", "plots")] + plots))
    }

    // MARK: Ratios

    static func ratios(_ r: ResultsFile) -> N {
        guard let reference = r.referenceName else { return .empty }
        var bars: [(String, String, Double)] = []
        for c in r.cases {
            guard let base = ResultsFile.loadSolve(c, reference), base > 0 else { continue }
            for solver in r.solvers where solver.name != reference {
                if let t = ResultsFile.loadSolve(c, solver.name) { bars.append((c.name, solver.name, t / base)) }
            }
        }
        guard !bars.isEmpty else { return .empty }
        return el("section", el("h2", text("Time relative to the reference (\(reference))")),
                  el("p", attr("class", "meta"), text("Median load + solve divided by the reference's; log scale, left of the line is faster.")),
                  SVGPlot.ratioBars(bars))
    }

    // MARK: Pictures

    static func pictures(_ r: ResultsFile, limit: Int) -> N {
        let reference = r.referenceName
        var sections: [N] = []
        for c in r.cases {
            guard c.views <= limit else {
                sections.append(el("h3", text("\(c.name): \(c.views) views, no picture (over \(limit))")))
                continue
            }
            var panels: [N] = []
            for variant in c.variants {
                let ref = c.results.first { $0.solver == reference && $0.variant == variant }
                for result in c.results where result.variant == variant && !result.frames.isEmpty {
                    let differing = SVGPlot.differingViews(result, reference: ref)
                    panels.append(el("div", attr("class", "panel"),
                                     el("div", attr("class", "caption"),
                                        text("\(result.solver) · \(variant) · \(result.verdict)"
                                             + (differing.isEmpty ? "" : " · \(differing.count) view(s) differ from the reference"))),
                                     SVGPlot.layoutPicture(result, differing: differing, content: c.content ?? [:])))
                }
            }
            sections.append(el("h3", text(c.name)))
            sections.append(el("div", [attr("class", "panels")] + panels))
        }
        return el("section", [el("h2", text("Solved layouts")),
                              el("p", attr("class", "meta"), text("The container and every view's frame; views that differ from the reference are outlined in red; "
                                                   + "intrinsic sizes are dashed boxes, text baselines thin red lines."))]
                  + sections)
    }
}
