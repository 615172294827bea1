/// A layout that has passed ``Layout/validate()`` without errors: the only
/// thing that can be lowered to a ``LoweredSystem``.
///
/// Why a type: validation used to run again at every lowering and every
/// solver's `prepare` (ten or more times per case in a run), with an escape
/// hatch (`skippingValidation:`) for the callers that knew better. Now it runs
/// once, where a layout enters, and the compiler refuses to lower anything
/// that did not pass it. Only ``Layout/validated()`` and
/// ``Layout/validation()`` make one.
public struct ValidatedLayout: Hashable, Sendable {
    /// The layout, as validated.
    public let layout: Layout
    /// What validation found that is not an error.
    public let warnings: [Diagnostic]

    /// Only validation makes one.
    init(checked layout: Layout, warnings: [Diagnostic]) {
        self.layout = layout
        self.warnings = warnings
    }

    /// Lowers the layout for a variant (``Layout/lowered(variant:)``, without
    /// validating again).
    /// - Parameter variant: a declared variant's name; nil or `default` is the container line.
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    /// - Complexity: O(*v* + *c*) for *v* views and *c* constraints.
    public func lowered(variant name: String? = nil) throws(LoweringError) -> LoweredSystem {
        try layout.lowerChecked(variant: name)
    }

    /// ``lowered(variant:)`` a row at a time, for a consumer that copies the
    /// rows into its own storage: `start` gets the system without rows, the
    /// number of container and constraint rows to come (a capacity hint;
    /// content rows follow them) and whether the constraints come in another
    /// order than the file's (``LoweringStart``), then `visit` each row in
    /// ``LoweredSystem/constraints``'s order (or the structural order) until
    /// it returns false.
    /// - Parameter structural: the constraint rows in the layout's
    ///   structural order (InsertionOrder.swift: by the views they name,
    ///   whatever the file's order), for an incremental solver whose speed
    ///   depends on the order, unless the file's lines already come view by
    ///   view or the layout has fewer than 2,048 constraints (`start`'s
    ///   ``LoweringStart/reordered`` says which); false: in the file's
    ///   order, as ``LoweredSystem/constraints`` lists them.
    /// - Returns: the system without rows.
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    /// - Complexity: O(*v* + *c*) for *v* views and *c* constraints (and
    ///   O(*c* log *k*) for the structural order, *k* the most constraints
    ///   on one view), plus the visits.
    ///
    /// A layout of ``Layout/pipelinedLoweringThreshold`` constraints or more
    /// is lowered on a thread of its own when two threads are available
    /// (PipelinedLowering.swift); `start` and `visit` run on the calling
    /// thread either way, with the same rows in the same order.
    public func lowered(variant name: String?, structural: Bool = false, start: (LoweredSystem, LoweringStart) -> Void,
                        visit: (LoweredConstraint) -> Bool) throws(LoweringError) -> LoweredSystem {
        if layout.constraints.count >= Layout.pipelinedLoweringThreshold, availableThreads > 1 {
            return try layout.lowerPipelined(variant: name, structural: structural, start: start, visit: visit)
        }
        return try layout.lowerChecked(variant: name, structural: structural, start: start, visit: visit)
    }

    /// The layout with every trait any variant or constraint names switched
    /// on (and `rtl` as asked), no variants and no expectations: lowered, it
    /// has a row for every constraint of every variant of that direction.
    /// Why it stays valid: traits only decide which constraints are active,
    /// and dropping variants and expectations removes checks' subjects, never
    /// adds a problem. The GLPK reference builds one LP from it and switches
    /// variants by bounds.
    public func everyTraitOn(rightToLeft: Bool) -> ValidatedLayout {
        var universal = layout
        var allTraits = layout.containerTraits
        for variant in layout.variants { allTraits += variant.traits }
        for constraint in layout.constraints { allTraits += constraint.traits }
        allTraits.removeAll { $0 == Layout.rightToLeftTrait }
        if rightToLeft { allTraits.append(Layout.rightToLeftTrait) }
        universal.containerTraits = Array(Set(allTraits)).sorted()
        universal.variants = []
        universal.expectations = []
        return ValidatedLayout(checked: universal, warnings: [])
    }
}

extension Layout {
    /// Validates the layout once.
    /// - Throws: ``LoweringError/invalidLayout(_:)`` with the errors ``validate()`` finds.
    /// - Complexity: that of ``validate()``.
    public func validated() throws(LoweringError) -> ValidatedLayout {
        let (layout, diagnostics) = validation()
        guard let layout else { throw .invalidLayout(diagnostics.filter { $0.severity == .error }) }
        return layout
    }

    /// Validates the layout once: every diagnostic, and the validated layout
    /// when none is an error (front ends that report warnings too).
    /// - Complexity: that of ``validate()``.
    public func validation() -> (layout: ValidatedLayout?, diagnostics: [Diagnostic]) {
        let diagnostics = validate()
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (ValidatedLayout(checked: self, warnings: diagnostics), diagnostics)
    }
}

/// What a row-at-a-time lowering announces before its first row
/// (``ValidatedLayout/lowered(variant:structural:start:visit:)``).
public struct LoweringStart: Sendable, Hashable {
    /// Container and constraint rows to come, at most (another variant's
    /// constraints are skipped); content rows follow them.
    public var rows: Int
    /// Whether the constraint rows come in structural order, not the
    /// file's (InsertionOrder.swift). A consumer for whom the order is part
    /// of the answer (which of two conflicting constraints gives way) can
    /// lower again in the file's order when it matters.
    public var reordered: Bool

    public init(rows: Int, reordered: Bool) {
        self.rows = rows
        self.reordered = reordered
    }
}
