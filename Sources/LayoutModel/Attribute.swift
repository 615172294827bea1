/// The axis an attribute belongs to.
public enum Axis: String, Sendable, CaseIterable {
    case horizontal
    case vertical
}

/// The attributes of a view that a constraint can relate, as in
/// `NSLayoutConstraint.Attribute`.
///
/// Every attribute is a linear function of the view's frame variables
/// (x, y, width, height) and its layout margins; see ``FrameVariable`` and
/// ``Layout/lowered(variant:)``. The leading-side attributes follow the
/// layout direction: `leading` is `left` and `trailing` is `right` left to
/// right, and under the trait `rtl` they are measured from the container's
/// right edge (`leading = super.width - right`). The baselines are y-axis
/// locations set by a view's `baselines` line (both at the bottom without one).
public enum Attribute: String, Sendable, CaseIterable, Hashable {
    case left, right, top, bottom
    case leading, trailing
    case width, height
    case centerX, centerY
    case leftMargin, rightMargin, topMargin, bottomMargin
    case leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins
    case firstBaseline, lastBaseline

    /// The axis the attribute measures along. Width is horizontal, height vertical.
    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX,
             .leftMargin, .rightMargin, .leadingMargin, .trailingMargin, .centerXWithinMargins:
            return .horizontal
        case .top, .bottom, .height, .centerY,
             .topMargin, .bottomMargin, .centerYWithinMargins, .firstBaseline, .lastBaseline:
            return .vertical
        }
    }

    /// True for `width` and `height`, the only attributes that may be set to a
    /// bare number or related across axes (aspect ratios).
    public var isDimension: Bool { self == .width || self == .height }

    /// True for positions (edges, centers, margins): everything but the dimensions.
    public var isLocation: Bool { !isDimension }

    /// The x-axis family an attribute belongs to: Auto Layout refuses to relate
    /// a leading-family attribute to a left-family one, because the meaning
    /// of such a constraint would change with the layout direction.
    public enum HorizontalFamily: Sendable {
        /// `left`, `right`, `leftMargin`, `rightMargin`: fixed sides.
        case absolute
        /// `leading`, `trailing`, `leadingMargin`, `trailingMargin`: sides that follow the direction.
        case directional
    }

    /// This edge in the horizontal family of `other` (`left` for `leading` if
    /// `other` is absolute, and so on); itself when either has no family.
    /// Left to right the two are the same edge, so generators use it to keep
    /// a random pair legal without changing what it means.
    public func inFamily(of other: Attribute) -> Attribute {
        guard let mine = horizontalFamily, let theirs = other.horizontalFamily, mine != theirs else { return self }
        switch self {
        case .left: return .leading
        case .right: return .trailing
        case .leftMargin: return .leadingMargin
        case .rightMargin: return .trailingMargin
        case .leading: return .left
        case .trailing: return .right
        case .leadingMargin: return .leftMargin
        case .trailingMargin: return .rightMargin
        default: return self
        }
    }

    /// The family of an x-axis edge; nil for centers, sizes and the y axis
    /// (they relate to either family).
    public var horizontalFamily: HorizontalFamily? {
        switch self {
        case .left, .right, .leftMargin, .rightMargin: return .absolute
        case .leading, .trailing, .leadingMargin, .trailingMargin: return .directional
        default: return nil
        }
    }
}

/// The four variables of a view's frame, in container coordinates.
public enum FrameComponent: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case x = 0, y, width, height

    public var description: String {
        switch self {
        case .x: return "x"
        case .y: return "y"
        case .width: return "width"
        case .height: return "height"
        }
    }

    public static func < (lhs: FrameComponent, rhs: FrameComponent) -> Bool { lhs.rawValue < rhs.rawValue }
}
