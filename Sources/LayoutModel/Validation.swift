extension Layout {
    /// Checks the layout's semantics and returns every problem found, in source
    /// order. Never traps: a layout built in code with any values at all gets
    /// diagnostics, not a crash.
    ///
    /// Errors: undeclared or duplicate names, reserved names, invalid sizes and
    /// margins, priorities outside `1...1000`, non-finite numbers, a location
    /// related to a dimension, an x-axis location related to a y-axis location
    /// (width may relate to height: aspect ratios), a leading-family edge
    /// related to a left-family one, a negative intrinsic size, a location set to a bare
    /// number or multiplied by 0, identifiers with line breaks, numbers outside
    /// the accepted ``NumericRange``. Warnings: a `when` trait that no container
    /// or variant has; numbers beyond the precise ``NumericRange``; nearly
    /// parallel rows (``NumericRange/parallelMultipliers``).
    ///
    /// The checks run in this order, and diagnostics at the same location (or
    /// at none) keep the order they were reported in.
    ///
    /// - Complexity: O(*n* log *n*) in the size of the layout.
    public func validate() -> [Diagnostic] {
        validate(onTwoThreads: constraints.count >= Self.parallelValidationThreshold && availableThreads > 1)
    }

    /// ``validate()``, with the second half of the constraints and the
    /// expectations checked on a thread of their own when `onTwoThreads`
    /// (tests compare the two ways on layouts of any size).
    func validate(onTwoThreads: Bool) -> [Diagnostic] {
        var found = ValidationReport()
        checkSize(container, what: "container", at: containerLocation, &found)
        // Each view name's first declaration, by position in `views`.
        let declared = NameIndex(views.map(\.name))
        // The variants' checks report here, after the metrics', but their
        // locations are needed first by the expectations' checks.
        var variantReport = ValidationReport()
        let variantLocations = checkVariants(&variantReport)
        let knownTraits = self.knownTraits
        // Why the second half of the constraints and the expectations on a
        // thread of their own for a large layout: they read nothing the
        // other checks write, and they are two thirds of the validation of a
        // generated family (docs/measurements.md#m-2026-11-27-parallel-validation).
        // Each part reports into its own list, and the lists are joined in
        // the order of the checks on one thread, so the diagnostics are the same.
        let split = onTwoThreads ? constraints.count / 2 : constraints.count
        var laterConstraints = ValidationReport()
        var expectationReport = ValidationReport()
        var worker: WorkerThread?
        if onTwoThreads {
            let layout = self
            let count = constraints.count
            worker = WorkerThread {
                layout.checkConstraints(split..<count, declared, knownTraits: knownTraits, &laterConstraints)
                layout.checkExpectations(declared, variantLocations: variantLocations, &expectationReport)
            }
            worker?.start()
        }
        checkNames(&found)
        checkViews(declared, &found)
        if let margins = containerMargins { checkMargins(margins, of: Layout.containerName, at: containerMarginsLocation, &found) }
        checkMetrics(&found)
        found.append(variantReport)
        checkConstraints(0..<split, declared, knownTraits: knownTraits, &found)
        if let worker {
            worker.join()
            found.append(laterConstraints)
        }
        checkParallel { found.report($0, at: $1, severity: $2, notes: $3) }
        if worker != nil {
            found.append(expectationReport)
        } else {
            checkExpectations(declared, variantLocations: variantLocations, &found)
        }
        var sorted = found.inSourceOrder()
        suggestViews(&sorted)
        return sorted
    }

    /// Layouts with at least this many constraints are validated on two
    /// threads when two are available (``validate()``).
    package static let parallelValidationThreshold = 50_000
}

/// The diagnostics ``Layout/validate()`` collects, in the order its checks
/// report them.
private struct ValidationReport {
    var found: [Diagnostic] = []

    /// Appends another list's diagnostics after this one's.
    mutating func append(_ other: ValidationReport) { found += other.found }

    mutating func report(_ kind: DiagnosticKind, at location: SourceLocation?, severity: Diagnostic.Severity = .error,
                         notes: [Diagnostic.Note] = []) {
        found.append(Diagnostic(severity, kind, at: location, notes: notes))
    }

