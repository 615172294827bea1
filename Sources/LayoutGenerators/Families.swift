import LayoutDSL
import LayoutModel
import SeededRandom

/// A row of N equal-width views across a `W x H` container, `W = 20N + 100`
/// so the widths stay positive: 16 from the edges, 8 between, every width
/// equal to the first. Width = (W - 32 - 8(N - 1)) / N = 12 + 76/N.
public enum EqualRow {
    /// - Throws: ``GeneratorError`` for `count` outside 1...1_000_000.
    /// - Complexity: O(count).
    public static func layout(count: Int) throws(GeneratorError) -> Layout {
        guard (1...1_000_000).contains(count) else {
            throw .invalidArgument(name: "count", value: String(count), requirement: "must be in 1...1000000")
        }
        let width = Double(20 * count + 100)
        let names = (1...count).map { "v\($0)" }
        let views = names.map(LayoutView.init)
        let container = LayoutView.container
        var layout = Layout(container: ContainerSize(width: width, height: 100), views: views) {}
        for (i, view) in views.enumerated() {
            layout.add {
                if i == 0 {
                    view.left == container.left + 16
                } else {
                    view.left == views[i - 1].right + 8
                    view.width == views[0].width
                }
                view.top == container.top + 16
                view.height == 44
            }
        }
        layout.add { views[count - 1].right == container.right - 16 }
        let w = (width - 32 - 8 * Double(count - 1)) / Double(count)
        func r(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        var expectations = names.enumerated().map { i, name in
            Expectation(.frame(view: name, Frame(x: r(16 + Double(i) * (w + 8)), y: 16, width: r(w), height: 44)))
        }
        expectations.append(Expectation(.ambiguous(views: [])))
        layout.expectations = expectations
        return layout
    }
}

/// A random feasible system in the style of the original Cassowary benchmark
/// (`addDel`): views with random frames (a point that is known to satisfy
/// everything), random legal constraints between them made to hold at that
/// point (equalities exactly, inequalities with slack), and random soft
/// wishes at three priorities. Feasible by construction; solvers are checked
/// against the reference, not against `expect` lines.
public enum RandomFeasible {
    /// - Throws: ``GeneratorError`` for `views` outside 1...200_000.
    /// - Complexity: O(views).
    public static func layout(views count: Int, seed: UInt64) throws(GeneratorError) -> Layout {
        guard (1...200_000).contains(count) else {
            throw .invalidArgument(name: "views", value: String(count), requirement: "must be in 1...200000")
        }
        var rng = SplitMix(seed: seed)
        let names = (1...count).map { "n\($0)" }
        var frames: [String: Frame] = ["super": Frame(x: 0, y: 0, width: 1000, height: 1000)]
        var constraints: [LayoutConstraint] = []
        let locations: [Attribute] = [.left, .right, .centerX, .top, .bottom, .centerY]
        func value(_ a: Attribute, _ f: Frame) -> Double { f.value(of: a) }
        for (i, name) in names.enumerated() {
            let f = Frame(x: Double(rng.int(0...900)), y: Double(rng.int(0...900)), width: Double(rng.int(10...100)),
                          height: Double(rng.int(10...100)))
            frames[name] = f
            // Pin the frame through required relations to earlier views, so the
            // chain structure of real layouts appears; some views stay loose.
            let partners = ["super"] + names[max(0, i - 5)..<i]
            for axis in 0..<2 {
                let attrs = axis == 0 ? [Attribute.left, .right, .centerX] : [.top, .bottom, .centerY]
                let a = attrs[rng.int(0...2)], b = attrs[rng.int(0...2)]
                let partner = partners[rng.int(0...(partners.count - 1))]
                let pf = frames[partner] ?? f
                let c = value(a, f) - value(b, pf)
                let kind = rng.int(0...9)
                if kind < 6 {
                    constraints.append(LayoutConstraint(ItemAttribute(name, a), .equal, ItemAttribute(partner, b), constant: c))
                } else if kind < 8 {
                    constraints.append(LayoutConstraint(ItemAttribute(name, a), .greaterThanOrEqual, ItemAttribute(partner, b),
                                                        constant: c - Double(rng.int(0...20))))
                } else {
                    constraints.append(LayoutConstraint(ItemAttribute(name, a), .lessThanOrEqual, ItemAttribute(partner, b),
                                                        constant: c + Double(rng.int(0...20))))
                }
            }
            constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, nil, constant: f.width))
            if rng.int(0...2) > 0 {
                constraints.append(LayoutConstraint(ItemAttribute(name, .height), .equal, nil, constant: f.height))
            } else {
                constraints.append(LayoutConstraint(ItemAttribute(name, .height), .greaterThanOrEqual, nil, constant: 5))
            }
            // Soft wishes, some of them unreachable.
            for _ in 0..<rng.int(0...2) {
                let a = locations[rng.int(0...5)]
                let partner = partners[rng.int(0...(partners.count - 1))]
                let b = locations.filter { $0.axis == a.axis }[rng.int(0...2)]
                let target = value(a, f) - value(b, frames[partner] ?? f) + Double(rng.int(-30...30))
                let priority = [Priority.high, Priority(500), Priority.low][rng.int(0...2)]
                constraints.append(LayoutConstraint(ItemAttribute(name, a), .equal, ItemAttribute(partner, b), constant: target,
                                                    priority: priority))
            }
        }
        return Layout(container: ContainerSize(width: 1000, height: 1000), views: names.map { ViewDeclaration(name: $0) },
                      constraints: constraints)
    }
}

