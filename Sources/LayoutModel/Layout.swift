/// A view's layout margins (top, left, bottom, right), as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    public var top, left, bottom, right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    /// The default margins of every view, the container included: 8 on every side.
    public static let standard = EdgeInsets(all: 8)
}

/// A view's frame in the container's coordinate space.
public struct Frame: Hashable, Sendable, CustomStringConvertible {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public subscript(component: FrameComponent) -> Double {
        get {
            switch component {
            case .x: return x
            case .y: return y
            case .width: return width
            case .height: return height
            }
        }
        set {
            switch component {
            case .x: x = newValue
            case .y: y = newValue
            case .width: width = newValue
            case .height: height = newValue
            }
        }
    }

    public var description: String {
        [x, y, width, height].map { formatNumber($0, maxFractionDigits: 4) }.joined(separator: " ")
    }

    /// The value of an attribute for this frame and margins (the lowering's
    /// formulas: right = x + width, centerX = x + width/2, leftMargin = x + m.left, ...).
    /// With `rightToLeftIn` a container width, the leading-side attributes are
    /// measured from that container's right edge (`leading = W - right`).
    public func value(of attribute: Attribute, margins m: EdgeInsets = .standard, baselines: Baselines? = nil,
                      rightToLeftIn containerWidth: Double? = nil) -> Double {
        // Why through the lowering's terms: one owner for what an attribute
        // means. The frame is view 1, the container's width is view 0's; terms
        // are summed in the order the lowering writes them, then the constant,
        // which is the arithmetic of `x + width - m.right` and the like.
        var terms = SmallTerms()
        let constant = Layout.attributeTerms(attribute, view: 1, margins: m, baselines: baselines,
                                             rightToLeft: containerWidth != nil, scale: 1, into: &terms)
        var sum = 0.0
        for i in 0..<terms.count {
            let term = terms.term(i)
            sum += term.coefficient * (term.variable.view == 0 ? containerWidth ?? 0 : self[term.variable.component])
        }
        return sum + constant
    }
}

/// The container's size: `W x H`, or `W x auto` (height free).
public struct ContainerSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    /// nil means `auto`: the height is a free variable.
    public var height: Double?

    public init(width: Double, height: Double?) {
        self.width = width
        self.height = height
    }

    public var description: String {
        "\(formatNumber(width)) x \(height.map(formatNumber) ?? "auto")"
    }
}

/// A declared view.
public struct ViewDeclaration: Hashable, Sendable {
    public var name: String
    private var storedLocation: PackedLocation
    /// The margins and the content of a view that has either. Why one
    /// optional box: most views have neither, and a plain view then costs 40
    /// bytes instead of 96 (a grid of 10^5 rows declares 2 · 10^5 views;
    /// docs/measurements.md#m-2026-11-27-small-items).
    private var extras: ViewExtras?

    public init(name: String, margins: EdgeInsets? = nil, content: ViewContent = .none, location: SourceLocation? = nil) {
        self.name = name
        self.storedLocation = PackedLocation(location)
        self.extras = ViewExtras.make(margins: margins, marginsLocation: nil, content: content)
    }

    /// Layout margins; nil means ``EdgeInsets/standard``.
    public var margins: EdgeInsets? {
        get { extras?.margins }
        set { extras = ViewExtras.make(margins: newValue, marginsLocation: marginsLocation, content: content) }
    }

    /// Where the name was declared (ignored by `==`).
    public var location: SourceLocation? {
        get { storedLocation.location }
        set { storedLocation = PackedLocation(newValue) }
    }

    /// Where the `margins` line was (ignored by `==`).
    public var marginsLocation: SourceLocation? {
        get { extras?.marginsLocation }
        set { extras = ViewExtras.make(margins: margins, marginsLocation: newValue, content: content) }
    }

    /// Intrinsic size, hugging, compression resistance and baselines (``ViewContent/none`` for a plain view).
    public var content: ViewContent {
        get { extras?.content ?? .none }
        set { extras = ViewExtras.make(margins: margins, marginsLocation: marginsLocation, content: newValue) }
    }

    public static func == (lhs: ViewDeclaration, rhs: ViewDeclaration) -> Bool {
        lhs.name == rhs.name && lhs.margins == rhs.margins && lhs.content == rhs.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(margins)
        hasher.combine(content)
    }
}

/// A named metric (`metric spacing = 8`). Constraints store resolved numbers;
/// metrics are kept so a printed layout still declares them.
public struct Metric: Hashable, Sendable {
    public var name: String
    public var value: Double
    public var location: SourceLocation?