    /// The numeric range (``NumericRange``): a warning
    /// (`numberBeyondPreciseRange`) beyond the precise range, an error
    /// (`numberOutsideAcceptedRange`) outside the accepted one.
    mutating func checkMagnitude(_ x: Double, _ field: @autoclosure () -> String, at location: SourceLocation?) {
        switch NumericRange.magnitude(x) {
        case .precise: break
        case .imprecise(let limit):
            report(.numberBeyondPreciseRange(field: field(), value: x, limit: limit), at: location, severity: .warning)
        case .refused(let limit): report(.numberOutsideAcceptedRange(field: field(), value: x, limit: limit), at: location)
        }
    }

    /// The diagnostics in source order.
    func inSourceOrder() -> [Diagnostic] {
        // Why a stable sort by location: diagnostics read top to bottom, like a
        // compiler's; those without a location keep their order at the end.
        return found.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (l?, r?): return l != r ? l < r : a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
    }
}

// MARK: Declarations

extension Layout {
    /// A container's or variant's size: its magnitude, then
    /// `invalidContainerSize` for a width or height that is not finite and >= 0.
    private func checkSize(_ size: ContainerSize, what: String, at location: SourceLocation?, _ found: inout ValidationReport) {
        found.checkMagnitude(size.width, "\(what) width", at: location)
        if let height = size.height { found.checkMagnitude(height, "\(what) height", at: location) }
        if !size.width.isFinite || size.width < 0 {
            found.report(.invalidContainerSize("\(what) width \(formatNumber(size.width)) must be finite and >= 0"), at: location)
        }
        if let height = size.height, !height.isFinite || height < 0 {
            found.report(.invalidContainerSize("\(what) height \(formatNumber(height)) must be finite and >= 0"), at: location)
        }
    }

    /// The names of views, metrics, variants and traits: `invalidName` for
    /// one that is not an identifier (traits in sorted order, at the container line).
    private func checkNames(_ found: inout ValidationReport) {
        for view in views where !isValidName(view.name) {
            found.report(.invalidName(view.name, what: "view"), at: view.location)
        }
        for metric in metrics where !isValidName(metric.name) {
            found.report(.invalidName(metric.name, what: "metric"), at: metric.location)
        }
        for variant in variants where !isValidName(variant.name) {
            found.report(.invalidName(variant.name, what: "variant"), at: variant.location)
        }
        // Why a loop through a pointer: `constraints.flatMap(\.traits)` copied
        // every constraint to read its (almost always empty) traits.
        var traits = Set(containerTraits + variants.flatMap(\.traits))
        constraints.withUnsafeBufferPointer { constraints in
            guard let base = constraints.baseAddress else { return }
            for i in constraints.indices where !base[i].traits.isEmpty { traits.formUnion(base[i].traits) }
        }
        for trait in traits.sorted() where !isValidName(trait) {
            found.report(.invalidName(trait, what: "trait"), at: containerLocation)
        }
    }

    /// Each view in turn: `reservedName` for `super`, `duplicateView` for a
    /// second declaration, then its margins and its content.
    private func checkViews(_ declared: NameIndex, _ found: inout ValidationReport) {
        for (index, view) in views.enumerated() {
            if view.name == Layout.containerName {
                found.report(.reservedName(view.name, meaning: "the container"), at: view.location)
            } else if let first = declared[view.name], first != index {
                let previous = views[first].location
                found.report(.duplicateView(view.name), at: view.location,
                             notes: [.init("first declared here", at: previous)])
            }
            if let margins = view.margins { checkMargins(margins, of: view.name, at: view.marginsLocation ?? view.location, &found) }
            let content = view.content
            if !content.isEmpty { checkContent(content, of: view, &found) }
        }
    }

    /// A view's content lines: intrinsic size, then hugging and compression
    /// priorities, then baselines.
    private func checkContent(_ content: ViewContent, of view: ViewDeclaration, _ found: inout ValidationReport) {
        checkIntrinsicSize(content, of: view, &found)
        checkContentPriorities(content, of: view, &found)
        checkBaselines(content, of: view, &found)
    }

