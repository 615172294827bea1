import LayoutModel

/// Writes a layout as normalised `.layout` text.
///
/// The output reads back to an equal model: `parse(print(m)) == m` for every
/// valid model. Numbers use the shortest text that reads back to the same
/// `Double`; metrics are declared but constraints show resolved numbers.
public enum LayoutPrinter {
    /// Views per `views` line, to keep lines readable for large layouts.
    static let viewsPerLine = 10

    /// The normalised text of a layout.
    ///
    /// - Complexity: O(*n*) in the size of the layout.
    public static func print(_ layout: Layout) -> String {
        var lines: [String] = []
        lines.append("container \(layout.container)" + traits(layout.containerTraits))
        if let margins = layout.containerMargins { lines.append("margins \(Layout.containerName) \(insets(margins))") }
        for variant in layout.variants {
            lines.append("variant \(variant.name) \(variant.size)" + traits(variant.traits))
        }
        for metric in layout.metrics { lines.append("metric \(metric.name) = \(formatNumber(metric.value))") }
        var index = 0
        while index < layout.views.count {
            let chunk = layout.views[index..<min(index + viewsPerLine, layout.views.count)]
            lines.append("views " + chunk.map(\.name).joined(separator: " "))
            index += viewsPerLine
        }
        for view in layout.views {
            if let margins = view.margins { lines.append("margins \(view.name) \(insets(margins))") }
        }
        for view in layout.views where !view.content.isEmpty {
            let content = view.content
            if let size = content.intrinsicSize {
                lines.append("intrinsic \(view.name) " + [size.width, size.height].map { $0.map(formatNumber) ?? "none" }.joined(separator: " "))
            }
            if let p = content.hugging { lines.append("hugging \(view.name) \(p.horizontal) \(p.vertical)") }
            if let p = content.compression { lines.append("compression \(view.name) \(p.horizontal) \(p.vertical)") }
            if let b = content.baselines { lines.append("baselines \(view.name) \(formatNumber(b.first)) \(formatNumber(b.last))") }
        }
        if !layout.constraints.isEmpty { lines.append("") }
        for constraint in layout.constraints { lines.append(line(for: constraint)) }
        if !layout.expectations.isEmpty { lines.append("") }
        for expectation in layout.expectations { lines.append(line(for: expectation)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One constraint line, with its `when` prefix and identifier.
    public static func line(for constraint: LayoutConstraint) -> String {
        var text = constraint.traits.isEmpty ? "" : "when \(constraint.traits.joined(separator: ", ")): "
        text += constraint.description
        if let identifier = constraint.identifier { text += " # \(identifier)" }
        return text
    }

    /// One `expect` line.
    public static func line(for expectation: Expectation) -> String {
        var text = "expect "
        if let variant = expectation.variant { text += "\(variant) " }
        switch expectation.kind {
        case .frame(let view, let frame):
            text += "\(view) = " + [frame.x, frame.y, frame.width, frame.height].map(formatNumber).joined(separator: " ")
            if let source = expectation.observedBy { text += " observed \(source)" }
            if let tolerance = expectation.tolerance { text += " within \(formatNumber(tolerance))" }
        case .unsatisfiable:
            text += "unsatisfiable"
        case .ambiguous(let views):
            text += (["ambiguous"] + views).joined(separator: " ")
        }
        return text
    }

    private static func traits(_ traits: [String]) -> String {
        traits.isEmpty ? "" : " traits " + traits.joined(separator: " ")
    }

    private static func insets(_ m: EdgeInsets) -> String {
        [m.top, m.left, m.bottom, m.right].map(formatNumber).joined(separator: " ")
    }
}