    public init(name: String, value: Double, location: SourceLocation? = nil) {
        self.name = name
        self.value = value
        self.location = location
    }

    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.name == rhs.name && lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }
}

/// Another container size and trait set under which the layout is solved.
public struct Variant: Hashable, Sendable {
    public var name: String
    public var size: ContainerSize
    public var traits: [String]
    public var location: SourceLocation?

    public init(name: String, size: ContainerSize, traits: [String] = [], location: SourceLocation? = nil) {
        self.name = name
        self.size = size
        self.traits = traits
        self.location = location
    }

    public static func == (lhs: Variant, rhs: Variant) -> Bool {
        lhs.name == rhs.name && lhs.size == rhs.size && lhs.traits == rhs.traits
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(size)
        hasher.combine(traits)
    }
}

/// What a layout's author expects a correct solver to find.
public struct Expectation: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The view's frame, within an absolute tolerance of ``Expectation/frameTolerance``.
        case frame(view: String, Frame)
        /// The required constraints cannot all hold.
        case unsatisfiable
        /// Exactly these views are not determined once every priority level has
        /// been optimised (one free component of x/y/width/height suffices).
        /// An empty list says every view is determined.
        case ambiguous(views: [String])
    }

    public var kind: Kind
    /// The absolute tolerance of a frame (`within 0.5`); nil is ``frameTolerance``.
    public var tolerance: Double?
    // Why the variant and the observer share one optional box and the
    // location is packed: a grid of R = 10^5 rows keeps 200,000 expectations
    // for the whole run, and most have neither; 88 bytes each instead of 120
    // (docs/measurements.md#m-2026-11-27-small-items).
    @usableFromInline var storedLocation: PackedLocation
    @usableFromInline var attribution: Attribution?

    /// The variant and the observer of an expectation that has either (immutable).
    @usableFromInline final class Attribution: Sendable {
        let variant: String?
        let observedBy: String?

        @usableFromInline init(variant: String?, observedBy: String?) {
            self.variant = variant
            self.observedBy = observedBy
        }

        @inlinable static func make(variant: String?, observedBy: String?) -> Attribution? {
            variant == nil && observedBy == nil ? nil : Attribution(variant: variant, observedBy: observedBy)
        }
    }

    /// The variant it applies to; nil is the default container.
    public var variant: String? {
        get { attribution?.variant }
        set { attribution = Attribution.make(variant: newValue, observedBy: observedBy) }
    }

    /// Who observed this frame (`expect ... observed xcode`): an answer from
    /// another engine, reported apart ("matches Xcode"), never a failure of
    /// the layout's own checks. nil: the author's expectation.
    public var observedBy: String? {
        get { attribution?.observedBy }
        set { attribution = Attribution.make(variant: variant, observedBy: newValue) }
    }

    /// Where the line was written, if it came from text.
    public var location: SourceLocation? {
        get { storedLocation.location }
        set { storedLocation = PackedLocation(newValue) }
    }

    /// Absolute tolerance of `expect VIEW = X Y W H`, from the format's spec.
    public static let frameTolerance = 1e-3

    /// The tolerance a frame is checked with.
    public var frameTolerance: Double { tolerance ?? Self.frameTolerance }

    public static func == (lhs: Expectation, rhs: Expectation) -> Bool {
        lhs.variant == rhs.variant && lhs.kind == rhs.kind && lhs.observedBy == rhs.observedBy && lhs.tolerance == rhs.tolerance
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(variant)
        hasher.combine(kind)
        hasher.combine(observedBy)
        hasher.combine(tolerance)
    }
}

extension Expectation {
    // Why inlinable: as LayoutConstraint's (a parser makes 200,000 of these).
    // Why in an extension: as LayoutConstraint's (the memberwise initialiser
    // that ``frame(view:_:location:)`` builds with).
    @inlinable
    public init(variant: String? = nil, _ kind: Kind, observedBy: String? = nil, tolerance: Double? = nil,
                location: SourceLocation? = nil) {
        self.kind = kind
        self.tolerance = tolerance
        self.storedLocation = PackedLocation(location)
        self.attribution = Attribution.make(variant: variant, observedBy: observedBy)
    }

    /// A frame expectation as a line reader has it: no variant, observer or
    /// tolerance. Why a call that builds with the memberwise initialiser: as
    /// ``LayoutConstraint/plain(_:_:_:multiplier:constant:priority:identifier:locations:)``
    /// (the value built in place and moved, not copied into the array).
    package static func frame(view: consuming String, _ frame: Frame, location: SourceLocation) -> Expectation {
        Expectation(kind: .frame(view: view, frame), tolerance: nil, storedLocation: PackedLocation(location),
                    attribution: nil)
    }
}