    /// Intrinsic width and height: `nonFiniteNumber`, `negativeIntrinsicSize`
    /// or their magnitude.
    private func checkIntrinsicSize(_ content: ViewContent, of view: ViewDeclaration, _ found: inout ValidationReport) {
        if let size = content.intrinsicSize {
            let at = content.intrinsicLocation ?? view.location
            for (axis, value) in [("width", size.width), ("height", size.height)] {
                guard let value else { continue }
                if !value.isFinite {
                    found.report(.nonFiniteNumber(field: "intrinsic \(axis) of '\(view.name)'"), at: at)
                } else if value < 0 {
                    found.report(.negativeIntrinsicSize(axis: axis, value: value), at: at)
                } else {
                    found.checkMagnitude(value, "intrinsic \(axis) of '\(view.name)'", at: at)
                }
            }
        }
    }

    /// Hugging, then compression priorities: `nonFiniteNumber` or `priorityOutOfRange`.
    private func checkContentPriorities(_ content: ViewContent, of view: ViewDeclaration, _ found: inout ValidationReport) {
        for (keyword, priorities, at) in [("hugging", content.hugging, content.huggingLocation),
                                          ("compression", content.compression, content.compressionLocation)] {
            guard let priorities else { continue }
            for p in [priorities.horizontal, priorities.vertical] {
                if !p.rawValue.isFinite {
                    found.report(.nonFiniteNumber(field: "\(keyword) priority of '\(view.name)'"), at: at ?? view.location)
                } else if !p.isValid {
                    found.report(.priorityOutOfRange(p.rawValue), at: at ?? view.location)
                }
            }
        }
    }

    /// First and last baselines: `nonFiniteNumber` or their magnitude.
    private func checkBaselines(_ content: ViewContent, of view: ViewDeclaration, _ found: inout ValidationReport) {
        if let baselines = content.baselines {
            let at = content.baselinesLocation ?? view.location
            for (which, value) in [("first", baselines.first), ("last", baselines.last)] {
                if !value.isFinite {
                    found.report(.nonFiniteNumber(field: "\(which) baseline of '\(view.name)'"), at: at)
                } else {
                    found.checkMagnitude(value, "\(which) baseline of '\(view.name)'", at: at)
                }
            }
        }
    }

    /// A view's or the container's margins: one `nonFiniteNumber` if any is
    /// not finite, else each one's magnitude.
    private func checkMargins(_ margins: EdgeInsets, of view: String, at location: SourceLocation?, _ found: inout ValidationReport) {
        for value in [margins.top, margins.left, margins.bottom, margins.right] where !value.isFinite {
            found.report(.nonFiniteNumber(field: "margin of '\(view)'"), at: location)
            return
        }
        for value in [margins.top, margins.left, margins.bottom, margins.right] {
            found.checkMagnitude(value, "margin of '\(view)'", at: location)
        }
    }

    /// Each metric: `duplicateMetric` for a second declaration,
    /// `nonFiniteNumber`, and its value's magnitude.
    private func checkMetrics(_ found: inout ValidationReport) {
        var metricLocations: [String: SourceLocation?] = [:]
        for metric in metrics {
            if let previous = metricLocations[metric.name] {
                found.report(.duplicateMetric(metric.name), at: metric.location, notes: [.init("first declared here", at: previous)])
            } else {
                metricLocations[metric.name] = metric.location
            }
            if !metric.value.isFinite { found.report(.nonFiniteNumber(field: "metric '\(metric.name)'"), at: metric.location) }
            found.checkMagnitude(metric.value, "metric '\(metric.name)'", at: metric.location)
        }
    }

