import BenchSchema
import Foundation
import Plot

/// Inline SVG: log-log scaling plots, ratio bars, layout pictures.
enum SVGPlot {
    typealias N = Node<HTML.BodyContext>
    static func attr(_ name: String, _ value: String) -> N { .attribute(named: name, value: escapeHTML(value)) }
    static func el(_ name: String, _ nodes: [N]) -> N { .element(named: name, nodes: nodes) }
    static func n(_ x: Double) -> String { String(format: "%.2f", x) }
    static func text(_ s: String) -> N { .raw(escapeHTML(s)) }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]

    /// The least number of sizes a growth exponent is fitted from: through
    /// two points any line fits perfectly, which says nothing.
    static let minimumFitPoints = 3

    /// Least-squares slope of log y against log x (the growth exponent) and
    /// the fit's R²; nil below ``minimumFitPoints`` distinct sizes.
    static func fit(_ points: [(Double, Double)]) -> (exponent: Double, r2: Double)? {
        guard Set(points.map(\.0)).count >= minimumFitPoints else { return nil }
        let xs = points.map { log($0.0) }, ys = points.map { log($0.1) }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        let sxx = zip(xs, xs).map { ($0 - mx) * ($1 - mx) }.reduce(0, +)
        let syy = zip(ys, ys).map { ($0 - my) * ($1 - my) }.reduce(0, +)
        let sxy = zip(xs, ys).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return (slope, syy > 0 ? (sxy * sxy) / (sxx * syy) : 1)
    }

    static func logLog(title: String, series: [(String, [(Double, Double)])], unit: String = " s") -> N {
        let w = 380.0, h = 240.0, left = 56.0, bottom = 30.0, top = 24.0, right = 12.0
        let all = series.flatMap(\.1)
        let x0 = floor(log10(all.map(\.0).min() ?? 1)), x1 = max(x0 + 1, ceil(log10(all.map(\.0).max() ?? 10)))
        let y0 = floor(log10(all.map(\.1).min() ?? 1e-6)), y1 = max(y0 + 1, ceil(log10(all.map(\.1).max() ?? 1)))
        func px(_ x: Double) -> Double { left + (log10(x) - x0) / (x1 - x0) * (w - left - right) }
        func py(_ y: Double) -> Double { h - bottom - (log10(y) - y0) / (y1 - y0) * (h - bottom - top) }
        var nodes: [N] = [attr("width", n(w)), attr("height", n(h + 18 * Double(series.count))),
                          attr("xmlns", "http://www.w3.org/2000/svg"), attr("role", "img"), attr("aria-label", title),
                          el("text", [attr("x", n(left)), attr("y", "16"), attr("font-size", "13"), text(title)])]
        for d in Int(x0)...Int(x1) {
            let x = left + (Double(d) - x0) / (x1 - x0) * (w - left - right)
            nodes.append(el("line", [attr("x1", n(x)), attr("x2", n(x)), attr("y1", n(top)), attr("y2", n(h - bottom)), attr("stroke", "#eee")]))
            nodes.append(el("text", [attr("x", n(x)), attr("y", n(h - bottom + 14)), attr("font-size", "10"), attr("text-anchor", "middle"),
                                     text("1e\(d)")]))
        }
        for d in Int(y0)...Int(y1) {
            let y = h - bottom - (Double(d) - y0) / (y1 - y0) * (h - bottom - top)
            nodes.append(el("line", [attr("x1", n(left)), attr("x2", n(w - right)), attr("y1", n(y)), attr("y2", n(y)), attr("stroke", "#eee")]))
            nodes.append(el("text", [attr("x", n(left - 4)), attr("y", n(y + 3)), attr("font-size", "10"), attr("text-anchor", "end"),
                                     text("1e\(d)\(unit)")]))
        }
        nodes.append(el("text", [attr("x", n((left + w) / 2)), attr("y", n(h - 2)), attr("font-size", "10"), attr("text-anchor", "middle"),
                                 text("constraints")]))
        nodes.append(el("text", [attr("x", "10"), attr("y", n((top + h - bottom) / 2)), attr("font-size", "10"), attr("text-anchor", "middle"),
                                 attr("transform", "rotate(-90 10 \(n((top + h - bottom) / 2)))"),
                                 text(unit.isEmpty ? "allocations" : "median time")]))
        for (i, (name, points)) in series.enumerated() {
            let color = palette[i % palette.count]
            let path = points.enumerated().map { j, p in "\(j == 0 ? "M" : "L")\(n(px(p.0))),\(n(py(p.1)))" }.joined(separator: " ")
            nodes.append(el("path", [attr("d", path), attr("fill", "none"), attr("stroke", color), attr("stroke-width", "2")]))
            for p in points {
                nodes.append(el("circle", [attr("cx", n(px(p.0))), attr("cy", n(py(p.1))), attr("r", "3"), attr("fill", color)]))
            }
            let slope = fit(points).map { String(format: "n^%.2f (R² %.3f, %d sizes)", $0.exponent, $0.r2, points.count) }
                ?? "\(points.count) size(s): no exponent (needs \(minimumFitPoints))"
            nodes.append(el("text", [attr("x", n(left)), attr("y", n(h + 14 + 18 * Double(i))), attr("font-size", "12"), attr("fill", color),
                                     text("\(name): \(slope)")]))
        }
        return el("svg", nodes)
    }

    static func ratioBars(_ bars: [(String, String, Double)]) -> N {
        let rowHeight = 16.0, labelWidth = 330.0, width = 760.0
        let height = rowHeight * Double(bars.count) + 30
        let maxLog = max(1, bars.map { abs(log10($0.2)) }.max() ?? 1).rounded(.up)
        let mid = labelWidth + (width - labelWidth) / 2
        func x(_ ratio: Double) -> Double { mid + log10(max(ratio, 1e-12)) / maxLog * (width - labelWidth) / 2 }
        var nodes: [N] = [attr("width", n(width)), attr("height", n(height)), attr("xmlns", "http://www.w3.org/2000/svg"),
                          el("line", [attr("x1", n(mid)), attr("x2", n(mid)), attr("y1", "0"), attr("y2", n(height - 20)), attr("stroke", "#444")])]
        for (i, (name, solver, ratio)) in bars.enumerated() {
            let y = Double(i) * rowHeight
            let a = min(x(ratio), mid), b = max(x(ratio), mid)
            nodes.append(el("text", [attr("x", n(labelWidth - 6)), attr("y", n(y + 12)), attr("font-size", "11"), attr("text-anchor", "end"),
                                     text("\(name) · \(solver)")]))
            nodes.append(el("rect", [attr("x", n(a)), attr("y", n(y + 3)), attr("width", n(max(1, b - a))), attr("height", n(rowHeight - 5)),
                                     attr("fill", ratio <= 1 ? "#2ca02c" : "#d62728"),
                                     el("title", [text(String(format: "%@ / reference = %.3f", solver, ratio))])]))
            // The number itself, beside the bar's end: a bar alone cannot be quoted.
            nodes.append(el("text", [attr("x", n(ratio <= 1 ? a - 3 : b + 3)), attr("y", n(y + 12)), attr("font-size", "10"),
                                     attr("text-anchor", ratio <= 1 ? "end" : "start"), text(String(format: "%.3g×", ratio))]))
        }
        nodes.append(el("text", [attr("x", n(mid)), attr("y", n(height - 6)), attr("font-size", "10"), attr("text-anchor", "middle"),
                                 text(String(format: "1×  (edges: %g× faster … %g× slower)", pow(10, maxLog), pow(10, maxLog)))]))
        return el("svg", nodes)
    }

    /// Views whose frame differs from the reference's where the reference
    /// says it is determined (the cross-check tolerance, 1e-5 + 1e-8 relative).
    static func differingViews(_ result: ResultsDocument.Result, reference: ResultsDocument.Result?) -> Set<String> {
        guard let reference, reference.status == "solved", result.status == "solved" else { return [] }
        let free = Set(reference.ambiguous ?? [])
        var differing = Set<String>()
        for (view, frame) in result.frames where !free.contains(view) {
            guard let other = reference.frames[view], other.count == 4, frame.count == 4 else { continue }
            for k in 0..<4 where abs(frame[k] - other[k]) > max(1e-5, 1e-8 * max(abs(frame[k]), abs(other[k]))) {
                differing.insert(view)
            }
        }
        return differing
    }

    /// The solved layout: the container and each view as a named rectangle.
    /// The id of the hatch pattern ``patternDefinitions`` defines once per page.
    static let hatchID = "lb-hatch"

    /// Definitions the pictures share (one hidden SVG per page).
    static var patternDefinitions: N {
        el("svg", [attr("width", "0"), attr("height", "0"), attr("style", "position:absolute"), attr("aria-hidden", "true"),
                   el("defs", [el("pattern", [attr("id", hatchID), attr("patternUnits", "userSpaceOnUse"), attr("width", "6"),
                                              attr("height", "6"), attr("patternTransform", "rotate(45)"),
                                              el("line", [attr("x1", "0"), attr("y1", "0"), attr("x2", "0"), attr("y2", "6"),
                                                          attr("stroke", "#8a5a00"), attr("stroke-width", "1.5")])])])])
    }

    /// The solved layout, and the notes a reader needs to read it truthfully.
    ///
    /// Why markers and notes: a frame of zero width or height is a `rect` no
    /// browser paints, so a view that collapsed (often the very view that
    /// differs) vanished from its own picture; it is drawn as a cross at its
    /// origin and a line along its other side. A negative size is drawn from
    /// its other edge and named. A view that differs from the reference gets a
    /// red outline and the reference's frame dashed over it; a view the
    /// reference calls ambiguous (free on the optimal face) is hatched, since
    /// any position of it is right.
    static func layoutPicture(_ result: ResultsDocument.Result, differing: Set<String>,
                              content: [String: ResultsDocument.Content] = [:],
                              reference: ResultsDocument.Result? = nil, ambiguous: Set<String> = []) -> (picture: N, notes: [String]) {
        var notes: [String] = []
        // Views in a stable order: super first, then by name.
        let names = result.frames.keys.sorted { ($0 == "super" ? "" : $0) < ($1 == "super" ? "" : $1) }
        let rects = names.compactMap { name in result.frames[name].flatMap { $0.count == 4 && $0.allSatisfy(\.isFinite) ? (name, drawnRect($0)) : nil } }
        let (scale, header) = pictureHeader(rects)
        var nodes = header
        for (i, (name, r)) in rects.enumerated() {
            let isContainer = name == "super"
            nodes.append(viewRectangle(name, r, index: i, frame: result.frames[name], isContainer: isContainer,
                                       differs: differing.contains(name), scale: scale))
            if let c = content[name], let f = result.frames[name], f.count == 4, f.allSatisfy(\.isFinite) {
                nodes += contentMarks(name, content: c, frame: f, scale: scale)
            }
            let f = result.frames[name] ?? []
            let stroke1 = String(format: "%.4f", 1.5 / scale)
            if !isContainer && (r.2 * scale < 1.5 || r.3 * scale < 1.5) {
                let collapsed = collapsedMarks(name, r, differs: differing.contains(name), scale: scale, strokeWidth: stroke1)
                nodes += collapsed.nodes
                notes.append(collapsed.note)
            }
            if f.count == 4, f[2] < 0 || f[3] < 0 {
                notes.append("\(name): negative \(f[2] < 0 ? "width \(String(format: "%g", f[2]))" : "height \(String(format: "%g", f[3]))"), drawn from its other edge")
            }
            if ambiguous.contains(name) {
                nodes.append(ambiguousHatch(name, r, scale: scale))
            }
            if differing.contains(name), let other = reference?.frames[name], other.count == 4, other.allSatisfy(\.isFinite) {
                nodes.append(referenceOutline(name, other, scale: scale, strokeWidth: stroke1))
            }
            if !isContainer && r.2 * scale > 18 && r.3 * scale > 9 {
                nodes.append(el("text", [attr("x", n(r.0 + r.2 / 2)), attr("y", n(r.1 + r.3 / 2)), attr("font-size", String(format: "%.3f", 10 / scale)),
                                         attr("text-anchor", "middle"), attr("dominant-baseline", "middle"), text(name)]))
            }
        }
        if !ambiguous.isEmpty {
            notes.append("hatched: \(ambiguous.sorted().joined(separator: ", ")) (ambiguous: any position on the optimal face is right)")
        }
        if !differing.isEmpty {
            notes.append("red: differs from the reference, whose frame is dashed")
        }
        return (el("svg", nodes), notes)
    }

    // MARK: The steps of layoutPicture

    /// A frame as drawn: x, y, width, height.
    private typealias DrawnRect = (Double, Double, Double, Double)

    /// A frame `[x, y, width, height]` as drawn.
    private static func drawnRect(_ f: [Double]) -> DrawnRect {
        // Negative sizes (allowed in Auto Layout) are drawn from their other edge.
        let x = min(f[0], f[0] + f[2]), y = min(f[1], f[1] + f[3])
        return (x, y, abs(f[2]), abs(f[3]))
    }

    /// The picture's scale (pixels per point: the views' bounding box fits
    /// 260 x 360) and the `svg` element's attributes.
    private static func pictureHeader(_ rects: [(String, DrawnRect)]) -> (scale: Double, nodes: [N]) {
        let minX = rects.map { $0.1.0 }.min() ?? 0, minY = rects.map { $0.1.1 }.min() ?? 0
        let maxX = rects.map { $0.1.0 + $0.1.2 }.max() ?? 1, maxY = rects.map { $0.1.1 + $0.1.3 }.max() ?? 1
        let spanX = max(1, maxX - minX), spanY = max(1, maxY - minY)
        let scale = min(260 / spanX, 360 / spanY)
        let nodes: [N] = [attr("width", n(spanX * scale + 2)), attr("height", n(spanY * scale + 2)),
                          attr("viewBox", "\(n(minX - 1 / scale)) \(n(minY - 1 / scale)) \(n(spanX + 2 / scale)) \(n(spanY + 2 / scale))"),
                          attr("xmlns", "http://www.w3.org/2000/svg")]
        return (scale, nodes)
    }

    /// The fills of the views, in turn (the container's is its own).
    private static let viewFills = ["#cfe3f7", "#f7e1c8", "#d9f0d3", "#eadcf5", "#f5f0c4", "#d3eef0"]

    /// A view's rectangle, outlined red when it differs from the reference, with its frame as a tooltip.
    private static func viewRectangle(_ name: String, _ r: DrawnRect, index i: Int, frame: [Double]?, isContainer: Bool,
                                      differs: Bool, scale: Double) -> N {
        let stroke = differs ? "#e00000" : isContainer ? "#333" : "#4a6a8a"
        let width = (differs ? 3 : 1) / scale
        return el("rect", [attr("x", n(r.0)), attr("y", n(r.1)), attr("width", n(r.2)), attr("height", n(r.3)),
                           attr("fill", isContainer ? "#fafafa" : viewFills[i % viewFills.count]), attr("fill-opacity", isContainer ? "1" : "0.85"),
                           attr("stroke", stroke), attr("stroke-width", String(format: "%.4f", width)),
                           el("title", [text("\(name): \(frame?.map { String(format: "%g", $0) }.joined(separator: " ") ?? "")")])])
    }

    /// What a view's content says: its intrinsic size and its baselines.
    private static func contentMarks(_ name: String, content c: ResultsDocument.Content, frame f: [Double], scale: Double) -> [N] {
        var nodes: [N] = []
        // The intrinsic size as a dashed box from the view's origin (its
        // frame's size on an axis without one), the baselines as lines.
        if let intrinsic = c.intrinsic, intrinsic.count == 2 {
            let w = intrinsic[0] ?? f[2], h = intrinsic[1] ?? f[3]
            if w.isFinite, h.isFinite {
                nodes.append(el("rect", [attr("x", n(f[0])), attr("y", n(f[1])), attr("width", n(abs(w))), attr("height", n(abs(h))),
                                         attr("fill", "none"), attr("stroke", "#7a5c00"),
                                         attr("stroke-width", String(format: "%.4f", 1 / scale)),
                                         attr("stroke-dasharray", String(format: "%.4f %.4f", 3 / scale, 2 / scale)),
                                         el("title", [text("\(name): intrinsic size \(intrinsic.map { $0.map { String(format: "%g", $0) } ?? "none" }.joined(separator: " x "))")])]))
            }
        }
        if let b = c.baselines, b.count == 2, b.allSatisfy(\.isFinite) {
            for (label, y) in [("first baseline", f[1] + b[0]), ("last baseline", f[1] + f[3] - b[1])] {
                nodes.append(el("line", [attr("x1", n(f[0])), attr("x2", n(f[0] + f[2])), attr("y1", n(y)), attr("y2", n(y)),
                                         attr("stroke", "#b03060"), attr("stroke-width", String(format: "%.4f", 1 / scale)),
                                         el("title", [text("\(name): \(label) at \(String(format: "%g", y))")])]))
            }
        }
        return nodes
    }

    /// A collapsed view (under 1.5 pixels on an axis): its marks, and the note that says so.
    private static func collapsedMarks(_ name: String, _ r: DrawnRect, differs: Bool, scale: Double,
                                       strokeWidth stroke1: String) -> (nodes: [N], note: String) {
        var nodes: [N] = []
        // Collapsed: a cross at the origin, and the side that has a length.
        let arm = 4 / scale
        nodes.append(el("path", [attr("d", "M\(n(r.0 - arm)) \(n(r.1 - arm))L\(n(r.0 + arm)) \(n(r.1 + arm))M\(n(r.0 - arm)) \(n(r.1 + arm))L\(n(r.0 + arm)) \(n(r.1 - arm))"),
                                 attr("stroke", differs ? "#e00000" : "#333"), attr("stroke-width", stroke1),
                                 el("title", [text("\(name): \(r.2 * scale < 1.5 ? "zero width" : "zero height")")])]))
        if r.2 * scale >= 1.5 || r.3 * scale >= 1.5 {
            nodes.append(el("line", [attr("x1", n(r.0)), attr("y1", n(r.1)), attr("x2", n(r.0 + r.2)), attr("y2", n(r.1 + r.3)),
                                     attr("stroke", differs ? "#e00000" : "#333"), attr("stroke-width", stroke1)]))
        }
        let what = r.2 * scale < 1.5 && r.3 * scale < 1.5 ? "zero size" : r.2 * scale < 1.5 ? "zero width" : "zero height"
        return (nodes, "\(name): \(what), drawn as a cross")
    }

    /// The hatch over a view the reference calls ambiguous (at least 2 pixels each way).
    private static func ambiguousHatch(_ name: String, _ r: DrawnRect, scale: Double) -> N {
        el("rect", [attr("x", n(r.0)), attr("y", n(r.1)), attr("width", n(max(r.2, 2 / scale))), attr("height", n(max(r.3, 2 / scale))),
                    attr("fill", "url(#\(hatchID))"), attr("fill-opacity", "0.7"),
                    el("title", [text("\(name): ambiguous (free: the reference finds it can move on the optimal face)")])])
    }

    /// The reference's frame of a differing view, dashed.
    private static func referenceOutline(_ name: String, _ other: [Double], scale: Double, strokeWidth stroke1: String) -> N {
        let o = drawnRect(other)
        return el("rect", [attr("x", n(o.0)), attr("y", n(o.1)), attr("width", n(max(o.2, 1 / scale))), attr("height", n(max(o.3, 1 / scale))),
                           attr("fill", "none"), attr("stroke", "#555"), attr("stroke-width", stroke1),
                           attr("stroke-dasharray", String(format: "%.4f %.4f", 4 / scale, 3 / scale)),
                           el("title", [text("\(name) in the reference: \(other.map { String(format: "%g", $0) }.joined(separator: " "))")])])
    }
}