/// One layout: a container, views, constraints, variants and expectations.
///
/// Views are flat: every view is a child of the container, named `super`,
/// whose frame is `(0, 0, W, H)` (required). Source locations are
/// provenance only: `==` compares content.
public struct Layout: Hashable, Sendable {
    /// The name of the container view.
    public static let containerName = "super"
    /// The name of the variant that uses the `container` line itself.
    public static let defaultVariantName = "default"

    public var container: ContainerSize
    public var containerTraits: [String]
    /// The container's layout margins; nil means ``EdgeInsets/standard``.
    public var containerMargins: EdgeInsets?
    public var views: [ViewDeclaration]
    public var metrics: [Metric]
    public var constraints: [LayoutConstraint]
    public var variants: [Variant]
    public var expectations: [Expectation]
    /// Where the `container` line was (ignored by `==`).
    public var containerLocation: SourceLocation?
    /// Where the container's `margins` line was (ignored by `==`).
    public var containerMarginsLocation: SourceLocation?

    public init(
        container: ContainerSize, containerTraits: [String] = [], containerMargins: EdgeInsets? = nil,
        views: [ViewDeclaration] = [], metrics: [Metric] = [], constraints: [LayoutConstraint] = [],
        variants: [Variant] = [], expectations: [Expectation] = [], containerLocation: SourceLocation? = nil
    ) {
        self.container = container
        self.containerTraits = containerTraits
        self.containerMargins = containerMargins
        self.views = views
        self.metrics = metrics
        self.constraints = constraints
        self.variants = variants
        self.expectations = expectations
        self.containerLocation = containerLocation
    }

    /// The default variant followed by the declared ones, each with its size and traits.
    public var allVariants: [Variant] {
        [Variant(name: Layout.defaultVariantName, size: container, traits: containerTraits, location: containerLocation)]
            + variants
    }

    /// The variant with that name (`default` is the container line); nil if none.
    public func variant(named name: String?) -> Variant? {
        let name = name ?? Layout.defaultVariantName
        return allVariants.first { $0.name == name }
    }

    /// Whether a variant lays out right to left (its traits include ``rightToLeftTrait``).
    public static func isRightToLeft(_ variant: Variant) -> Bool { variant.traits.contains(rightToLeftTrait) }

    /// The trait that mirrors the leading-side attributes: `container 375 x 812 traits rtl`.
    public static let rightToLeftTrait = "rtl"

    /// The margins of a view (or of `super`), defaults applied.
    public func margins(of view: String) -> EdgeInsets {
        if view == Layout.containerName { return containerMargins ?? .standard }
        return views.first { $0.name == view }?.margins ?? .standard
    }

    /// The constraints active in a variant, in declaration order.
    public func activeConstraints(in variant: Variant) -> [LayoutConstraint] {
        constraints.filter { $0.isActive(under: variant.traits) }
    }

    /// The author's expectations that apply to a variant (`nil` = default);
    /// observed frames (`expect ... observed SOURCE`) are ``observations(for:)``.
    public func expectations(for variant: String?) -> [Expectation] {
        let name = variant ?? Layout.defaultVariantName
        let wanted = { (e: Expectation) in e.observedBy == nil && (e.variant ?? Layout.defaultVariantName) == name }
        // Why the test first: in most files every line is the default
        // variant's own, and then the layout's array is shared, not copied
        // (a copy was the peak of a whole `solve` of the grid at 10^5: 24 MB
        // for 200,000 lines, on top of the check's results).
        if expectations.allSatisfy(wanted) { return expectations }
        return expectations.filter(wanted)
    }

    /// The frames another engine was observed to give in a variant (`expect ... observed xcode`).
    public func observations(for variant: String?) -> [Expectation] {
        let name = variant ?? Layout.defaultVariantName
        return expectations.filter { $0.observedBy != nil && ($0.variant ?? Layout.defaultVariantName) == name }
    }

    public static func == (lhs: Layout, rhs: Layout) -> Bool {
        lhs.container == rhs.container && lhs.containerTraits == rhs.containerTraits
            && lhs.containerMargins == rhs.containerMargins && lhs.views == rhs.views
            && lhs.metrics == rhs.metrics && lhs.constraints == rhs.constraints
            && lhs.variants == rhs.variants && lhs.expectations == rhs.expectations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(container)
        hasher.combine(containerTraits)
        hasher.combine(containerMargins)
        hasher.combine(views)
        hasher.combine(metrics)
        hasher.combine(constraints)
        hasher.combine(variants)
        hasher.combine(expectations)
    }
}