    /// Each variant: `reservedName` for `default`, `ambiguous` or
    /// `unsatisfiable`, `duplicateVariant` for a second declaration, then its
    /// size. Returns where each variant name was first declared.
    private func checkVariants(_ found: inout ValidationReport) -> [String: SourceLocation?] {
        var variantLocations: [String: SourceLocation?] = [:]
        for variant in variants {
            if variant.name == Layout.defaultVariantName {
                found.report(.reservedName(variant.name, meaning: "the container line's own variant"), at: variant.location)
            } else if variant.name == "ambiguous" || variant.name == "unsatisfiable" {
                found.report(.reservedName(variant.name, meaning: "a keyword of 'expect'"), at: variant.location)
            } else if let previous = variantLocations[variant.name] {
                found.report(.duplicateVariant(variant.name), at: variant.location, notes: [.init("first declared here", at: previous)])
            } else {
                variantLocations[variant.name] = variant.location
            }
            checkSize(variant.size, what: "variant '\(variant.name)'", at: variant.location, &found)
        }
        return variantLocations
    }

    // Why the index first: almost every name is a declared view, and comparing
    // each with the container's name first was a string comparison per use.
    @inline(__always) private func isDeclared(_ name: String, _ declared: NameIndex) -> Bool {
        declared.contains(name) || name == Layout.containerName
    }
    /// The first ``suggestionLimit`` `undeclaredView` diagnostics, in
    /// source order, given the closest declared name.
    ///
    /// Why after the checks and only so many: a suggestion compares the name
    /// with every view, so a file of 10^5 views naming 10^5 missing ones
    /// would take hours (a test of 50,000 views with a thousand missing
    /// names ran for minutes), and a front end shows the first 50 errors.
    /// Done once the reports are joined and sorted, the same diagnostics
    /// get suggestions however many threads checked them, and the first
    /// errors a front end shows have theirs.
    /// The `.layout` parser calls it too, for its margins and content lines.
    /// - Complexity: O(``suggestionLimit`` × views).
    package func suggestViews(_ diagnostics: inout [Diagnostic]) {
        var left = Self.suggestionLimit
        var candidates: NameSuggestion.Candidates?
        for i in diagnostics.indices where left > 0 {
            guard case .undeclaredView(let name, nil) = diagnostics[i].kind else { continue }
            left -= 1
            let among = candidates ?? NameSuggestion.Candidates(views.map(\.name))
            candidates = among
            guard let suggestion = NameSuggestion.closest(to: name, among: among) else { continue }
            diagnostics[i].kind = .undeclaredView(name, suggestion: suggestion)
        }
    }

    /// How many `undeclaredView` diagnostics get a suggestion (``suggestViews(_:)``).
    package static let suggestionLimit = 64
}

// MARK: Constraints

extension Layout {
    /// The traits the container and the variants have (a `when` naming
    /// another is warned about).
    private var knownTraits: Set<String> {
        var known = Set(containerTraits)
        for variant in variants { known.formUnion(variant.traits) }
        return known
    }

    /// The constraints at `range`, each in order (`checkConstraint`).
    private func checkConstraints(_ range: Range<Int>, _ declared: NameIndex, knownTraits: Set<String>,
                                  _ found: inout ValidationReport) {
        var memo = NameMemo(lookups: 2 * range.count)
        constraints.withUnsafeBufferPointer { constraints in
            guard let base = constraints.baseAddress else { return }
            for i in range { checkConstraint(base + i, declared, &memo, knownTraits: knownTraits, &found) }
        }
    }

    /// One constraint: its views, its attributes and multiplier, its constant
    /// and priority, then its identifier and traits.
    ///
    /// Why a pointer to each element: the array's iterator, `buffer[i]`
    /// bound to a `let` and even a `borrowing` parameter made a copy of the
    /// whole 208-byte constraint (a retain and release of every reference in
    /// it, 145 instructions); reading each field through the pointer does not.
    // Why the per-constraint checks are inlined: they run once per constraint
    // of every file; as calls they cost 8% of validation (callgrind).
    @inline(__always) private func checkConstraint(_ constraint: UnsafePointer<LayoutConstraint>, _ declared: NameIndex,
                                 _ memo: inout NameMemo, knownTraits: Set<String>, _ found: inout ValidationReport) {
        checkConstraintViews(constraint, declared, &memo, &found)
        checkConstraintAttributes(constraint, &found)
        checkConstraintNumbers(constraint, &found)
        checkConstraintLabels(constraint, knownTraits: knownTraits, &found)
    }

