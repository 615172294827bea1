import BenchMetrics
import BenchSchema
import Foundation
import Plot

/// The self-contained HTML report: inline CSS and SVG, one small inline
/// script (filters and sorting; the page reads the same without it), no network.
public enum HTMLReport {
    typealias N = Node<HTML.BodyContext>

    // Leaves always go through escapeHTML (Plot escapes neither attribute
    // values nor text that looks like an entity).
    static func text(_ s: String) -> N { .raw(escapeHTML(s)) }
    static func attr(_ name: String, _ value: String) -> N { .attribute(named: name, value: escapeHTML(value)) }
    static func el(_ name: String, _ nodes: N...) -> N { .element(named: name, nodes: nodes) }
    static func el(_ name: String, _ nodes: [N]) -> N { .element(named: name, nodes: nodes) }
    static func number(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
    /// A section heading the table of contents links to.
    static func heading(_ title: String, id: String) -> N { el("h2", attr("id", id), text(title)) }

    /// The sections, in page order, for the table of contents.
    static let contents: [(id: String, title: String)] = [
        ("summary", "Summary"), ("failures", "Failures and divergences"), ("conformance", "Conformance"),
        ("scaling", "Scaling"), ("ratios", "Time relative to the reference"), ("timings", "Timings"), ("pictures", "Solved layouts"),
        ("real", "Real screens against Xcode"),
    ]

    static let css = """
        body{font:14px/1.4 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
        h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}h3{font-size:15px}
        table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
        th{background:#f4f4f4}td.name{text-align:left;font-family:monospace}
        .pass{background:#c8f0c8}.fail{background:#f7b9b9}.unsupported{background:#e8e8e8}.error{background:#f2d06b}
        .weighted-divergence{background:#bcd7f5}.metamorphic{background:#e7b6f0}.cell{cursor:help;min-width:34px;text-align:center;padding:3px 4px}
        #matrix th.family{text-align:center}#matrix th.solver{font-size:12px;padding:3px 4px;text-align:center}th.reference{background:#fde9a9}
        .panels{display:flex;flex-wrap:wrap;gap:12px}.panel{border:1px solid #ddd;padding:6px}
        .panel .caption{font-size:12px;color:#555}.plots{display:flex;flex-wrap:wrap;gap:16px}
        .meta{color:#555;font-size:13px}.regressed{background:#f7b9b9}.improved{background:#c8f0c8}.controls{font-size:13px}.cell a{color:inherit;text-decoration:none;display:block}
        .figure{display:flex;gap:8px;align-items:flex-start}#timing-table td{white-space:nowrap}table.points td,table.points th{font-size:11px;padding:1px 4px}
        .panel .notes{font-size:11px;color:#555;margin:4px 0 0 16px;padding:0;max-width:280px}
        .panel.unsat{background:#fff4f4;max-width:300px;font-size:12px}ul.failures li{margin:3px 0;padding:2px 4px}
        .banner{border:2px solid #888;padding:8px 12px;margin:12px 0}.banner.regressed{border-color:#c00;background:#fde8e8}
        .banner.improved{border-color:#393;background:#e8f8e8}.banner.pass{border-color:#393}
        nav.toc a{margin-right:14px}.panel.failing{border:2px solid #c00;background:#fff4f4}
        """

    /// The page.
    /// - Parameter pictureLimit: cases with more views get no layout pictures.
    /// - Parameter gate: a comparison with a baseline (`report --baseline`,
    ///   `gate`): each timing then shows its change, interval and decision.
    public static func render(_ results: ResultsDocument, pictureLimit: Int = 400, gate: GateReport? = nil) -> String {
        let html = HTML(
            .head(.title("layout-bench report"), .meta(.charset(.utf8)), .style(css)),
            .body(
                SVGPlot.patternDefinitions,
                el("h1", text("layout-bench report")),
                gate.map(banner) ?? .empty,
                el("nav", [attr("class", "toc")] + contents.map { el("a", attr("href", "#\($0.id)"), text($0.title)) }),
                summary(results),
                failures(results),
                matrix(results),
                scaling(results),
                ratios(results),
                timings(results, gate: gate),
                pictures(results, limit: pictureLimit),
                realScreens(results),
                .raw(script)
            )
        )
        return html.render()
    }

    /// The gate's decision, first thing on the page: what a reader of
    /// gate.html came for.
    static func banner(_ gate: GateReport) -> N {
        let regressions = gate.findings.filter { $0.kind == .regression }
        let improvements = gate.findings.filter { $0.kind == .improvement }
        let (kind, title): (String, String) = !regressions.isEmpty ? ("regressed", "Gate: REGRESSION — \(regressions.count) finding(s)")
            : !improvements.isEmpty ? ("improved", "Gate: only improvements (\(improvements.count))") : ("pass", "Gate: no regression")
        let lines = (regressions + improvements).prefix(10).map { f in
            el("li", text("\(f.metric) \(f.subject): \(f.baseline) → \(f.current)" + (f.change.map { " (" + GateText.change($0) + ")" } ?? "")))
        }
        return el("div", attr("class", "banner \(kind)"), el("strong", text(title)),
                  lines.isEmpty ? .empty : el("ul", lines),
                  el("p", attr("class", "meta"), text("\(gate.findings.count) comparisons at \(Int((gate.confidence * 100).rounded()))% confidence; every timing's decision is in the Timings table.")))
    }

    // MARK: Summary

    static func summary(_ r: ResultsDocument) -> N {
        let m = r.machine
        let verdicts = Verdict.allCases
        // The timing and rank columns are the console's and the Markdown's (``SolverTable``).
        let timingHeader = SolverTable.header(r).suffix(4)
        let timingRows = SolverTable.rows(r).map { $0.suffix(4) }
        var rows: [N] = [el("tr", [el("th", text("solver"))] + verdicts.map { el("th", text($0.rawValue)) }
                            + timingHeader.map { el("th", text($0)) } + [el("th", text("provenance"))])]
        for (k, solver) in r.solvers.enumerated() {
            var counts: [Verdict: Int] = [:]
            for c in r.cases { for x in c.results where x.solver == solver.name { counts[x.verdict, default: 0] += 1 } }
            let untimed = r.cases.filter { $0.untimed?[solver.name] != nil }.count
            rows.append(el("tr", [el("td", attr("class", "name"), text(solver.name + (solver.reference ? " (reference)" : "")))]
                           + verdicts.map { v in el("td", attr("class", (counts[v] ?? 0) > 0 ? v.rawValue : ""), text(String(counts[v] ?? 0))) }
                           + (k < timingRows.count ? timingRows[k].map { el("td", text($0)) } : [])
                           + [el("td", attr("class", "name"), text(solver.provenance
                                 + (untimed > 0 ? "; not timed on \(untimed) case(s): no time_s in its answers" : "")))]))
        }
        let unavailable = r.unavailable_solvers ?? []
        return el("section",
                  el("p", attr("class", "meta"),
                     text("\(r.cases.count) cases, run \(r.started) – \(r.finished) on \(m.cpu), \(m.cores) cores, "
                          + "\(Int(m.memory_bytes / 1_073_741_824)) GiB, \(m.os); \(m.swift); GLPK \(m.glpk)"
                          + (m.commit.map { "; commit \($0.prefix(12))" } ?? ""))),
                  heading("Summary", id: "summary"),
                  el("table", rows),
                  el("p", attr("class", "meta"), text(SolverTable.footnote)),
                  profiles(r),
                  frameBudget(FrameBudget(r)),
                  r.solvers.count > 1 ? interop(Interop(r)) : .empty,
                  versions(VersionMatrix(r)),
                  unavailable.isEmpty ? .empty : el("p", text("Left out (could not start): "
                      + unavailable.map { "\($0.name): \($0.reason)" }.joined(separator: "; "))),
                  r.problems.isEmpty ? .empty : el("ul", r.problems.map { el("li", text("\($0.case): \($0.message)")) }))
    }

    /// What each solver is, grouped by family: version, semantics, capabilities.
    static func profiles(_ r: ResultsDocument) -> N {
        let rows = SolverFamilies.profileRows(r)
        return el("table", [el("tr", SolverFamilies.profileHeader.map { el("th", text($0)) })]
                  + rows.map { row in el("tr", row.map { el("td", attr("class", "name"), text($0)) }) })
    }

    /// Which layouts each solver lays out within a frame (``FrameBudget``).
    static func frameBudget(_ budget: FrameBudget) -> N {
        guard !budget.rows.isEmpty else { return .empty }
        return el("div",
                  el("h3", attr("id", "frame-budget"), text("Frame budget")),
                  el("table", [el("tr", FrameBudget.header.map { el("th", text($0)) })]
                     + budget.cells.map { row in el("tr", row.enumerated().map { k, v in
                         el("td", attr("class", k == 0 || k == row.count - 1 ? "name" : ""), text(v)) }) }),
                  el("p", attr("class", "meta"), text(FrameBudget.footnote)))
    }

    /// wpt.fyi's interop line and the cases that fail in one solver only.
    static func interop(_ i: Interop) -> N {
        el("div",
           el("p", text("Interop: \(i.passedByAll) of \(i.compared) cases pass in every solver that runs them"
                        + String(format: " (%.1f%%).", i.score * 100))),
           i.failsOnlyIn.isEmpty ? .empty : el("ul", i.failsOnlyIn.map { solver, cases in
               el("li", text("fails only in \(solver): " + cases.prefix(20).joined(separator: ", ") + (cases.count > 20 ? ", ..." : "")))
           }))
    }

    /// Each solver run in several versions: where its verdicts change.
    static func versions(_ matrix: VersionMatrix) -> N {
        el("div", matrix.families.map { family in
            el("div",
               el("p", text("Versions of \(family.base) (" + family.members.map(\.version).joined(separator: ", ") + "): "
                            + (family.changes.isEmpty ? "the same verdict in every case." : "verdicts change in \(family.changes.count) case(s)."))),
               family.changes.isEmpty ? .empty : el("ul", family.changes.prefix(50).map { name, steps in
                   el("li", text("\(name): " + steps.map { "\($0.from) → \($0.to) at \($0.version)" }.joined(separator: "; ")))
               }))
        })
    }

    // MARK: Conformance matrix


    static func matrix(_ r: ResultsDocument) -> N {
        let groups = SolverFamilies.groups(r)
        let solvers = groups.flatMap(\.solvers)
        // Two header rows: the families over their solvers, then the solvers
        // (the reference marked); the first column spans both.
        let families = el("tr", [el("th", [attr("rowspan", "2"), text("case")])] + groups.map { g in
            el("th", [attr("colspan", String(g.solvers.count)), attr("class", "family"), text(g.family)])
        })
        let names = el("tr", solvers.map { s in
            el("th", [attr("class", s.reference ? "solver reference" : "solver"),
                      attr("title", s.reference ? "\(s.name): the reference" : s.name),
                      text(s.reference ? "\(s.name) ★" : s.name)])
        })
        var rows: [N] = [families, names]
        for (index, c) in r.cases.enumerated() {
            var cells: [N] = [el("td", attr("class", "name"), text(c.name))]
            for solver in solvers {
                let mine = c.results.filter { $0.solver == solver.name }
                // The worst over its variants; none (not run): unsupported.
                let verdict = Verdict.worst(mine.map(\.verdict)) ?? .unsupported
                // The reason on hover: every variant's verdict and its reasons.
                let detail = mine.map { "\($0.variant): \($0.verdict.rawValue)" + ($0.reasons.isEmpty ? "" : " — " + $0.reasons.joined(separator: "; ")) }
                    .joined(separator: "\n")
                cells.append(el("td", attr("class", "cell \(verdict.rawValue)"), attr("title", "\(solver.name): " + (detail.isEmpty ? "not run" : detail)),
                                el("a", attr("href", "#\(caseAnchor(index))"), text(SolverFamilies.shortLabel(verdict)))))
            }
            rows.append(el("tr", [attr("class", "case-row")] + cells))
        }
        return el("section", heading("Conformance", id: "conformance"),
                  el("p", attr("class", "meta"), text("Solvers grouped by family; ★ the reference. – unsupported or not run, ≈ weighted divergence, "
                                                     + "meta a metamorphic failure. Hover a cell for each variant's verdict and reasons; "
                                                     + "click it for the case's pictures.")),
                  el("p", [attr("class", "controls"), text("Show cases with a verdict: "),
                           el("select", [attr("id", "matrix-verdict"), el("option", [attr("value", ""), text("any")])]
                              + ([.fail, .metamorphic, .error, .weightedDivergence, .unsupported, .pass] as [Verdict]).map {
                                  el("option", [attr("value", $0.rawValue), text($0.rawValue)])
                              })]),
                  el("table", [attr("id", "matrix")] + rows))
    }

    // MARK: Scaling

    /// `family/alternating-grid-r100` -> (`alternating-grid`, 100).
    static func family(_ name: String) -> String? {
        guard name.hasPrefix("family/"), let dash = name.lastIndex(of: "-") else { return nil }
        return String(name[name.index(name.startIndex, offsetBy: 7)..<dash])
    }

    static func scaling(_ r: ResultsDocument) -> N {
        let families = Array(Set(r.cases.compactMap { family($0.name) })).sorted()
        guard !families.isEmpty else {
            return el("section", heading("Scaling", id: "scaling"), el("p", text("No generated families in this run (--scale none).")))
        }
        var plots: [N] = []
        for f in families {
            let cases = r.cases.filter { family($0.name) == f }
            for phase in [Phase.load, .solve, .resize] {
                var series: [(String, [(Double, Double)])] = []
                for solver in r.solvers {
                    let points = cases.compactMap { c -> (Double, Double)? in
                        guard let t = c.timings.first(where: { $0.solver == solver.name && $0.phase == phase }), t.median > 0 else { return nil }
                        return (Double(c.constraints), t.median)
                    }.sorted { $0.0 < $1.0 }
                    if !points.isEmpty { series.append((solver.name, points)) }
                }
                if !series.isEmpty { plots.append(figure(SVGPlot.logLog(title: "\(f): \(phase)", series: series), series, format: formatSeconds)) }
            }
            // Allocations of a load against size: linear growth is a fixed
            // number of allocations per constraint.
            var allocations: [(String, [(Double, Double)])] = []
            for solver in r.solvers {
                let points = cases.compactMap { c -> (Double, Double)? in
                    guard let count = c.counters[solver.name]?[.allocationsLoad], count > 0, count.isFinite else { return nil }
                    return (Double(c.constraints), count)
                }.sorted { $0.0 < $1.0 }
                if !points.isEmpty { allocations.append((solver.name, points)) }
            }
            if !allocations.isEmpty {
                plots.append(figure(SVGPlot.logLog(title: "\(f): allocations in load", series: allocations, unit: ""), allocations,
                                    format: { String(format: "%.0f", $0) }))
            }
        }
        return el("section", heading("Scaling", id: "scaling"),
                  el("p", attr("class", "meta"),
                     text("Median time (and heap allocations of a load, for in-process solvers) against constraint count, log-log; "
                          + "the legend gives the fitted growth exponent (least squares on the logs) and its R², only from 3 sizes or more "
                          + "(--scale medium or large); the table beside each plot lists every point.")),
                  el("div", [attr("class", "plots")] + plots))
    }

    /// A plot with the table of its points beside it: every measured value, quotable.
    static func figure(_ plot: N, _ series: [(String, [(Double, Double)])], format: (Double) -> String) -> N {
        let sizes = Array(Set(series.flatMap { $0.1.map(\.0) })).sorted()
        var rows: [N] = [el("tr", [el("th", text("constraints"))] + series.map { el("th", text($0.0)) })]
        for size in sizes {
            rows.append(el("tr", [el("td", text(String(format: "%.0f", size)))]
                           + series.map { entry in el("td", text(entry.1.first { $0.0 == size }.map { format($0.1) } ?? "-")) }))
        }
        return el("div", attr("class", "figure"), plot, el("table", [attr("class", "points")] + rows))
    }

    // MARK: Ratios

    static func ratios(_ r: ResultsDocument) -> N {
        guard let reference = r.referenceName else { return .empty }
        var bars: [(String, String, Double)] = []
        for c in r.cases {
            guard let base = ResultsDocument.loadSolve(c, reference), base > 0 else { continue }
            for solver in r.solvers where solver.name != reference {
                if let t = ResultsDocument.loadSolve(c, solver.name) { bars.append((c.name, solver.name, t / base)) }
            }
        }
        guard !bars.isEmpty else { return .empty }
        return el("section", heading("Time relative to the reference (\(reference))", id: "ratios"),
                  el("p", attr("class", "meta"), text("Median load + solve divided by the reference's; log scale, left of the line is faster.")),
                  SVGPlot.ratioBars(bars))
    }

    // MARK: Timings

    /// Every timed phase as numbers: the median, its 95% bootstrap interval
    /// (the statistics the gate uses), the sample count, the ratio to the
    /// reference's median of the same phase, and against a baseline the
    /// change, its interval and the gate's decision (coloured only when
    /// significant, as criterion does).
    static func timings(_ r: ResultsDocument, gate: GateReport?) -> N {
        let reference = r.referenceName
        var findings: [String: GateFinding] = [:]
        for f in gate?.findings ?? [] where f.metric.hasPrefix("time/") && !f.metric.hasSuffix("all cases") {
            findings[f.metric + "|" + f.subject] = f
        }
        var header = ["case", "solver", "phase", "median", "95% interval", "n", "ratio to \(reference ?? "reference")"]
        if gate != nil { header += ["change", "interval", "decision"] }
        var rows: [N] = [el("tr", header.enumerated().map { i, h in el("th", attr("data-column", String(i)), text(h)) })]
        let phases = Phase.solverPhases
        for c in r.cases {
            for solver in r.solvers {
                for phase in phases {
                    guard let t = c.timings.first(where: { $0.solver == solver.name && $0.phase == phase }) else { continue }
                    let interval = t.median_ci.flatMap { $0.count == 2 ? "\(formatSeconds($0[0])) – \(formatSeconds($0[1]))" : nil } ?? "-"
                    var ratio = "-"
                    if let reference, let base = c.timings.first(where: { $0.solver == reference && $0.phase == phase }), base.median > 0 {
                        ratio = String(format: "%.3f", t.median / base.median)
                    }
                    var cells: [N] = [attr("data-solver", solver.name), attr("data-phase", phase.rawValue),
                                      el("td", attr("class", "name"), text(c.name)), el("td", attr("class", "name"), text(solver.name)),
                                      el("td", attr("class", "name"), text(phase.rawValue)),
                                      el("td", attr("data-value", String(t.median)), text(formatSeconds(t.median))),
                                      el("td", text(interval)), el("td", text(String(t.n))),
                                      el("td", attr("data-value", ratio == "-" ? "" : ratio), text(ratio))]
                    if gate != nil {
                        if let f = findings["time/\(phase)|\(c.name) \(solver.name)"], let change = f.change {
                            let decision: (String, String) = switch f.kind {
                            case .regression: ("regressed", "regressed")
                            case .improvement: ("improved", "improved")
                            case .acknowledged: ("", "acknowledged (Reports/baselines/acknowledged.json)")
                            default: ("", "change within noise threshold")
                            }
                            cells += [el("td", attr("class", decision.0), attr("data-value", String(change)), text(String(format: "%+.1f%%", change * 100))),
                                      el("td", text(f.interval.map { String(format: "%+.1f%% … %+.1f%%", $0.low * 100, $0.high * 100) } ?? "-")),
                                      el("td", attr("class", "name " + decision.0), text(decision.1))]
                        } else {
                            cells += [el("td", text("-")), el("td", text("-")), el("td", attr("class", "name"), text("not in the baseline"))]
                        }
                    }
                    rows.append(el("tr", cells))
                }
            }
        }
        guard rows.count > 1 else { return .empty }
        var controls: [N] = [attr("class", "controls"), text("Show solver "),
                             el("select", [attr("id", "timing-solver"), el("option", [attr("value", ""), text("all")])]
                                + r.solvers.map { el("option", [attr("value", $0.name), text($0.name)]) }),
                             text(" phase "),
                             el("select", [attr("id", "timing-phase"), el("option", [attr("value", ""), text("all")])]
                                + phases.map { el("option", [attr("value", $0.rawValue), text($0.rawValue)]) })]
        controls.append(text(" · click a column's header to sort"))
        return el("section", heading("Timings", id: "timings"),
                  el("p", attr("class", "meta"),
                     text("Median seconds of one operation, the median's 95% bootstrap interval, samples, the ratio to the reference's median"
                          + (gate.map { _ in "; against the baseline: the change of the median, its interval at the gate's confidence, and the "
                              + "gate's decision (coloured only when significant and beyond the threshold)." } ?? ".")
                          + " The external solvers' times are their own (time_s).")),
                  el("p", controls),
                  el("table", [attr("id", "timing-table")] + rows))
    }

    /// The page's only script: filters and sorts the timing table, filters
    /// the matrix by verdict. Without it the page reads the same, unfiltered.
    static let script = """
        <script>
        (function(){
          var t=document.getElementById('timing-table');
          function filter(){
            if(!t)return;var s=document.getElementById('timing-solver').value,p=document.getElementById('timing-phase').value;
            for(var i=1;i<t.rows.length;i++){var r=t.rows[i];
              r.style.display=((!s||r.dataset.solver===s)&&(!p||r.dataset.phase===p))?'':'none';}
          }
          if(t){
            document.getElementById('timing-solver').onchange=filter;document.getElementById('timing-phase').onchange=filter;
            var dir={};
            Array.prototype.forEach.call(t.rows[0].cells,function(th,c){th.style.cursor='pointer';th.onclick=function(){
              var rows=Array.prototype.slice.call(t.rows,1);dir[c]=!dir[c];
              rows.sort(function(a,b){var x=a.cells[c],y=b.cells[c];
                var u=x.dataset.value,v=y.dataset.value;
                var k=(u!==undefined&&v!==undefined&&u!==''&&v!=='')?(parseFloat(u)-parseFloat(v)):x.textContent.localeCompare(y.textContent);
                return dir[c]?k:-k;});
              rows.forEach(function(r){t.tBodies[0].appendChild(r);});};});
          }
          var v=document.getElementById('matrix-verdict'),m=document.getElementById('matrix');
          if(v&&m)v.onchange=function(){var rs=m.querySelectorAll('tr.case-row');for(var i=0;i<rs.length;i++){var r=rs[i],show=!v.value;
            for(var j=1;j<r.cells.length;j++)if(r.cells[j].classList.contains(v.value))show=true;
            r.style.display=show?'':'none';}};
        })();
        </script>
        """

    // MARK: Pictures

    /// The anchor of a case's pictures (by index: names may hold any character).
    static func caseAnchor(_ index: Int) -> String { "case-\(index)" }
    /// The anchor of one panel.
    static func panelAnchor(_ caseIndex: Int, _ variant: String, _ solver: String, in c: ResultsDocument.Case, _ r: ResultsDocument) -> String {
        let v = c.variants.firstIndex(of: variant) ?? 0
        let s = r.solvers.firstIndex { $0.name == solver } ?? 0
        return "panel-\(caseIndex)-\(v)-\(s)"
    }

    static func pictures(_ r: ResultsDocument, limit: Int) -> N {
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
                    let caption = "\(result.solver) · \(variant) · \(result.verdict.rawValue)"
                    // A failing panel must not look like a passing one.
                    let failing = result.verdict.isFailure ? " failing" : ""
                    // Why no drawing for an unsatisfiable answer: its frames satisfy
                    // a subset of the constraints chosen by the solver, and drawn
                    // they looked like a solved layout captioned "pass".
                    if result.status == "unsatisfiable" {
                        panels.append(el("div", attr("class", "panel unsat" + failing), attr("id", id),
                                         el("div", attr("class", "caption"), text(caption)),
                                         el("p", text("Unsatisfiable: no layout meets every required constraint.")),
                                         result.conflict.isEmpty ? el("p", text("The solver names no conflict."))
                                             : el("p", text("Conflict: " + result.conflict.joined(separator: "; ")))))
                        continue
                    }
                    guard !result.frames.isEmpty else {
                        panels.append(el("div", attr("class", "panel" + failing), attr("id", id), el("div", attr("class", "caption"), text(caption)),
                                         el("p", text(result.reasons.first ?? "No answer."))))
                        continue
                    }
                    let differing = SVGPlot.differingViews(result, reference: ref)
                    let (picture, notes) = SVGPlot.layoutPicture(result, differing: differing, content: c.content ?? [:],
                                                                 reference: ref, ambiguous: ambiguous)
                    panels.append(el("div", attr("class", "panel" + failing), attr("id", id),
                                     el("div", attr("class", "caption"),
                                        text(caption + (differing.isEmpty ? "" : " · \(differing.count) view(s) differ from the reference"))),
                                     picture,
                                     notes.isEmpty ? .empty : el("ul", [attr("class", "notes")] + notes.map { el("li", text($0)) })))
                }
            }
            sections.append(el("h3", attr("id", caseAnchor(index)), text(c.name)))
            sections.append(el("div", [attr("class", "panels")] + panels))
        }
        return el("section", [heading("Solved layouts", id: "pictures"),
                              el("p", attr("class", "meta"), text("The container and every view's frame; views that differ from the reference are outlined in red "
                                                   + "over the reference's frame (dashed); views the reference finds ambiguous are hatched; "
                                                   + "collapsed views (zero width or height) are crosses; unsatisfiable answers name their conflict instead of a picture; "
                                                   + "intrinsic sizes are dashed boxes, text baselines thin red lines."))]
                  + sections)
    }

    // MARK: Failures

    /// The line of the case's file a failure points at: an `expect` line
    /// (`line 25: ...`) or the first conflicting constraint (`FILE:LINE`).
    static func sourceLine(_ result: ResultsDocument.Result) -> Int? {
        for reason in result.reasons {
            if let range = reason.range(of: #"line \d+"#, options: .regularExpression) {
                return Int(reason[range].dropFirst(5))
            }
        }
        for member in result.conflict {
            if let colon = member.lastIndex(of: ":"), let line = Int(member[member.index(after: colon)...]) { return line }
        }
        return nil
    }

    /// Every fail, error and weighted divergence as text, first on the page:
    /// what a solver author reads before anything else.
    static func failures(_ r: ResultsDocument) -> N {
        var items: [N] = []
        for (index, c) in r.cases.enumerated() {
            for result in c.results where result.verdict.needsReading {
                let anchor = c.views <= 400 ? panelAnchor(index, result.variant, result.solver, in: c, r) : caseAnchor(index)
                items.append(el("li", attr("class", result.verdict.rawValue),
                                el("b", text("\(c.name) [\(result.variant)] \(result.solver) \(result.verdict.rawValue)")),
                                text(": " + (result.reasons.isEmpty ? "no reason given" : result.reasons.joined(separator: "; ")) + " "),
                                el("a", attr("href", "#\(anchor)"), text("picture")),
                                c.source.hasPrefix("family/") || c.source.isEmpty ? .empty
                                    : el("span", attr("class", "meta"), text(" · source \(c.source)" + (sourceLine(result).map { ":\($0)" } ?? "")))))
            }
        }
        let fails = r.cases.reduce(0) { $0 + $1.results.filter { $0.verdict.isFailure }.count }
        return el("section", heading("Failures and divergences", id: "failures"),
                  items.isEmpty ? el("p", text("None: every verdict is pass or unsupported."))
                      : el("p", attr("class", "meta"), text("\(fails) fail/error, \(items.count - fails) weighted divergence(s); each links to its picture.")),
                  items.isEmpty ? .empty : el("ul", [attr("class", "failures")] + items))
    }

    // MARK: Real screens

    /// Each screen with observed frames (an imported IB file): the solver's
    /// frames in grey, and where a view differs from Xcode's stored frame,
    /// Xcode's frame dashed in blue over the solver's in red; the tally per solver.
    static func realScreens(_ r: ResultsDocument) -> N {
        let solver = r.referenceName ?? r.solvers.first?.name ?? ""
        let screens = r.cases.compactMap { c -> (ResultsDocument.Case, ResultsDocument.Result, ResultsDocument.Observed)? in
            guard let result = c.results.first(where: { $0.solver == solver && $0.observed != nil }), let o = result.observed else { return nil }
            return (c, result, o)
        }
        guard !screens.isEmpty else { return .empty }
        let tallies: [N] = r.observedTallies().map { t in
            let why = t.causes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            return el("li", text("\(t.solver): \(t.matched) of \(t.total) views match Xcode within 0.5 pt"
                                 + " (\(number(100 * Double(t.matched) / Double(t.total), 1))%)" + (why.isEmpty ? "" : "; differences: \(why)")))
        }
        var figures: [N] = []
        for (c, result, o) in screens {
            figures.append(el("div", attr("class", "panel"),
                              el("div", attr("class", "caption"), text("\(c.name) · \(o.matched) of \(o.total)")),
                              .raw(overlay(result, o))))
        }
        return el("section", [heading("Real screens against Xcode", id: "real"),
                              el("p", attr("class", "meta"), text("Screens imported from Interface Builder files; Xcode's stored frames are the oracle "
                                                                  + "(`expect ... observed xcode within 0.5`). Drawn: \(solver)'s frames in grey; where a view differs, "
                                                                  + "Xcode's frame dashed blue and \(solver)'s red. Causes: ObservedCause in results.json.")),
                              el("ul", tallies),
                              el("div", [attr("class", "panels")] + figures)])
    }

    /// A small SVG of one screen (at most 180 points wide).
    static func overlay(_ result: ResultsDocument.Result, _ o: ResultsDocument.Observed) -> String {
        let container = result.frames["super"] ?? [0, 0, 375, 667]
        let width = max(container[2], 1), height = max(container[3], 1)
        let scale = min(180 / width, 320 / height)
        func rect(_ f: [Double], _ style: String) -> String {
            guard f.count == 4, f.allSatisfy(\.isFinite) else { return "" }
            return "<rect x=\"\(number(f[0] * scale))\" y=\"\(number(f[1] * scale))\" width=\"\(number(max(0, f[2]) * scale))\" "
                + "height=\"\(number(max(0, f[3]) * scale))\" \(style)/>"
        }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(width * scale, 0))\" height=\"\(number(height * scale, 0))\">"
        svg += rect([0, 0, width, height], "fill=\"#fafafa\" stroke=\"#999\"")
        let differing = Set(o.differences.map(\.view))
        for name in result.frames.keys.sorted() where name != "super" && !differing.contains(name) {
            svg += rect(result.frames[name] ?? [], "fill=\"none\" stroke=\"#bbb\" stroke-width=\"0.7\"")
        }
        for d in o.differences {
            if let got = d.got { svg += rect(got, "fill=\"none\" stroke=\"#c00\" stroke-width=\"1\"") }
            svg += rect(d.expected, "fill=\"none\" stroke=\"#06c\" stroke-width=\"1\" stroke-dasharray=\"3 2\"")
        }
        return svg + "</svg>"
    }
}
