import LayoutModel

/// A view of a layout written in Swift. Its anchors are typed by axis and
/// kind, so that illegal relations do not compile: an x-axis edge against a
/// y-axis edge or a size, or an edge against a bare number.
///
/// A view that sizes itself says so with modifiers, as UIKit's content
/// properties: `LayoutView("label").intrinsicSize(width: 60, height: 20).hugging(horizontal: 251)`.
public struct LayoutView: Hashable, Sendable {
    public let name: String
    /// Intrinsic size, hugging, compression resistance and baselines.
    public private(set) var content: ViewContent = .none
    public init(_ name: String) { self.name = name }

    /// The view with an intrinsic content size; nil on an axis is
    /// `UIView.noIntrinsicMetric`.
    public func intrinsicSize(width: Double?, height: Double?) -> LayoutView {
        var copy = self
        copy.content.intrinsicSize = IntrinsicSize(width: width, height: height)
        return copy
    }

    /// The view with content-hugging priorities (UIKit's default: 250 on both axes).
    public func hugging(horizontal: Priority = .low, vertical: Priority = .low) -> LayoutView {
        var copy = self
        copy.content.hugging = AxisPriorities(horizontal: horizontal, vertical: vertical)
        return copy
    }

    /// The view with compression-resistance priorities (UIKit's default: 750 on both axes).
    public func compressionResistance(horizontal: Priority = .high, vertical: Priority = .high) -> LayoutView {
        var copy = self
        copy.content.compression = AxisPriorities(horizontal: horizontal, vertical: vertical)
        return copy
    }

    /// The view with text baselines: `firstBaseline = top + first`, `lastBaseline = bottom - last`.
    public func baselines(first: Double, last: Double) -> LayoutView {
        var copy = self
        copy.content.baselines = Baselines(first: first, last: last)
        return copy
    }

    /// The container, `super`.
    public static let container = LayoutView(Layout.containerName)

    public var left: XAnchor { XAnchor(view: name, attribute: .left) }
    public var right: XAnchor { XAnchor(view: name, attribute: .right) }
    public var leading: XAnchor { XAnchor(view: name, attribute: .leading) }
    public var trailing: XAnchor { XAnchor(view: name, attribute: .trailing) }
    public var centerX: XAnchor { XAnchor(view: name, attribute: .centerX) }
    public var leftMargin: XAnchor { XAnchor(view: name, attribute: .leftMargin) }
    public var rightMargin: XAnchor { XAnchor(view: name, attribute: .rightMargin) }
    public var leadingMargin: XAnchor { XAnchor(view: name, attribute: .leadingMargin) }
    public var trailingMargin: XAnchor { XAnchor(view: name, attribute: .trailingMargin) }
    public var centerXWithinMargins: XAnchor { XAnchor(view: name, attribute: .centerXWithinMargins) }

    public var top: YAnchor { YAnchor(view: name, attribute: .top) }
    public var bottom: YAnchor { YAnchor(view: name, attribute: .bottom) }
    public var centerY: YAnchor { YAnchor(view: name, attribute: .centerY) }
    public var topMargin: YAnchor { YAnchor(view: name, attribute: .topMargin) }
    public var bottomMargin: YAnchor { YAnchor(view: name, attribute: .bottomMargin) }
    public var centerYWithinMargins: YAnchor { YAnchor(view: name, attribute: .centerYWithinMargins) }
    /// The first text baseline: a y-axis location (the bottom without `baselines`).
    public var firstBaseline: YAnchor { YAnchor(view: name, attribute: .firstBaseline) }
    /// The last text baseline: a y-axis location (the bottom without `baselines`).
    public var lastBaseline: YAnchor { YAnchor(view: name, attribute: .lastBaseline) }

    public var width: DimensionAnchor { DimensionAnchor(view: name, attribute: .width) }
    public var height: DimensionAnchor { DimensionAnchor(view: name, attribute: .height) }
}

/// An anchor: a view's attribute of one kind.
public protocol LayoutAnchor: Sendable {
    var view: String { get }
    var attribute: Attribute { get }
}

extension LayoutAnchor {
    var item: ItemAttribute { ItemAttribute(view, attribute) }
}

/// A horizontal location (left, right, leading, trailing, centerX, margins).
/// Relating a leading-family anchor to a left-family one compiles but is
/// refused by validation (``DiagnosticKind/mixedDirection(first:second:)``),
/// as Auto Layout refuses it when the constraint is made.
public struct XAnchor: LayoutAnchor {
    public let view: String
    public let attribute: Attribute
}

/// A vertical location (top, bottom, centerY, margins, baselines).
public struct YAnchor: LayoutAnchor {
    public let view: String
    public let attribute: Attribute
}

/// A size (width or height); sizes of either axis relate (aspect ratios).
public struct DimensionAnchor: LayoutAnchor {
    public let view: String
    public let attribute: Attribute
}

/// `anchor × multiplier + constant`, the right side of a constraint.
public struct AnchorExpression<Anchor: LayoutAnchor>: Sendable {
    public var anchor: Anchor
    public var multiplier: Double
    public var constant: Double

    public init(_ anchor: Anchor, multiplier: Double = 1, constant: Double = 0) {
        self.anchor = anchor
        self.multiplier = multiplier
        self.constant = constant
    }
}

extension LayoutConstraint {
    /// The constraint with an identifier: `(a.left == b.right + 8).identified("gap")`.
    public func identified(_ identifier: String) -> LayoutConstraint {
        var copy = self
        copy.identifier = identifier
        return copy
    }

    /// The constraint active only under these traits: `(a.width == 100).when("landscape")`.
    public func when(_ traits: String...) -> LayoutConstraint {
        var copy = self
        copy.traits = traits
        return copy
    }
}