    /// `undeclaredView` for the first item, then the second.
    @inline(__always) private func checkConstraintViews(_ constraint: UnsafePointer<LayoutConstraint>, _ declared: NameIndex,
                                      _ memo: inout NameMemo, _ found: inout ValidationReport) {
        @inline(__always) func isDeclared(_ name: String) -> Bool {
            if memo[name] != nil { return true }
            guard self.isDeclared(name, declared) else { return false }
            memo.insert(name, 0)
            return true
        }
        let start = constraint.pointee.location
        if !isDeclared(constraint.pointee.first.item) {
            found.report(.undeclaredView(constraint.pointee.first.item, suggestion: nil),
                         at: constraint.pointee.first.location ?? start)
        }
        if let second = constraint.pointee.second, !isDeclared(second.item) {
            found.report(.undeclaredView(second.item, suggestion: nil), at: second.location ?? start)
        }
    }

    /// Two items: `locationAgainstDimension`, `axisMismatch` or
    /// `mixedDirection`, then the multiplier (`checkMultiplier`).
    /// One item: `locationAgainstConstant` for a location.
    @inline(__always) private func checkConstraintAttributes(_ constraint: UnsafePointer<LayoutConstraint>, _ found: inout ValidationReport) {
        let start = constraint.pointee.location
        let first = constraint.pointee.first.attribute
        if let second = constraint.pointee.second {
            let at = second.location ?? start
            if first.isDimension != second.attribute.isDimension {
                found.report(.locationAgainstDimension(first: first, second: second.attribute), at: at)
            } else if first.isLocation && first.axis != second.attribute.axis {
                found.report(.axisMismatch(first: first, second: second.attribute), at: at)
            } else if let a = first.horizontalFamily, let b = second.attribute.horizontalFamily, a != b {
                found.report(.mixedDirection(first: first, second: second.attribute), at: at)
            }
            checkMultiplier(constraint, &found)
        } else if first.isLocation {
            found.report(.locationAgainstConstant(first), at: constraint.pointee.locations?.constant ?? start)
        }
    }

    /// The multiplier of a two-item constraint: `nonFiniteNumber`,
    /// `numberOutsideAcceptedRange`, `numberBeyondPreciseRange` (a warning)
    /// or `zeroMultiplierOnLocation`, the first that applies.
    @inline(__always) private func checkMultiplier(_ constraint: UnsafePointer<LayoutConstraint>, _ found: inout ValidationReport) {
        let start = constraint.pointee.location
        let first = constraint.pointee.first.attribute
        if !constraint.pointee.multiplier.isFinite {
            found.report(.nonFiniteNumber(field: "multiplier"), at: constraint.pointee.locations?.multiplier ?? start)
        } else if case .refused(let limit) = NumericRange.multiplier(constraint.pointee.multiplier) {
            found.report(.numberOutsideAcceptedRange(field: "multiplier", value: constraint.pointee.multiplier, limit: limit),
                         at: constraint.pointee.locations?.multiplier ?? start)
        } else if case .imprecise(let limit) = NumericRange.multiplier(constraint.pointee.multiplier) {
            found.report(.numberBeyondPreciseRange(field: "multiplier", value: constraint.pointee.multiplier, limit: limit),
                         at: constraint.pointee.locations?.multiplier ?? start, severity: .warning)
        } else if constraint.pointee.multiplier == 0 && first.isLocation {
            found.report(.zeroMultiplierOnLocation(first), at: constraint.pointee.locations?.multiplier ?? start)
        }
    }

    /// The constant: `nonFiniteNumber` and its magnitude; the priority:
    /// `nonFiniteNumber` or `priorityOutOfRange`.
    @inline(__always) private func checkConstraintNumbers(_ constraint: UnsafePointer<LayoutConstraint>, _ found: inout ValidationReport) {
        let start = constraint.pointee.location
        if !constraint.pointee.constant.isFinite {
            found.report(.nonFiniteNumber(field: "constant"), at: constraint.pointee.locations?.constant ?? start)
        }
        found.checkMagnitude(constraint.pointee.constant, "constant", at: constraint.pointee.locations?.constant ?? start)
        if !constraint.pointee.priority.rawValue.isFinite {
            found.report(.nonFiniteNumber(field: "priority"), at: constraint.pointee.locations?.priority ?? start)
        } else if !constraint.pointee.priority.isValid {
            found.report(.priorityOutOfRange(constraint.pointee.priority.rawValue), at: constraint.pointee.locations?.priority ?? start)
        }
    }

