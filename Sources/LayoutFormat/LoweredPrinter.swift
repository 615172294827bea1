import LayoutModel

extension LayoutPrinter {
    /// The lowered linear system of a variant, one row per line:
    ///
    ///     row1_left.x - super.x - 16 = 0 @ 1000   # grid.layout:24
    ///
    /// For debugging solvers and reading what exactly a constraint means.
    public static func print(_ system: LoweredSystem, layout: Layout) -> String {
        var lines = ["# variant \(system.variant): container \(system.size), "
                     + "\(system.variableCount) variables, \(system.constraints.count) rows"]
        for row in system.constraints {
            var text = ""
            for term in row.expression.terms {
                let magnitude = abs(term.coefficient)
                let sign = term.coefficient < 0 ? "-" : "+"
                text += text.isEmpty ? (sign == "-" ? "-" : "") : " \(sign) "
                text += (magnitude == 1 ? "" : "\(formatNumber(magnitude)) * ") + system.name(of: term.variable)
            }
            let constant = row.expression.constant
            if text.isEmpty {
                text = formatNumber(constant)
            } else if constant != 0 {
                text += constant < 0 ? " - \(formatNumber(-constant))" : " + \(formatNumber(constant))"
            }
            text += " \(row.relation.symbol) 0 @ \(row.priority)"
            switch row.origin {
            case .container(let component):
                text += "   # container \(component)"
            case .constraint:
                text += "   # " + (layout.location(of: row.origin)?.fileAndLine ?? layout.describe(row.origin, size: system.size).name)
            case .content:
                text += "   # " + layout.describe(row.origin, size: system.size).name
                    + (layout.location(of: row.origin).map { ", \($0.fileAndLine)" } ?? "")
            }
            lines.append(text)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
