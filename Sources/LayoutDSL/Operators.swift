import LayoutModel

// MARK: Building the right side (values only; nothing is activated)

/// `anchor + constant`
public func + <A: LayoutAnchor>(lhs: A, rhs: Double) -> AnchorExpression<A> { AnchorExpression(lhs, constant: rhs) }
/// `anchor - constant`
public func - <A: LayoutAnchor>(lhs: A, rhs: Double) -> AnchorExpression<A> { AnchorExpression(lhs, constant: -rhs) }
/// `anchor * multiplier`
public func * <A: LayoutAnchor>(lhs: A, rhs: Double) -> AnchorExpression<A> { AnchorExpression(lhs, multiplier: rhs) }
/// `anchor / divisor` (multiplier 1 / divisor; dividing by 0 gives a model that validation rejects)
public func / <A: LayoutAnchor>(lhs: A, rhs: Double) -> AnchorExpression<A> { AnchorExpression(lhs, multiplier: 1 / rhs) }
/// `(anchor * m) + constant`
public func + <A>(lhs: AnchorExpression<A>, rhs: Double) -> AnchorExpression<A> {
    AnchorExpression(lhs.anchor, multiplier: lhs.multiplier, constant: lhs.constant + rhs)
}
/// `(anchor * m) - constant`
public func - <A>(lhs: AnchorExpression<A>, rhs: Double) -> AnchorExpression<A> {
    AnchorExpression(lhs.anchor, multiplier: lhs.multiplier, constant: lhs.constant - rhs)
}

// MARK: Relations between anchors of one kind

func make<A: LayoutAnchor>(_ lhs: A, _ relation: Relation, _ rhs: AnchorExpression<A>) -> LayoutConstraint {
    LayoutConstraint(lhs.item, relation, rhs.anchor.item, multiplier: rhs.multiplier, constant: rhs.constant)
}

/// `anchor == anchor`
public func == <A: LayoutAnchor>(lhs: A, rhs: A) -> LayoutConstraint { make(lhs, .equal, AnchorExpression(rhs)) }
/// `anchor == anchor * m + c`
public func == <A: LayoutAnchor>(lhs: A, rhs: AnchorExpression<A>) -> LayoutConstraint { make(lhs, .equal, rhs) }
/// `anchor <= anchor`
public func <= <A: LayoutAnchor>(lhs: A, rhs: A) -> LayoutConstraint { make(lhs, .lessThanOrEqual, AnchorExpression(rhs)) }
/// `anchor <= anchor * m + c`
public func <= <A: LayoutAnchor>(lhs: A, rhs: AnchorExpression<A>) -> LayoutConstraint { make(lhs, .lessThanOrEqual, rhs) }
/// `anchor >= anchor`
public func >= <A: LayoutAnchor>(lhs: A, rhs: A) -> LayoutConstraint { make(lhs, .greaterThanOrEqual, AnchorExpression(rhs)) }
/// `anchor >= anchor * m + c`
public func >= <A: LayoutAnchor>(lhs: A, rhs: AnchorExpression<A>) -> LayoutConstraint { make(lhs, .greaterThanOrEqual, rhs) }

// MARK: Sizes against numbers (sizes only: `edge == 10` does not compile)

/// `size == constant`
public func == (lhs: DimensionAnchor, rhs: Double) -> LayoutConstraint { LayoutConstraint(lhs.item, .equal, nil, constant: rhs) }
/// `size <= constant`
public func <= (lhs: DimensionAnchor, rhs: Double) -> LayoutConstraint {
    LayoutConstraint(lhs.item, .lessThanOrEqual, nil, constant: rhs)
}
/// `size >= constant`
public func >= (lhs: DimensionAnchor, rhs: Double) -> LayoutConstraint {
    LayoutConstraint(lhs.item, .greaterThanOrEqual, nil, constant: rhs)
}

// MARK: Priority

/// Binds looser than the relations, so `a.width == 10 ~ .high` is `(a.width == 10) ~ .high`.
precedencegroup LayoutPriorityPrecedence {
    associativity: left
    lowerThan: ComparisonPrecedence
}

infix operator ~ : LayoutPriorityPrecedence

/// `constraint ~ priority` (`~ .high`, `~ 750`)
public func ~ (lhs: LayoutConstraint, rhs: Priority) -> LayoutConstraint {
    var copy = lhs
    copy.priority = rhs
    return copy
}