    /// `invalidIdentifier` for an identifier with a line break; a
    /// `traitNeverActive` warning for each trait no container or variant has.
    @inline(__always) private func checkConstraintLabels(_ constraint: UnsafePointer<LayoutConstraint>, knownTraits: Set<String>,
                                       _ found: inout ValidationReport) {
        let start = constraint.pointee.location
        if let identifier = constraint.pointee.identifier, identifier.contains(where: \.isNewline) {
            found.report(.invalidIdentifier(identifier), at: start)
        }
        for trait in constraint.pointee.traits where !knownTraits.contains(trait) {
            found.report(.traitNeverActive(trait), at: start, severity: .warning)
        }
    }
}

// MARK: Expectations

extension Layout {
    /// Each expectation: `undeclaredVariant`, then for a frame
    /// `undeclaredView`, `nonFiniteNumber` per component and each component's
    /// magnitude; for `ambiguous`, `undeclaredView` per name.
    private func checkExpectations(_ declared: NameIndex, variantLocations: [String: SourceLocation?],
                                   _ found: inout ValidationReport) {
        for expectation in expectations {
            if let variant = expectation.variant, variant != Layout.defaultVariantName, variantLocations[variant] == nil {
                found.report(.undeclaredVariant(variant), at: expectation.location)
            }
            switch expectation.kind {
            case .frame(let view, let frame):
                if !isDeclared(view, declared) { found.report(.undeclaredView(view, suggestion: nil), at: expectation.location) }
                for component in FrameComponent.allCases where !frame[component].isFinite {
                    found.report(.nonFiniteNumber(field: "expected \(component)"), at: expectation.location)
                }
                for component in FrameComponent.allCases {
                    found.checkMagnitude(frame[component], "expected \(component)", at: expectation.location)
                }
            case .ambiguous(let names):
                for name in names where !isDeclared(name, declared) {
                    found.report(.undeclaredView(name, suggestion: nil), at: expectation.location)
                }
            case .unsatisfiable:
                break
            }
        }
    }
}

// MARK: Nearly parallel rows

