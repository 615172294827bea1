import LayoutModel

/// Apple's Visual Format Language, as lines of a `.layout` file:
///
///     H:|-[a]-8-[b(==a)]-|
///     V:|-20-[top(>=44@750)]-(spacing)-[row] options alignAllLeading
///
/// Each line expands into ordinary constraints (what `layout-bench print`
/// shows). `H` relates leading/trailing edges and widths, `V` tops/bottoms and
/// heights. Standard spacing `-`: 8 between siblings; at the container's edges
/// its layout margins (`|-[a]` is `a.leading = super.leadingMargin`). The
/// expansions, with `REL c @ p` from a predicate (default `==`, required):
///
/// | visual format | constraint |
/// | --- | --- |
/// | `|[a]` / `|-[a]` / `|-P-[a]` | `a.leading = super.leading` / `= super.leadingMargin` / `REL super.leading + c` |
/// | `[a][b]` / `[a]-[b]` / `[a]-P-[b]` | `b.leading = a.trailing` / `= a.trailing + 8` / `REL a.trailing + c` |
/// | `[b]|` / `[b]-|` / `[b]-P-|` | `super.trailing = b.trailing` / `super.trailingMargin = b.trailing` / `super.trailing REL b.trailing + c` |
/// | `[a(P)]` | `a.width REL c` or, for a view `v`, `a.width REL v.width` |
/// | `options alignAllTop ...` | `v.top = first.top` for every view after the first |
///
/// `H:` lines read leading to trailing, so under the trait `rtl` their first
/// view is on the right. `options directionLeftToRight` writes them with
/// `left`/`right` instead (first view on the left whatever the direction), and
/// `options directionRightToLeft` with `right`/`left` (first view on the right),
/// as AppKit's `NSLayoutFormatOptions`; `directionLeadingToTrailing` is the default.
///
/// A predicate list is `P` or `(P, P, ...)` with `P := [== | <= | >=] (number | metric | view) [@ priority]`.
enum VisualFormat {
    /// The space `-` stands for between siblings.
    static let standardSpacing = 8.0

    struct Axis {
        var leading, trailing, size, leadingMargin, trailingMargin: Attribute
        var alignments: [String: Attribute]

        static let horizontal = Axis(leading: .leading, trailing: .trailing, size: .width, leadingMargin: .leadingMargin,
                                     trailingMargin: .trailingMargin,
                                     alignments: ["alignAllTop": .top, "alignAllBottom": .bottom, "alignAllCenterY": .centerY])
        /// `options directionLeftToRight`: the fixed sides, first view on the left.
        static let leftToRight = Axis(leading: .left, trailing: .right, size: .width, leadingMargin: .leftMargin,
                                      trailingMargin: .rightMargin, alignments: horizontal.alignments)
        /// `options directionRightToLeft`: the first view on the right; each
        /// connection is written with the sides exchanged and its constant and
        /// relation mirrored (`[a]-8-[b]` is `b.right = a.left - 8`).
        static let rightToLeft = Axis(leading: .right, trailing: .left, size: .width, leadingMargin: .rightMargin,
                                      trailingMargin: .leftMargin, alignments: horizontal.alignments)
        static let vertical = Axis(leading: .top, trailing: .bottom, size: .height, leadingMargin: .topMargin,
                                   trailingMargin: .bottomMargin,
                                   alignments: ["alignAllLeft": .left, "alignAllRight": .right, "alignAllLeading": .leading,
                                                "alignAllTrailing": .trailing, "alignAllCenterX": .centerX])
    }

    /// The direction options of an `H:` line.
    static let directions: [String: Axis] = [
        "directionLeadingToTrailing": .horizontal, "directionLeftToRight": .leftToRight, "directionRightToLeft": .rightToLeft,
    ]

    /// `[REL] object [@ priority]`.
    struct Predicate {
        enum Object {
            case constant(Double)
            case view(String, SourceLocation)
        }
        var relation: Relation
        var object: Object
        var priority: Priority
        var location: SourceLocation
        var priorityLocation: SourceLocation?
    }

    /// What stands between two items: nothing, `-`, or predicates.
    enum Connection {
        case none
        case standard(SourceLocation)
        case predicates([Predicate])
    }
}

extension VisualFormat {
    /// The alignment options a line may end with, for the messages.
    static func optionNames(_ axis: Axis) -> String { axis.alignments.keys.sorted().joined(separator: ", ") }
}
