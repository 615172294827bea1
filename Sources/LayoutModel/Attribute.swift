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
/// ``Layout/lowered(variant:)``. `leading` is `left` and `trailing` is
/// `right`: the model is left-to-right only.
public enum Attribute: String, Sendable, CaseIterable, Hashable {
    case left, right, top, bottom
    case leading, trailing
    case width, height
    case centerX, centerY
    case leftMargin, rightMargin, topMargin, bottomMargin
    case leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins

    /// The axis the attribute measures along. Width is horizontal, height vertical.
    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX,
             .leftMargin, .rightMargin, .leadingMargin, .trailingMargin, .centerXWithinMargins:
            return .horizontal
        case .top, .bottom, .height, .centerY,
             .topMargin, .bottomMargin, .centerYWithinMargins:
            return .vertical
        }
    }

    /// True for `width` and `height`, the only attributes that may be set to a
    /// bare number or related across axes (aspect ratios).
    public var isDimension: Bool { self == .width || self == .height }

    /// True for positions (edges, centers, margins): everything but the dimensions.
    public var isLocation: Bool { !isDimension }
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
