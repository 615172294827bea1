import LayoutDSL
import LayoutModel

/// The alternating grid (``AlternatingGrid``) with side views of known kinds
/// on every `every`-th row (rows 1, 1 + every, 1 + 2·every, ...): the
/// reference's benchmark at scale, with ambiguity to find and soft
/// constraints at several levels to order.
///
/// On decorated row `i`:
/// - `badge<i>`, 24 x 24, centred on the row vertically; nothing places it
///   horizontally, so it is *ambiguous* (its x is free). Listed in the
///   `expect ambiguous` line; no frame is expected for it.
/// - `note<i>`, 20 high on the row's top, its left edge wanted at the right
///   view's left at 750 and at the container's left + 16 at 500 (the two
///   conflict: 750 wins), its width wanted at 300 at 250, and its right edge
///   required within 16 of the container's right. So `x` is the right view's
///   x, and the width is `min(300, W - 16 - x)`: three soft levels decide it.
///
/// That is 5 + 8R + 1 constraints of the grid plus 9 per decorated row: at
/// R = 10^4 with the default `every` of 50, 81,806 constraints and 200
/// ambiguous views.
public enum DecoratedGrid {
    public static let defaultEvery = 50

    /// The decorated rows of a grid of `rows` rows.
    public static func decoratedRows(rows: Int, every: Int) -> StrideTo<Int> { stride(from: 1, to: rows + 1, by: every) }

    /// - Throws: ``GeneratorError/invalidArgument(name:value:requirement:)``
    ///   for `rows` outside 1...1_000_000, a width that is not finite or at
    ///   most 40, or `every` outside 1...1_000_000.
    /// - Complexity: O(*rows*).
    public static func layout(rows: Int, width: Double = 375, every: Int = defaultEvery) throws(GeneratorError) -> Layout {
        guard (1...1_000_000).contains(every) else {
            throw .invalidArgument(name: "--every", value: String(every), requirement: "must be in 1...1000000")
        }
        // Why more than 40: the grid's insets and gap take 40 points; below
        // that its squares have no positive side.
        guard width.isFinite, width > 2 * AlternatingGrid.edgeInset + AlternatingGrid.spacing else {
            throw .invalidArgument(name: "--width", value: formatNumber(width), requirement: "must be more than 40")
        }
        var layout = try AlternatingGrid.layout(rows: rows, width: width)
        let container = LayoutView.container
        let inset = AlternatingGrid.edgeInset
        func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }

        // The grid's expectations: every frame, then `expect ambiguous` (empty).
        // Why read the right views' frames from them: the grid owns its closed
        // form; a second copy here could drift from it.
        var expectations: [Expectation] = []
        var gridFrames: [String: Frame] = [:]
        for expectation in layout.expectations {
            guard case .frame(let view, let frame) = expectation.kind else { continue }
            expectations.append(expectation)
            gridFrames[view] = frame
        }
        var badges: [String] = []
        for row in decoratedRows(rows: rows, every: every) {
            let (leftName, rightName) = AlternatingGrid.viewNames(row: row)
            let left = LayoutView(leftName), right = LayoutView(rightName)
            let badge = LayoutView("badge\(row)"), note = LayoutView("note\(row)")
            layout.views += [ViewDeclaration(name: badge.name), ViewDeclaration(name: note.name)]
            layout.add {
                badge.width == 24
                badge.height == 24
                badge.centerY == left.centerY
                note.top == left.top
                note.height == 20
                note.left == right.left ~ .high
                note.left == container.left + inset ~ Priority(500)
                note.width == 300 ~ .low
                note.right <= container.right - inset
            }
            badges.append(badge.name)
            // The note: at the right view's x and top, as wide as fits up to 300.
            guard let right = gridFrames[rightName] else { continue }
            let noteWidth = min(300, width - inset - right.x)
            expectations.append(Expectation(.frame(view: note.name, Frame(x: right.x, y: right.y,
                                                                          width: rounded(noteWidth), height: 20))))
        }
        expectations.append(Expectation(.ambiguous(views: badges)))
        layout.expectations = expectations
        return layout
    }
}
