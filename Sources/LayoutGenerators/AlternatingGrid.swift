import LayoutDSL
import LayoutModel

/// Why a generator refused its arguments.
public enum GeneratorError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidArgument(name: String, value: String, requirement: String)

    public var description: String {
        switch self {
        case .invalidArgument(let name, let value, let requirement):
            return "invalid \(name) \(value): \(requirement)"
        }
    }
}

/// The alternating square / 2:1 rectangle grid of the NSLayoutAnchor
/// tutorial, scaled to any number of rows: the benchmark family whose
/// structure is a chain, so a good solver scales linearly on it.
///
/// In a `W x auto` container: row 0 is `top` (16 from super's left, right
/// and top; height >= 44 required and = 150 at low priority); rows 1...R
/// hold a square and a 2:1 rectangle of equal height filling the width
/// (16 from each side, 8 between), the square on the left in odd rows and on
/// the right in even rows, each row 8 below the previous; the last row's
/// bottom is 16 above super's bottom. That is 5 + 8R + 1 constraints.
public enum AlternatingGrid {
    public static let edgeInset = 16.0
    public static let spacing = 8.0
    public static let topPreferredHeight = 150.0
    public static let topMinimumHeight = 44.0

    /// Row `i`'s views, left then right.
    public static func viewNames(row: Int) -> (left: String, right: String) { ("row\(row)_left", "row\(row)_right") }

    /// The side of each row's square: W = 16 + s + 8 + 2s + 16, so s = (W - 40) / 3.
    public static func squareSide(width: Double) -> Double { (width - 2 * edgeInset - spacing) / 3 }

    /// The grid with `rows` rows in a `width x auto` container, with `expect`
    /// lines for every frame from the closed form (rounded to 1e-4, within the
    /// format's 1e-3 tolerance).
    ///
    /// - Throws: ``GeneratorError/invalidArgument(name:value:requirement:)`` if
    ///   `rows` is not in 1...1_000_000 or `width` is not finite and positive.
    /// - Complexity: O(*rows*).
    public static func layout(rows: Int, width: Double = 375) throws(GeneratorError) -> Layout {
        guard (1...1_000_000).contains(rows) else {
            throw .invalidArgument(name: "--rows", value: String(rows), requirement: "must be in 1...1000000")
        }
        guard width.isFinite, width > 0 else {
            throw .invalidArgument(name: "--width", value: formatNumber(width), requirement: "must be a positive number")
        }
        let inset = edgeInset, gap = spacing
        let container = LayoutView.container
        let top = LayoutView("top")
        var views = [top]
        var layout = Layout(container: ContainerSize(width: width, height: nil), views: []) {
            top.left == container.left + inset
            top.right == container.right - inset
            top.top == container.top + inset
            top.height >= topMinimumHeight
            top.height == topPreferredHeight ~ .low
        }
        var above = top
        for row in 1...rows {
            let (leftName, rightName) = viewNames(row: row)
            let left = LayoutView(leftName), right = LayoutView(rightName)
            views += [left, right]
            // Odd rows: square left, rectangle right; even rows the reverse.
            let (leftRatio, rightRatio) = row % 2 == 1 ? (1.0, 2.0) : (2.0, 1.0)
            layout.add {
                left.left == container.left + inset
                right.right == container.right - inset
                left.top == above.bottom + gap
                right.left == left.right + gap
                right.top == left.top
                right.bottom == left.bottom
                left.width == left.height * leftRatio
                right.width == right.height * rightRatio
            }
            above = left
        }
        layout.add { above.bottom == container.bottom - inset }
        layout.views = views.map { ViewDeclaration(name: $0.name) }

        // Expected frames, from the closed form.
        let s = squareSide(width: width)
        func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        func expect(_ view: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Expectation {
            Expectation(.frame(view: view, Frame(x: rounded(x), y: rounded(y), width: rounded(w), height: rounded(h))))
        }
        var expectations = [expect("top", inset, inset, width - 2 * inset, topPreferredHeight)]
        var y = inset + topPreferredHeight + gap
        for row in 1...rows {
            let (left, right) = viewNames(row: row)
            let leftWidth = row % 2 == 1 ? s : 2 * s
            let rightWidth = row % 2 == 1 ? 2 * s : s
            expectations.append(expect(left, inset, y, leftWidth, s))
            expectations.append(expect(right, inset + leftWidth + gap, y, rightWidth, s))
            y += s + (row < rows ? gap : 0)
        }
        expectations.insert(expect(Layout.containerName, 0, 0, width, y + inset), at: 0)
        // Every frame is determined: the chain fixes each row from the width.
        expectations.append(Expectation(.ambiguous(views: [])))

        layout.expectations = expectations
        return layout
    }
}
