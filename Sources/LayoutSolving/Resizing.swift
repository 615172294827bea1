import LayoutModel

extension ContainerSize {
    /// Checks a size given to `resize(to:)`, which reaches a solver without
    /// passing through ``Layout/validate()``: finite, not negative, within the
    /// accepted ``NumericRange``.
    /// - Throws: ``SolverError/invalidLayout(_:)`` naming the problem.
    public func validatedForResize() throws(SolverError) {
        for (what, value) in [("width", width), ("height", height)] {
            guard let value else { continue }
            if !value.isFinite || value < 0 {
                throw .invalidLayout([Diagnostic(.invalidContainerSize("resize \(what) \(formatNumber(value)) must be finite and >= 0"), at: nil)])
            }
            if case .refused(let limit) = NumericRange.magnitude(value) {
                throw .invalidLayout([Diagnostic(.numberOutsideAcceptedRange(field: "resize \(what)", value: value, limit: limit), at: nil)])
            }
        }
    }
}

extension Layout {
    /// The lowered row of one more constraint for this layout in a variant,
    /// for solvers that add constraints incrementally.
    /// - Throws: ``SolverError/invalidLayout(_:)`` if the constraint is not valid
    ///   here, ``SolverError/unsupported(_:)`` if it is not active in the variant.
    public func loweredRow(of constraint: LayoutConstraint, variant: String) throws(SolverError) -> LoweredConstraint {
        var probe = self
        probe.constraints = [constraint]
        probe.expectations = []
        let lowered: LoweredSystem
        do { lowered = try probe.lowered(variant: variant) } catch { throw SolverError(error) }
        guard let row = lowered.constraints.first(where: { $0.origin == .constraint(index: 0) }) else {
            throw .unsupported("the constraint is not active in this variant")
        }
        return row
    }
}
