import LayoutModel

/// Collects constraints written one per line: single constraints, arrays
/// (helpers such as ``pin(_:to:edges:insets:)``), `if`, `if/else`, `for`.
@resultBuilder
public enum ConstraintBuilder {
    public static func buildExpression(_ constraint: LayoutConstraint) -> [LayoutConstraint] { [constraint] }
    public static func buildExpression(_ constraints: [LayoutConstraint]) -> [LayoutConstraint] { constraints }
    public static func buildBlock(_ parts: [LayoutConstraint]...) -> [LayoutConstraint] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [LayoutConstraint]?) -> [LayoutConstraint] { part ?? [] }
    public static func buildEither(first: [LayoutConstraint]) -> [LayoutConstraint] { first }
    public static func buildEither(second: [LayoutConstraint]) -> [LayoutConstraint] { second }
    public static func buildArray(_ parts: [[LayoutConstraint]]) -> [LayoutConstraint] { parts.flatMap { $0 } }
}

/// Edges for ``pin(_:to:edges:insets:)``.
public struct Edges: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1)
    public static let left = Edges(rawValue: 2)
    public static let bottom = Edges(rawValue: 4)
    public static let right = Edges(rawValue: 8)
    public static let all: Edges = [.top, .left, .bottom, .right]
}

/// Pins `view`'s edges inside `other`'s, inset: `view.top == other.top + t`,
/// `view.left == other.left + l`, `other.bottom == view.bottom + b`,
/// `other.right == view.right + r` (each written so its constant is the inset).
public func pin(_ view: LayoutView, to other: LayoutView, edges: Edges = .all, insets: EdgeInsets = EdgeInsets(all: 0))
    -> [LayoutConstraint]
{
    var result: [LayoutConstraint] = []
    if edges.contains(.top) { result.append(view.top == other.top + insets.top) }
    if edges.contains(.left) { result.append(view.left == other.left + insets.left) }
    if edges.contains(.bottom) { result.append(other.bottom == view.bottom + insets.bottom) }
    if edges.contains(.right) { result.append(other.right == view.right + insets.right) }
    return result
}

extension Layout {
    /// A layout with the container, views and constraints written in Swift.
    public init(container: ContainerSize, traits: [String] = [], views: [LayoutView],
                @ConstraintBuilder constraints: () -> [LayoutConstraint]) {
        self.init(container: container, containerTraits: traits, views: views.map { ViewDeclaration(name: $0.name, content: $0.content) },
                  constraints: constraints())
    }

    /// Appends constraints written in Swift: `layout.add { a.left == b.right + 8 }`.
    public mutating func add(@ConstraintBuilder _ constraints: () -> [LayoutConstraint]) {
        self.constraints += constraints()
    }
}