/// A screen of self-sizing rows, the benchmark family of the content model:
/// row i is a label and a value on one line, each with an intrinsic size
/// (label `40 + 37i mod 61` x 21, value `60 + 53i mod 61` x 21) and text
/// baselines (17 from the top, 4 from the bottom). The label hugs at 251,
/// the value at the default 250, so the tie over the row's extra space is
/// broken by priority: the value grows. Rows stack 8 apart under the top
/// margin, and the container's height is `auto`: the rows decide it.
///
/// Every frame is known in closed form: label i at (8, 8 + 29(i - 1)) with its
/// intrinsic size; the value beside it, `W - 24 - label width` wide, on the
/// same baseline; the container `16 + 21R + 8(R - 1)` high.
public enum SelfSizingRows {
    /// The label's and the value's intrinsic widths in row `i` (1-based).
    public static func intrinsicWidths(row i: Int) -> (label: Double, value: Double) {
        (Double(40 + (37 * i) % 61), Double(60 + (53 * i) % 61))
    }

    /// - Throws: ``GeneratorError`` for `rows` outside 1...200_000 or a width below 240.
    /// - Complexity: O(rows).
    public static func layout(rows: Int, width: Double = 375) throws(GeneratorError) -> Layout {
        guard (1...200_000).contains(rows) else {
            throw .invalidArgument(name: "rows", value: String(rows), requirement: "must be in 1...200000")
        }
        guard width.isFinite, width >= 240, width <= 1e6 else {
            throw .invalidArgument(name: "width", value: formatNumber(width), requirement: "must be in 240...1000000")
        }
        let container = LayoutView.container
        var labels: [LayoutView] = [], values: [LayoutView] = []
        for i in 1...rows {
            let (l, v) = intrinsicWidths(row: i)
            labels.append(LayoutView("label\(i)").intrinsicSize(width: l, height: 21).hugging(horizontal: 251, vertical: 250)
                .baselines(first: 17, last: 4))
            values.append(LayoutView("value\(i)").intrinsicSize(width: v, height: 21).baselines(first: 17, last: 4))
        }
        var views: [LayoutView] = []
        views.reserveCapacity(2 * rows)
        for i in 0..<rows { views.append(labels[i]); views.append(values[i]) }
        var layout = Layout(container: ContainerSize(width: width, height: nil), views: views) {}
        var expectations: [Expectation] = []
        for i in 0..<rows {
            let label = labels[i], value = values[i]
            layout.add {
                label.leading == container.leadingMargin
                value.leading == label.trailing + 8
                value.trailing == container.trailingMargin
                value.firstBaseline == label.firstBaseline
                if i == 0 { label.top == container.topMargin } else { label.top == labels[i - 1].bottom + 8 }
            }
            let (l, _) = intrinsicWidths(row: i + 1)
            let y = 8 + 29 * Double(i)
            expectations.append(Expectation(.frame(view: label.name, Frame(x: 8, y: y, width: l, height: 21))))
            expectations.append(Expectation(.frame(view: value.name, Frame(x: 16 + l, y: y, width: width - 24 - l, height: 21))))
        }
        layout.add { container.bottomMargin == labels[rows - 1].bottom }
        expectations.append(Expectation(.frame(view: Layout.containerName,
                                               Frame(x: 0, y: 0, width: width, height: 16 + 21 * Double(rows) + 8 * Double(rows - 1)))))
        expectations.append(Expectation(.ambiguous(views: [])))
        layout.expectations = expectations
        return layout
    }
}
