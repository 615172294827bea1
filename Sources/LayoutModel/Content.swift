/// A view's intrinsic content size, as `UIView.intrinsicContentSize`; nil on an
/// axis is `UIView.noIntrinsicMetric` (`none` in the `.layout` format).
public struct IntrinsicSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?

    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// The size along an axis (width for horizontal), nil if none.
    public subscript(axis: Axis) -> Double? { axis == .horizontal ? width : height }
}

/// A priority per axis: content hugging or compression resistance.
public struct AxisPriorities: Hashable, Sendable {
    public var horizontal: Priority
    public var vertical: Priority

    public init(horizontal: Priority, vertical: Priority) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public subscript(axis: Axis) -> Priority { axis == .horizontal ? horizontal : vertical }

    /// UIKit's default content hugging: 250 on both axes.
    public static let defaultHugging = AxisPriorities(horizontal: .low, vertical: .low)
    /// UIKit's default compression resistance: 750 on both axes.
    public static let defaultCompression = AxisPriorities(horizontal: .high, vertical: .high)
}

/// A view's text baselines: `firstBaseline = y + first`,
/// `lastBaseline = y + height - last`.
public struct Baselines: Hashable, Sendable {
    /// The first baseline's distance below the top.
    public var first: Double
    /// The last baseline's distance above the bottom.
    public var last: Double

    public init(first: Double, last: Double) {
        self.first = first
        self.last = last
    }
}

/// The two constraints an intrinsic size adds on an axis.
public enum ContentConstraintKind: String, Hashable, Sendable, CaseIterable {
    /// `size <= intrinsic @ hugging`: the view resists growing.
    case hugging
    /// `size >= intrinsic @ compression`: the view resists shrinking.
    case compression

    public var relation: Relation { self == .hugging ? .lessThanOrEqual : .greaterThanOrEqual }
}

/// What a view says about its own content: the `intrinsic`, `hugging`,
/// `compression` and `baselines` lines of the `.layout` format. Every field
/// nil is a plain view; the defaults (hugging 250, compression 750, baselines
/// at the bottom) apply where a field is nil, and the field stays nil so that a
/// printed layout says only what was written.
public struct ViewContent: Hashable, Sendable {
    public var intrinsicSize: IntrinsicSize?
    public var hugging: AxisPriorities?
    public var compression: AxisPriorities?
    public var baselines: Baselines?

    /// Where each line was written (ignored by `==`).
    public var intrinsicLocation: SourceLocation?
    public var huggingLocation: SourceLocation?
    public var compressionLocation: SourceLocation?
    public var baselinesLocation: SourceLocation?

    public init(intrinsicSize: IntrinsicSize? = nil, hugging: AxisPriorities? = nil, compression: AxisPriorities? = nil,
                baselines: Baselines? = nil) {
        self.intrinsicSize = intrinsicSize
        self.hugging = hugging
        self.compression = compression
        self.baselines = baselines
    }

    /// No content lines at all.
    public static let none = ViewContent()

    public var isEmpty: Bool { intrinsicSize == nil && hugging == nil && compression == nil && baselines == nil }

    /// The priority of a content constraint on an axis, defaults applied.
    public func priority(_ kind: ContentConstraintKind, _ axis: Axis) -> Priority {
        switch kind {
        case .hugging: return (hugging ?? .defaultHugging)[axis]
        case .compression: return (compression ?? .defaultCompression)[axis]
        }
    }

    /// Where the line that sets a content constraint's priority was written,
    /// else the `intrinsic` line (for diagnostics and explanations).
    public func location(of kind: ContentConstraintKind) -> SourceLocation? {
        (kind == .hugging ? huggingLocation : compressionLocation) ?? intrinsicLocation
    }

    public static func == (lhs: ViewContent, rhs: ViewContent) -> Bool {
        lhs.intrinsicSize == rhs.intrinsicSize && lhs.hugging == rhs.hugging && lhs.compression == rhs.compression
            && lhs.baselines == rhs.baselines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(intrinsicSize)
        hasher.combine(hugging)
        hasher.combine(compression)
        hasher.combine(baselines)
    }
}

/// The storage of a view's margins and content, shared until written (a
/// write makes a new box): most views have neither, and a plain view pays
/// one nil reference instead of the whole record (a grid of 10^5 rows has
/// 2 · 10^5 views).
final class ViewExtras: Sendable {
    let margins: EdgeInsets?
    let marginsLocation: SourceLocation?
    let content: ViewContent

    private init(margins: EdgeInsets?, marginsLocation: SourceLocation?, content: ViewContent) {
        self.margins = margins
        self.marginsLocation = marginsLocation
        self.content = content
    }

    static func make(margins: EdgeInsets?, marginsLocation: SourceLocation?, content: ViewContent) -> ViewExtras? {
        guard margins != nil || marginsLocation != nil || !content.isEmpty else { return nil }
        return ViewExtras(margins: margins, marginsLocation: marginsLocation, content: content)
    }
}
