import LayoutModel

extension LoweredSystem {
    /// The same system with another container size: the container rows'
    /// constants change, the `super.height` row comes or goes with `auto`.
    public func withContainerSize(_ newSize: ContainerSize) -> LoweredSystem {
        var copy = self
        copy.size = newSize
        copy.constraints = []
        let heightVariable = FrameVariable(view: 0, component: .height)
        for row in constraints {
            guard case .container(let component) = row.origin else {
                copy.constraints.append(row)
                continue
            }
            switch component {
            case .width:
                var r = row
                r.expression.constant = -newSize.width
                copy.constraints.append(r)
                if let height = newSize.height, !constraints.contains(where: { $0.origin == .container(.height) }) {
                    var e = LinearExpression(constant: -height)
                    e.add(1, heightVariable)
                    copy.constraints.append(LoweredConstraint(expression: e, relation: .equal, priority: .required,
                                                              origin: .container(.height)))
                }
            case .height:
                if let height = newSize.height {
                    var r = row
                    r.expression.constant = -height
                    copy.constraints.append(r)
                }
            case .x, .y:
                copy.constraints.append(row)
            }
        }
        return copy
    }
}
