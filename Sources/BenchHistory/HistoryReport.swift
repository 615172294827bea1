import Foundation

/// The trend dashboard: one static HTML page (no server, no script) from the
/// history, asv / wpt.fyi style.
///
/// Sections: per solver and phase, the time over the recorded runs (the
/// geometric mean over the cases every run has, with the band of the cases'
/// intervals) and its steps (``ChangePoints``), each step naming the commits
/// on either side; the pass rate of every solver over runs (one line each,
/// the interop view); the allocation counts; per case on demand (`--case`).
public enum HistoryReport {
    /// The page.
    /// - Parameters:
    ///   - series: the solver x phase series (and any per-case ones), in the order shown.
    ///   - passRates: per run index, per solver, the fraction of verdicts that pass.
    ///   - allocations: per solver, per run index, the total of `allocations/load`.
    public static func render(runs: [HistoryStore.RunInfo], series: [HistorySeries], passRates: [String: [(Int, Double)]],
                              allocations: [String: [(Int, Double)]], title: String = "layout-bench history") -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
            h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
            .plot { display: inline-block; margin: .5em 1em 1em 0; vertical-align: top; }
            .plot h3 { font-size: 1em; margin: 0 0 .3em 0; }
            .step { color: #b00; }
            table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #eee; }
            nav a { margin-right: 1em; }
            </style></head><body>
            <h1>\(escape(title))</h1>
            <p>\(runs.count) recorded run(s)\(runs.first.map { ", from \(escape($0.commitTime)) to \(escape(runs.last?.commitTime ?? $0.commitTime))" } ?? "").
            Times are the geometric mean over the cases every run has; the band is the cases' intervals of their medians.
            Steps (red) are found by binary segmentation of the log times with an L1 cost and a penalty of 3&sigma; ln n,
            moving the level by 5% or more (README, "History").</p>
            <nav><a href="#times">Times</a><a href="#steps">Steps</a><a href="#pass">Pass rates</a><a href="#allocations">Allocations</a></nav>

            """
        let stepped = series.filter { !$0.steps.isEmpty }
        html += "<h2 id=\"steps\">Steps</h2>\n"
        if stepped.isEmpty {
            html += "<p>No step in any series.</p>\n"
        } else {
            html += "<table><tr><th>series</th><th>change</th><th>last run before</th><th>first run after</th></tr>\n"
            for s in stepped {
                for step in s.steps {
                    html += "<tr class=\"step\"><td>\(escape(label(s)))</td><td>\(String(format: "%+.1f%%", step.change * 100))</td>"
                        + "<td>\(escape(describe(step.before)))</td><td>\(escape(describe(step.after)))</td></tr>\n"
                }
            }
            html += "</table>\n"
        }
        html += "<h2 id=\"times\">Times</h2>\n"
        for s in series {
            html += "<div class=\"plot\"><h3>\(escape(label(s)))</h3>\n"
            html += plot(points: s.points.map { ($0.index, $0.value, $0.low, $0.high) }, runs: runs, steps: s.steps, format: seconds) + "</div>\n"
        }
        html += "<h2 id=\"pass\">Pass rates</h2>\n<div class=\"plot\">"
            + lines(passRates, runs: runs, format: { String(format: "%.0f%%", $0 * 100) }) + "</div>\n"
        html += "<h2 id=\"allocations\">Allocations (load, all cases)</h2>\n<div class=\"plot\">"
            + lines(allocations, runs: runs, format: { String(format: "%.0f", $0) }) + "</div>\n"
        html += "</body></html>\n"
        return html
    }

    static func label(_ s: HistorySeries) -> String {
        "\(s.solver) \(s.phase)" + (s.caseName.map { " — \($0)" } ?? " (\(s.cases) cases)")
    }

    static func describe(_ run: HistoryStore.RunInfo) -> String {
        "\(run.commit.map { String($0.prefix(12)) } ?? "no commit") at \(run.commitTime)"
    }

    /// Seconds as the page writes them (`12.3 µs`, `4.56 ms`, `1.23 s`).
    public static func seconds(_ x: Double) -> String {
        if x >= 1 { return String(format: "%.2f s", x) }
        if x >= 1e-3 { return String(format: "%.2f ms", x * 1e3) }
        return String(format: "%.1f µs", x * 1e6)
    }

    static let width = 480.0, height = 200.0, left = 70.0, right = 10.0, top = 10.0, bottom = 30.0

    /// One series: points, a band, and the steps as vertical lines.
    static func plot(points: [(index: Int, value: Double, low: Double, high: Double)], runs: [HistoryStore.RunInfo],
                     steps: [HistorySeries.Step], format: (Double) -> String) -> String {
        guard !points.isEmpty else { return "<p>no data</p>" }
        // The scale follows the values, not the band: one wide interval would
        // flatten every point; the band is clipped to the plot.
        let lowest = points.map(\.value).min() ?? 0
        let highest = points.map(\.value).max() ?? 1
        let (y0, y1) = lowest == highest ? (lowest * 0.9, highest * 1.1 + 1e-12)
            : (max(0, lowest - (highest - lowest) * 0.1), highest + (highest - lowest) * 0.1)
        func clip(_ v: Double) -> Double { min(max(v, y0), y1) }
        let count = max(1, runs.count - 1)
        func x(_ i: Int) -> Double { left + (width - left - right) * Double(i) / Double(count) }
        func y(_ v: Double) -> Double { top + (height - top - bottom) * (1 - (v - y0) / (y1 - y0)) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\">\n"
        svg += axes(y0: y0, y1: y1, y: y, format: format, runs: runs.count)
        let band = points.map { "\(f(x($0.index))),\(f(y(clip($0.high))))" } + points.reversed().map { "\(f(x($0.index))),\(f(y(clip($0.low))))" }
        svg += "<polygon class=\"band\" points=\"\(band.joined(separator: " "))\" fill=\"#9cf\" fill-opacity=\"0.35\" stroke=\"none\"/>\n"
        svg += "<polyline points=\"\(points.map { "\(f(x($0.index))),\(f(y($0.value)))" }.joined(separator: " "))\" fill=\"none\" stroke=\"#258\" stroke-width=\"1.5\"/>\n"
        for p in points {
            svg += "<circle class=\"point\" cx=\"\(f(x(p.index)))\" cy=\"\(f(y(p.value)))\" r=\"2.5\" fill=\"#258\">"
                + "<title>\(escape(describe(runs[p.index]))): \(escape(format(p.value)))</title></circle>\n"
        }
        let positions = Dictionary(runs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for step in steps {
            guard let a = positions[step.before.id], let b = positions[step.after.id] else { continue }
            let at = (x(a) + x(b)) / 2
            svg += "<line class=\"change-point\" x1=\"\(f(at))\" x2=\"\(f(at))\" y1=\"\(f(top))\" y2=\"\(f(height - bottom))\" "
                + "stroke=\"#c00\" stroke-dasharray=\"4 3\"><title>step \(String(format: "%+.1f%%", step.change * 100)) between "
                + "\(escape(describe(step.before))) and \(escape(describe(step.after)))</title></line>\n"
        }
        return svg + "</svg>\n"
    }

    /// Several named lines in one plot (pass rates, allocations).
    static func lines(_ data: [String: [(Int, Double)]], runs: [HistoryStore.RunInfo], format: (Double) -> String) -> String {
        let all = data.values.flatMap { $0.map(\.1) }
        guard let lowest = all.min(), let highest = all.max() else { return "<p>no data</p>" }
        let (y0, y1) = lowest == highest ? (lowest * 0.9 - 1e-9, highest * 1.1 + 1e-9) : (lowest - (highest - lowest) * 0.05, highest + (highest - lowest) * 0.05)
        let count = max(1, runs.count - 1)
        func x(_ i: Int) -> Double { left + (width - left - right) * Double(i) / Double(count) }
        func y(_ v: Double) -> Double { top + (height - top - bottom) * (1 - (v - y0) / (y1 - y0)) }
        let colours = ["#258", "#c60", "#393", "#939", "#c33", "#077", "#663", "#333", "#a57", "#57a"]
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\">\n"
        svg += axes(y0: y0, y1: y1, y: y, format: format, runs: runs.count)
        var legend = ""
        for (k, name) in data.keys.sorted().enumerated() {
            let colour = colours[k % colours.count]
            let points = (data[name] ?? []).sorted { $0.0 < $1.0 }
            svg += "<polyline points=\"\(points.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n"
            for p in points {
                svg += "<circle class=\"point\" cx=\"\(f(x(p.0)))\" cy=\"\(f(y(p.1)))\" r=\"2\" fill=\"\(colour)\"><title>\(escape(name)): \(escape(format(p.1)))</title></circle>\n"
            }
            legend += "<span style=\"color:\(colour)\">■ \(escape(name))</span> "
        }
        return svg + "</svg>\n<div>\(legend)</div>\n"
    }

    static func axes(y0: Double, y1: Double, y: (Double) -> Double, format: (Double) -> String, runs: Int) -> String {
        var svg = "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(height - bottom))\" stroke=\"#888\"/>\n"
        svg += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\" stroke=\"#888\"/>\n"
        for k in 0...2 {
            let v = y0 + (y1 - y0) * Double(k) / 2
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(v) + 4))\" font-size=\"10\" text-anchor=\"end\">\(escape(format(v)))</text>\n"
        }
        svg += "<text x=\"\(f((left + width) / 2))\" y=\"\(f(height - 8))\" font-size=\"10\" text-anchor=\"middle\">run (\(runs) in commit order)</text>\n"
        return svg
    }

    static func f(_ x: Double) -> String { String(format: "%.1f", x) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
