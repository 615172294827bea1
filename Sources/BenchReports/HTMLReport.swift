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
        .meta{color:#555;font-size:13px}.cell a{color:inherit;text-decoration:none;display:block}
        .panel .notes{font-size:11px;color:#555;margin:4px 0 0 16px;padding:0;max-width:280px}
        .panel.unsat{background:#fff4f4;max-width:300px;font-size:12px}ul.failures li{margin:3px 0;padding:2px 4px}
        """

    /// The page.
    /// - Parameter pictureLimit: cases with more views get no layout pictures.
    public static func render(_ results: ResultsFile, pictureLimit: Int = 400) -> String {
        let html = HTML(
            .head(.title("layout-bench report"), .meta(.charset(.utf8)), .style(css)),
            .body(
                SVGPlot.patternDefinitions,
                el("h1", text("layout-bench report")),
                summary(results),
                failures(results),
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
        for (index, c) in r.cases.enumerated() {
            var cells: [N] = [el("td", attr("class", "name"), text(c.name))]
            for solver in r.solvers {
                let mine = c.results.filter { $0.solver == solver.name }
                let verdict = worst(mine.map(\.verdict))
                // The reason on hover: every variant's verdict and its reasons.
                let detail = mine.map { "\($0.variant): \($0.verdict)" + ($0.reasons.isEmpty ? "" : " — " + $0.reasons.joined(separator: "; ")) }
                    .joined(separator: "\n")
                cells.append(el("td", attr("class", "cell \(verdict)"), attr("title", detail),
                                el("a", attr("href", "#\(caseAnchor(index))"), text(verdict))))
            }
            rows.append(el("tr", cells))
        }
        return el("section", el("h2", text("Conformance")),
                  el("p", attr("class", "meta"), text("Hover a cell for each variant's verdict and reasons; click it for the case's pictures.")),
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

    /// The anchor of a case's pictures (by index: names may hold any character).
    static func caseAnchor(_ index: Int) -> String { "case-\(index)" }
    /// The anchor of one panel.
    static func panelAnchor(_ caseIndex: Int, _ variant: String, _ solver: String, in c: ResultsFile.Case, _ r: ResultsFile) -> String {
        let v = c.variants.firstIndex(of: variant) ?? 0
        let s = r.solvers.firstIndex { $0.name == solver } ?? 0
        return "panel-\(caseIndex)-\(v)-\(s)"
    }

    static func pictures(_ r: ResultsFile, limit: Int) -> N {
        let reference = r.referenceName
        var sections: [N] = []
        for (index, c) in r.cases.enumerated() {
            guard c.views <= limit else {
                sections.append(el("h3", attr("id", caseAnchor(index)), text("\(c.name): \(c.views) views, no picture (over \(limit))")))
                continue
            }
            var panels: [N] = []
            for variant in c.variants {
                let ref = c.results.first { $0.solver == reference && $0.variant == variant }
                let ambiguous = Set(ref?.ambiguous ?? [])
                for result in c.results where result.variant == variant {
                    let id = panelAnchor(index, variant, result.solver, in: c, r)
                    let caption = "\(result.solver) · \(variant) · \(result.verdict)"
                    // Why no drawing for an unsatisfiable answer: its frames satisfy
                    // a subset of the constraints chosen by the solver, and drawn
                    // they looked like a solved layout captioned "pass".
                    if result.status == "unsatisfiable" {
                        panels.append(el("div", attr("class", "panel unsat"), attr("id", id),
                                         el("div", attr("class", "caption"), text(caption)),
                                         el("p", text("Unsatisfiable: no layout meets every required constraint.")),
                                         result.conflict.isEmpty ? el("p", text("The solver names no conflict."))
                                             : el("p", text("Conflict: " + result.conflict.joined(separator: "; ")))))
                        continue
                    }
                    guard !result.frames.isEmpty else {
                        panels.append(el("div", attr("class", "panel"), attr("id", id), el("div", attr("class", "caption"), text(caption)),
                                         el("p", text(result.reasons.first ?? "No answer."))))
                        continue
                    }
                    let differing = SVGPlot.differingViews(result, reference: ref)
                    let (picture, notes) = SVGPlot.layoutPicture(result, differing: differing, content: c.content ?? [:],
                                                                 reference: ref, ambiguous: ambiguous)
                    panels.append(el("div", attr("class", "panel"), attr("id", id),
                                     el("div", attr("class", "caption"),
                                        text(caption + (differing.isEmpty ? "" : " · \(differing.count) view(s) differ from the reference"))),
                                     picture,
                                     notes.isEmpty ? .empty : el("ul", [attr("class", "notes")] + notes.map { el("li", text($0)) })))
                }
            }
            sections.append(el("h3", attr("id", caseAnchor(index)), text(c.name)))
            sections.append(el("div", [attr("class", "panels")] + panels))
        }
        return el("section", [el("h2", text("Solved layouts")),
                              el("p", attr("class", "meta"), text("The container and every view's frame; views that differ from the reference are outlined in red "
                                                   + "over the reference's frame (dashed); views the reference finds ambiguous are hatched; "
                                                   + "collapsed views (zero width or height) are crosses; unsatisfiable answers name their conflict instead of a picture; "
                                                   + "intrinsic sizes are dashed boxes, text baselines thin red lines."))]
                  + sections)
    }

    // MARK: Failures

    /// Every fail, error and weighted divergence as text, first on the page:
    /// what a solver author reads before anything else.
    static func failures(_ r: ResultsFile) -> N {
        var items: [N] = []
        for (index, c) in r.cases.enumerated() {
            for result in c.results where ["fail", "error", "weighted-divergence"].contains(result.verdict) {
                let anchor = c.views <= 400 ? panelAnchor(index, result.variant, result.solver, in: c, r) : caseAnchor(index)
                items.append(el("li", attr("class", result.verdict),
                                el("b", text("\(c.name) [\(result.variant)] \(result.solver) \(result.verdict)")),
                                text(": " + (result.reasons.isEmpty ? "no reason given" : result.reasons.joined(separator: "; ")) + " "),
                                el("a", attr("href", "#\(anchor)"), text("picture")),
                                c.source.hasPrefix("family/") || c.source.isEmpty ? .empty
                                    : el("span", attr("class", "meta"), text(" · source \(c.source)"))))
            }
        }
        let fails = r.cases.reduce(0) { $0 + $1.results.filter { $0.verdict == "fail" || $0.verdict == "error" }.count }
        return el("section", attr("id", "failures"), el("h2", text("Failures and divergences")),
                  items.isEmpty ? el("p", text("None: every verdict is pass or unsupported."))
                      : el("p", attr("class", "meta"), text("\(fails) fail/error, \(items.count - fails) weighted divergence(s); each links to its picture.")),
                  items.isEmpty ? .empty : el("ul", [attr("class", "failures")] + items))
    }
}