extension Layout {
    /// Reports each constraint whose multiplier nearly equals another's on
    /// the same (first, second) attribute pair.
    ///
    /// Why it looks at so little: every nearly parallel pair has a multiplier
    /// other than 0 and ±1 (the other side differs from it by a hair), and two
    /// multipliers that are not near each other cannot make one, whatever
    /// their attributes. So the non-unit multipliers are sorted as numbers
    /// first, and only those with a near neighbour (or near ±1) are grouped by
    /// their attributes, which costs hashing names. A grid's aspect ratios
    /// (all exactly 2) stop at the sort. Swapped pairs
    /// (`b.x = a.x * 0.9999999`) are not compared.
    /// - Complexity: O(*n*) plus O(*k* log *k*) for *k* non-unit multipliers.
    func checkParallel(_ report: (DiagnosticKind, SourceLocation?, Diagnostic.Severity, [Diagnostic.Note]) -> Void) {
        // Why a pointer to each element: see `checkConstraint` above
        // (iterating the array copies each 208-byte constraint).
        constraints.withUnsafeBufferPointer { all in
            guard let found = Self.suspectMultipliers(all) else { return }
            var suspect = found.suspect
            let nearUnit = found.nearUnit
            // Why sorted and searched by halves: with thousands of suspects
            // a linear `contains` per constraint made validation quadratic,
            // O(constraints × suspects); sorted, O(constraints × log suspects)
            // (evidence: docs/measurements.md#m-front-end-costs).
            suspect.sort()
            func isSuspect(_ m: Double) -> Bool {
                var lo = 0, hi = suspect.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if suspect[mid] < m { lo = mid + 1 } else { hi = mid }
                }
                return lo < suspect.count && suspect[lo] == m
            }

            struct Key: Hashable {
                var first: ItemAttribute
                var second: ItemAttribute
            }
            var groups: [Key: [Int]] = [:]
            for i in all.indices where isSuspect(all[i].multiplier) {
                guard let second = all[i].second else { continue }
                groups[Key(first: all[i].first, second: second), default: []].append(i)
            }
            if nearUnit {
                for i in all.indices where abs(all[i].multiplier) == 1 {
                    guard let second = all[i].second else { continue }
                    let key = Key(first: all[i].first, second: second)
                    if groups[key] != nil { groups[key]?.append(i) }
                }
            }
            var flagged = [Bool](repeating: false, count: all.count)
            // Why the groups in order of their first constraint: diagnostics
            // without a location (a layout built in code) keep the order they
            // were reported in, which must not be the dictionary's.
            let ordered = groups.values.filter { $0.count > 1 }.map { ($0.min() ?? 0, $0) }.sorted { $0.0 < $1.0 }
            for (_, members) in ordered {
                let sorted = members.sorted { all[$0].multiplier != all[$1].multiplier
                    ? all[$0].multiplier < all[$1].multiplier : $0 < $1 }
                for (a, b) in zip(sorted, sorted.dropFirst()) {
                    guard NumericRange.nearlyParallel(all[a].multiplier, all[b].multiplier) else { continue }
                    // The one written later is reported, pointing at the earlier.
                    let (later, earlier) = a > b ? (a, b) : (b, a)
                    guard !flagged[later] else { continue }
                    flagged[later] = true
                    report(.nearlyParallel(multiplier: all[later].multiplier, other: all[earlier].multiplier),
                           all[later].locations?.multiplier ?? all[later].location, .warning,
                           [.init("the other constraint is here", at: all[earlier].location)])
                }
            }
        }
    }

    /// The multipliers that may make a nearly parallel pair: those near ±1
    /// (`nearUnit` then) or near another non-unit multiplier; nil when none.
    /// - Complexity: O(*n*) plus O(*k* log *k*) for *k* distinct non-unit multipliers.
    static func suspectMultipliers(_ all: UnsafeBufferPointer<LayoutConstraint>) -> (suspect: [Double], nearUnit: Bool)? {
        // The distinct non-unit multipliers: few in any layout (a grid's
        // are all 2). Why an array searched linearly, not a Set: the first
        // use of `Set<Double>` costs a runtime conformance lookup of
        // hundreds of thousands of instructions, more than validating a
        // small layout; past 32 distinct values everything is sorted.
        var values: [Double] = []
        var distinctOnly = true
        for i in all.indices {
            let m = all[i].multiplier
            guard m.isFinite, m != 0, abs(m) != 1, all[i].second != nil else { continue }
            if distinctOnly && values.contains(m) { continue }
            values.append(m)
            if values.count > 32 { distinctOnly = false }
        }
        guard !values.isEmpty else { return nil }
        values.sort()
        var suspect: [Double] = []
        var nearUnit = false
        for (k, m) in values.enumerated() {
            if NumericRange.nearlyParallel(abs(m), 1) { suspect.append(m); nearUnit = true }
            if k > 0, NumericRange.nearlyParallel(values[k - 1], m) {
                suspect.append(values[k - 1])
                suspect.append(m)
            }
        }
        guard !suspect.isEmpty else { return nil }
        return (suspect, nearUnit)
    }
}

/// Whether `name` matches `[A-Za-z_][A-Za-z0-9_]*`, the names of the `.layout` format.
public func isValidName(_ name: String) -> Bool {
    @inline(__always) func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
    @inline(__always) func check<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        guard let first = bytes.first, isLetter(first) else { return false }
        for b in bytes where !(isLetter(b) || (b >= 48 && b <= 57)) { return false }
        return true
    }
    // Why the contiguous path: the generic walk over `utf8` cost about 500
    // instructions per name (evidence: docs/measurements.md#m-front-end-costs).
    return name.utf8.withContiguousStorageIfAvailable { check($0) } ?? check(name.utf8)
}
