import LayoutModel

extension LayoutPrinter {
    /// The layout with every constraint that has an exact visual-format form
    /// written as a `H:`/`V:` line (the others as constraint lines), such
    /// that parsing it back gives an equal model.
    public static func printVisualFormat(_ layout: Layout) -> String {
        var copy = layout
        let metrics = Set(layout.metrics.map(\.name))
        let lines = layout.constraints.map { constraint -> String in
            guard let vfl = visualFormat(for: constraint, metrics: metrics) else { return line(for: constraint) }
            var text = constraint.traits.isEmpty ? "" : "when \(constraint.traits.joined(separator: ", ")): "
            text += vfl
            if let identifier = constraint.identifier { text += " # \(identifier)" }
            return text
        }
        copy.constraints = []
        var out = print(copy)
        // Constraints go after the declarations, before the expectations.
        let parts = out.components(separatedBy: "\n\nexpect ")
        out = parts[0].hasSuffix("\n") ? parts[0] : parts[0] + "\n"
        if !lines.isEmpty { out += "\n" + lines.joined(separator: "\n") + "\n" }
        if parts.count > 1 { out += "\nexpect " + parts.dropFirst().joined(separator: "\n\nexpect ") }
        return out
    }

    /// The visual-format line that expands to exactly this constraint, if any.
    /// - Parameter metrics: metric names; in `[a(==b)]` a metric wins over a
    ///   view of the same name, so such a constraint has no visual form.
    public static func visualFormat(for c: LayoutConstraint, metrics: Set<String> = []) -> String? {
        let axes: [(String, VisualFormat.Axis)] = [("H", .horizontal), ("V", .vertical)]
        let superName = Layout.containerName
        func predicate(_ relation: Relation, _ object: String, _ priority: Priority) -> String {
            let rel = relation == .equal ? "==" : relation.symbol
            return "(\(rel)\(object)" + (priority.isRequired ? "" : "@\(priority)") + ")"
        }
        guard c.multiplier == 1 else { return nil }
        for (o, axis) in axes {
            let first = c.first
            // [a(P)]: size against a number or another view's size.
            if first.attribute == axis.size, first.item != superName {
                if c.second == nil {
                    return "\(o):[\(first.item)\(predicate(c.relation, formatNumber(c.constant), c.priority))]"
                }
                if let second = c.second, second.attribute == axis.size, second.item != superName, c.constant == 0,
                   !metrics.contains(second.item) {
                    return "\(o):[\(first.item)\(predicate(c.relation, second.item, c.priority))]"
                }
            }
            guard let second = c.second else { continue }
            // [a]-P-[b]: b.leading REL a.trailing + c.
            if first.attribute == axis.leading, second.attribute == axis.trailing, first.item != superName,
               second.item != superName, first.item != second.item {
                if c.relation == .equal, c.constant == 0, c.priority.isRequired { return "\(o):[\(second.item)][\(first.item)]" }
                return "\(o):[\(second.item)]-\(predicate(c.relation, formatNumber(c.constant), c.priority))-[\(first.item)]"
            }
            // |-P-[a]: a.leading REL super.leading + c; |-[a]: a.leading = super.leadingMargin.
            if first.attribute == axis.leading, second.item == superName, first.item != superName {
                if second.attribute == axis.leadingMargin, c.relation == .equal, c.constant == 0, c.priority.isRequired {
                    return "\(o):|-[\(first.item)]"
                }
                if second.attribute == axis.leading {
                    if c.relation == .equal, c.constant == 0, c.priority.isRequired { return "\(o):|[\(first.item)]" }
                    return "\(o):|-\(predicate(c.relation, formatNumber(c.constant), c.priority))-[\(first.item)]"
                }
            }
            // [b]-P-|: super.trailing REL b.trailing + c; [b]-|: super.trailingMargin = b.trailing.
            if first.item == superName, second.attribute == axis.trailing, second.item != superName {
                if first.attribute == axis.trailingMargin, c.relation == .equal, c.constant == 0, c.priority.isRequired {
                    return "\(o):[\(second.item)]-|"
                }
                if first.attribute == axis.trailing {
                    if c.relation == .equal, c.constant == 0, c.priority.isRequired { return "\(o):[\(second.item)]|" }
                    return "\(o):[\(second.item)]-\(predicate(c.relation, formatNumber(c.constant), c.priority))-|"
                }
            }
        }
        return nil
    }
}
