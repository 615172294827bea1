import BenchMetrics

import Cassowary
import LayoutModel
import LayoutSolving

/// The native Cassowary solver behind the ``LayoutSolver`` protocol.
///
/// The container's size is a pair of edit variables at ``containerStrength``,
/// a soft level above every layout priority: resizing is a dual-simplex
/// re-solve, and a size the required constraints cannot meet shows up as a
/// non-zero error on that level, which is reported as unsatisfiable (with a
/// minimal conflict) instead of being silently moved.
public final class CassowaryLayoutSolver: LayoutSolver {
    public let name = "cassowary"
    public let capabilities = SolverCapabilities(incremental: true, editVariables: true, prioritySemantics: .lexicographic,
                                                 ambiguityAnalysis: true, conflictExplanation: true)

    /// The container's edit strength: soft, but above every priority 1...999.
    public static let containerStrength = Strength.soft(1000)
    /// A container size counts as met when the solved size is this close.
    public static let containerTolerance = Tolerance(absolute: 1e-6, relative: 1e-9)

    /// Why `@exclusivity(unchecked)` on this and the other stored properties
    /// read or written once per row of a load (`variables`, `handles`,
    /// `origins`): every access to a class's stored property is a dynamic
    /// exclusivity check (a lock-free set in thread-local storage), six per
    /// row here, about 2% of a grid's whole run (callgrind); a solver is
    /// used by one thread at a time and no access to these overlaps another.
    @exclusivity(unchecked) var solver = CassowarySolver()
    /// The loaded layout, validated once by whoever made it.
    var validated: ValidatedLayout?
    var layout: Layout? { validated?.layout }
    /// The loaded variant's lowered system, slimmed once loaded
    /// (``slimmed(_:)``): its container rows only.
    var system: LoweredSystem?
    /// The loaded variant's soft rows, which an answer's level errors read
    /// (``SoftRows``: flat arrays, not a row struct and a terms array each).
    var softRows = SoftRows()
    /// Solver variables by ``FrameVariable/index``.
    @exclusivity(unchecked) var variables: [CassowaryVariable] = []
    /// Whether ``variables`` are every variable of the solver in id order
    /// (a fresh solver's, as every load makes): an answer then reads
    /// ``CassowarySolver/allValues`` instead of copying them.
    var variablesAreAll = false
    /// Handles of the active layout constraints that are in the solver, by
    /// constraint index (nil: not in the solver).
    /// Why arrays, not dictionaries: both are dense (constraint indices and
    /// the solver's constraint ids count up from 0), and hash tables of a
    /// million entries cost cache misses on every add (evidence:
    /// docs/measurements.md#m-cassowary-costs).
    @exclusivity(unchecked) var handles = HandleTable()
    /// Where each solver constraint came from, by the handle's id.
    @exclusivity(unchecked) var origins = OriginTable()
    /// The definition each row of a load is written into (``ConstraintDefinition/assign(_:variables:)``).
    @exclusivity(unchecked) var scratch = ConstraintDefinition(terms: [], constant: 0, relation: .equal, strength: .required)
    /// Active constraints that could not be added (they conflict with earlier ones).
    var failed: [LoweredConstraint.Origin] = []
    var firstConflict: [ConflictMember] = []
    var heightEdited = false

    /// Whether solutions carry the ambiguity analysis (`ambiguous`); without
    /// it they say nil ("cannot tell"), as the harness's timing pass asks.
    public let analyseAmbiguity: Bool

    public init(analyseAmbiguity: Bool = true) {
        self.analyseAmbiguity = analyseAmbiguity
    }

    /// The underlying solver (for statistics and dumps).
    public var cassowary: CassowarySolver { solver }

    /// Pivots since the last ``prepare(_:variant:)`` (which starts a new tableau).
    public var counters: [Counter: Double] { [.pivots: Double(solver.statistics.pivots)] }

    /// Loads a variant of `layout`, lowering it a row at a time: each row
    /// goes into the solver as it is made, and only the rows an answer reads
    /// again are kept (``slimmed(_:)``). Why: the whole lowered system next
    /// to the solver's own copy of it was the peak of a load (grid 10^5:
    /// about 117 MB of 700).
    ///
    /// The constraints go in in the layout's structural order (by the views
    /// they name: InsertionOrder.swift in LayoutModel), so that no order of a
    /// file's lines makes the load, solve or resize grow faster than the
    /// layout (docs/measurements.md#m-2026-11-29-structural-order). Why the
    /// file's order after a conflict: which required constraint cannot be
    /// met is the one that comes last among those it conflicts with (as in
    /// Auto Layout and kiwi), so the file's order is part of the answer of
    /// an unsatisfiable layout; the load starts again in that order. (A file
    /// whose constraints come view by view, and a layout of fewer than 2,048
    /// constraints, keep their order: see InsertionOrder.swift.)
    /// - Throws: ``SolverError`` (an unknown variant; numerical trouble).
    /// - Complexity: O(*v* + *c* log *k*) lowering (*k* the most constraints
    ///   on one view), plus each row's insertion; twice for a layout with a
    ///   conflict.
    public func prepare(_ layout: ValidatedLayout, variant: String?) throws(SolverError) {
        if try !load(layout, variant: variant, structural: true) {
            _ = try load(layout, variant: variant, structural: false)
        }
    }

    /// ``prepare(_:variant:)`` in one order.
    /// - Returns: false when the constraints came in another order than the
    ///   file's and one conflicted (the load stopped there); true when the
    ///   load is complete.
    /// - Throws: ``SolverError`` (an unknown variant; numerical trouble).
    func load(_ layout: ValidatedLayout, variant: String?, structural: Bool) throws(SolverError) -> Bool {
        var failure: SolverError?
        var progress = LoadProgress()
        var size: ContainerSize?
        var conflicted = false
        var reordered = false
        let lowered: LoweredSystem
        do throws(LoweringError) {
            lowered = try layout.lowered(variant: variant, structural: structural, start: { system, plan in
                size = system.size
                reordered = plan.reordered
                self.begin(system, of: layout, expectedRows: plan.rows)
                progress.reserve(rows: plan.rows)
            }, visit: { row in
                guard let size else { return false }
                do throws(SolverError) {
                    try loadRow(row, size: size, into: &progress)
                } catch {
                    failure = error
                    return false
                }
                if reordered && !failed.isEmpty {
                    conflicted = true
                    return false
                }
                return true
            })
        } catch {
            throw SolverError(error)
        }
        if let failure { throw failure }
        if conflicted { return false }
        try finishLoad(lowered, progress)
        return true
    }

    public func prepare(_ system: LoweredSystem, of layout: ValidatedLayout) throws(SolverError) {
        guard system.isWellFormed(for: layout.layout) else {
            throw .mismatchedSystem(variant: system.variant)
        }
        try build(system, of: layout)
    }

    /// A new, empty solver for `system` (its rows not yet added): the
    /// variables, and room for `expectedRows` rows.
    func begin(_ system: LoweredSystem, of validated: ValidatedLayout, expectedRows: Int) {
        self.validated = validated
        let layout = validated.layout
        self.system = system
        softRows = SoftRows()
        solver = CassowarySolver()
        // A new load: handles of the previous one must not reach this solver
        // (its constraint numbers restart at 0).
        load = LoadID.next()
        extra = [:]
        handles = HandleTable(count: layout.constraints.count)
        origins.removeAll()
        origins.reserveCapacity(expectedRows + 2)
        failed = []
        firstConflict = []
        heightEdited = false
        // Why only the container's variables are named: names serve dumps and
        // the edits' labels; making "view.component" for each of 4 × views
        // variables is a string built per variable, O(views), on every load
        // (evidence: docs/measurements.md#m-cassowary-costs).
        // Every row and the two container edits.
        solver.reserveCapacity(variables: system.variableCount, constraints: expectedRows + 2)
        // In canonical order, the container's four first (view 0).
        let containerNames = FrameComponent.allCases.map { system.name(of: FrameVariable(view: 0, component: $0)) }
        variables = solver.makeVariables(system.variableCount, names: containerNames)
        variablesAreAll = variables.count == solver.allValues.count && variables.indices.allSatisfy { variables[$0].id == $0 }
    }

    /// Builds the tableau of a lowered system (well formed for `validated`).
    func build(_ system: LoweredSystem, of validated: ValidatedLayout) throws(SolverError) {
        begin(system, of: validated, expectedRows: system.constraints.count)
        var progress = LoadProgress()
        progress.reserve(rows: system.constraints.count)
        // Container rows first wherever they are (lowering puts them first).
        for row in system.constraints where row.origin.isContainer { try loadRow(row, size: system.size, into: &progress) }
        for row in system.constraints where !row.origin.isContainer { try loadRow(row, size: system.size, into: &progress) }
        try finishLoad(system, progress)
    }

    /// What a load has done so far: the rows kept for the slimmed system
    /// (``slimmed(_:)``), and whether the container's size is applied.
    struct LoadProgress {
        var kept: [LoweredConstraint] = []
        var soft = SoftRows()
        var sizeApplied = false

        /// Room for the soft rows of a load of `rows` rows, up to 4,096 (a
        /// larger load grows from there). Why: a small screen's load then
        /// allocates them once, where growing two arrays by doubling added
        /// about 3% to the allocations of a corpus case's load.
        mutating func reserve(rows: Int) {
            kept.reserveCapacity(4)
            soft.reserveCapacity(rows: min(rows, 1 << 12), terms: min(rows, 1 << 12))
        }
    }

    /// Adds one row of the system being loaded. The container's x and y rows
    /// are required constraints and its width and height are edits, applied
    /// (``applySize(_:)``) before the first other row: added first, the
    /// cheap order (see the benchmarks). A conflict is recorded, not thrown.
    /// - Throws: ``SolverError`` for numerical trouble.
    func loadRow(_ row: LoweredConstraint, size: ContainerSize, into progress: inout LoadProgress) throws(SolverError) {
        if case .container(let component) = row.origin {
            progress.kept.append(row)
            progress.soft.append(row)
            guard component == .x || component == .y else { return }
            do throws(CassowaryError) {
                let handle = try solver.addConstraint(definition(row, label: "container \(component)"))
                setOrigin(handle, row.origin)
            } catch { throw Self.wrap(error) }
            return
        }
        if !progress.sizeApplied {
            do throws(CassowaryError) { try applySize(size) } catch { throw Self.wrap(error) }
            progress.sizeApplied = true
        }
        progress.soft.append(row)
        switch row.origin {
        case .constraint(let index): try add(index, row)
        case .content: try add(nil, row)
        case .container: break
        }
    }

    /// Ends a load: the size applied if no row did it, and the system kept
    /// slimmed to `progress.kept`.
    func finishLoad(_ system: LoweredSystem, _ progress: LoadProgress) throws(SolverError) {
        if !progress.sizeApplied {
            do throws(CassowaryError) { try applySize(system.size) } catch { throw Self.wrap(error) }
        }
        var slim = system
        slim.constraints = progress.kept
        self.system = slim
        softRows = progress.soft
    }

    /// The rows an answer reads again, of a system whose rows are all in
    /// the solver: the container rows (``LoweredSystem/resize(to:)``
    /// replaces them in place), in their order; the soft rows, whose level
    /// errors an answer reads, are kept apart as ``SoftRows``. Why: the
    /// solver's records hold every row already, so keeping the whole lowered
    /// system as well held a second copy of the layout for the solver's
    /// lifetime (about 146 bytes a constraint: grid 10^5, 117 MB); the rare
    /// paths that need the required rows (a container size the layout cannot
    /// take, a change of direction) lower the variant again (``fullSystem()``).
    /// - Complexity: O(rows).
    static func slimmed(_ system: LoweredSystem) -> LoweredSystem {
        var slim = system
        slim.constraints = system.constraints.filter { $0.origin.isContainer }
        return slim
    }

    /// The loaded variant's whole lowered system at the current size (nil
    /// if it cannot be lowered again, which a loaded layout always can).
    /// - Complexity: O(*v* + *c*), a lowering.
    func fullSystem() -> LoweredSystem? {
        guard let validated, let system, var full = try? validated.lowered(variant: system.variant) else { return nil }
        full.resize(to: system.size)
        return full
    }

    public func solve() throws(SolverError) -> Solution { try solution() }

    /// The current load (``ConstraintHandle``s of other loads are refused).
    var load = LoadID.next()
    /// Extra constraints added through ``addConstraint(_:)`` in this load, by handle.
    var extra: [ConstraintHandle: CassowaryConstraint] = [:]
    var nextExtra = 0

    public func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> ConstraintHandle {
        guard let layout, let system else { throw .notLoaded }
        let row = try layout.loweredRow(of: constraint, variant: system.variant)
        do {
            let added = try solver.addConstraint(definition(row, label: constraint.displayName))
            nextExtra += 1
            let handle = ConstraintHandle(load: load, index: nextExtra)
            extra[handle] = added
            return handle
        } catch {
            throw Self.wrap(error)
        }
    }

    public func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) {
        guard handle.load == load, let constraint = extra.removeValue(forKey: handle) else { throw .staleHandle(handle) }
        do { try solver.removeConstraint(constraint) } catch { throw Self.wrap(error) }
    }

    public func resize(to size: ContainerSize) throws(SolverError) -> Solution {
        guard system != nil else { throw .notLoaded }
        try size.validatedForResize()
        do { try applySize(size) } catch { throw Self.wrap(error) }
        // In place: no local copy of the system may hold its storage, or the
        // container rows' update would copy every row.
        system?.resize(to: size)
        return try solution()
    }

    public func switchVariant(to variant: String?) throws(SolverError) -> Solution {
        guard let validated, system != nil else { throw .notLoaded }
        let layout = validated.layout
        let new: LoweredSystem
        do { new = try validated.lowered(variant: variant) } catch { throw SolverError(error) }
        let newRows = Dictionary(uniqueKeysWithValues: new.constraints.compactMap { row -> (Int, LoweredConstraint)? in
            if case .constraint(let i) = row.origin { return (i, row) } else { return nil }
        })
        // Why compare rows when the direction changes: a leading-side
        // constraint lowers to a different row right to left, so it is
        // replaced; everything else keeps its place in the tableau.
        var changed = Set<Int>()
        if let old = system, Layout.isRightToLeft(layout.variant(named: old.variant) ?? layout.allVariants[0])
            != Layout.isRightToLeft(layout.variant(named: new.variant) ?? layout.allVariants[0]) {
            // Every row of the old variant, required ones too: the loaded system is slimmed.
            for row in (fullSystem() ?? old).constraints {
                if case .constraint(let i) = row.origin, let other = newRows[i], other.expression != row.expression { changed.insert(i) }
            }
        }
        do {
            // Remove what the new variant does not have, then add what it adds.
            for index in handles.indices where newRows[index] == nil || changed.contains(index) {
                if let handle = handles[index] {
                    handles[index] = nil
                    try solver.removeConstraint(handle)
                    setOrigin(handle, nil)
                }
            }
        } catch {
            throw Self.wrap(error)
        }
        // Constraints that failed before are retried: their partners may be gone.
        let failedContent = Set(failed.filter { if case .content = $0 { return true } else { return false } })
        failed = []
        firstConflict = []
        system = new
        for index in newRows.keys.sorted() where handles.indices.contains(index) && handles[index] == nil {
            if let row = newRows[index] { try add(index, row) }
        }
        if !failedContent.isEmpty {
            for row in new.constraints where failedContent.contains(row.origin) { try add(nil, row) }
        }
        system = Self.slimmed(new)
        softRows = SoftRows(new.constraints)
        do { try applySize(new.size) } catch { throw Self.wrap(error) }
        return try solution()
    }

    // MARK: Internals

    /// The one mapping of the core's errors to the solver protocol's: a
    /// simplex that cycled is numerical trouble (with the row being added,
    /// when known), so the run goes on with a typed answer; anything else is
    /// an internal error.
    public static func wrap(_ error: CassowaryError, at name: String? = nil) -> SolverError {
        if case .numericalTrouble(let message) = error { return .numericalTrouble((name.map { "\($0): " } ?? "") + message) }
        return .backend(BackendError(solver: "cassowary", context: name, error))
    }

    func setOrigin(_ handle: CassowaryConstraint, _ origin: LoweredConstraint.Origin?) {
        guard handle.id >= 0 else { return }
        origins[id: handle.id] = origin
    }

    func origin(of handle: CassowaryConstraint) -> LoweredConstraint.Origin? {
        origins[id: handle.id]
    }

    func definition(_ row: LoweredConstraint, label: String) -> ConstraintDefinition {
        ConstraintDefinition(row, variables: variables, label: label)
    }

    /// Adds layout constraint `index` (nil: a content-size row, which stays
    /// for the whole load); a conflict is recorded, not thrown.
    func add(_ index: Int?, _ row: LoweredConstraint) throws(SolverError) {
        let handle: CassowaryConstraint
        do {
            // No label: a conflict is named through `origins`, and the name is
            // made only when an error needs it (it cost a string per constraint).
            scratch.assign(row, variables: variables)
            handle = try solver.addConstraint(scratch)
        } catch {
            try recordFailure(error, of: row)
            return
        }
        if let index, handles.indices.contains(index) { handles[index] = handle }
        setOrigin(handle, row.origin)
    }

    /// A row that could not be added: a conflict is recorded (the first
    /// one with its minimal explanation), anything else thrown. Why apart
    /// from ``add(_:_:)``: with the error's handling inline, every add paid
    /// for tearing down an optional error (about 1% of a grid's load).
    /// - Throws: ``SolverError`` for anything but a conflict.
    func recordFailure(_ error: CassowaryError, of row: LoweredConstraint) throws(SolverError) {
        guard case .unsatisfiable(_, let conflict) = error else {
            let name = layout.map { $0.describe(row.origin, size: system?.size ?? $0.container).name } ?? "row"
            throw Self.wrap(error, at: name)
        }
        failed.append(row.origin)
        if firstConflict.isEmpty, let layout, let system {
            let members = conflict.compactMap { origin(of: $0) } + [row.origin]
            firstConflict = members.map { ConflictMember(origin: $0, in: layout, size: system.size) }
        }
    }

    func applySize(_ size: ContainerSize) throws(CassowaryError) {
        let width = variables[FrameVariable(view: 0, component: .width).index]
        let height = variables[FrameVariable(view: 0, component: .height).index]
        if !solver.hasEditVariable(width) { try solver.addEditVariable(width, strength: Self.containerStrength) }
        try solver.suggestValue(width, size.width)
        if let h = size.height {
            if !solver.hasEditVariable(height) { try solver.addEditVariable(height, strength: Self.containerStrength) }
            try solver.suggestValue(height, h)
            heightEdited = true
        } else if solver.hasEditVariable(height) {
            try solver.removeEditVariable(height)
            heightEdited = false
        }
    }

    func solution() throws(SolverError) -> Solution {
        guard let layout, let system else { throw .notLoaded }
        solver.updateVariables()
        var status = Solution.Status.solved
        var conflict = firstConflict
        if !failed.isEmpty { status = .unsatisfiable }
        let frames: [Frame], levels: [LevelError], containerMet: Bool
        // Why a scope: the values (a double per variable) are freed before
        // the ambiguity analysis, whose own arrays make the peak of a solve.
        do {
            let values = variablesAreAll ? solver.allValues : solver.values(of: variables)
            let tolerance = Self.containerTolerance
            let widthMet = tolerance.isClose(values[FrameVariable(view: 0, component: .width).index], system.size.width)
            let heightMet = system.size.height.map { tolerance.isClose(values[FrameVariable(view: 0, component: .height).index], $0) } ?? true
            containerMet = widthMet && heightMet
            frames = system.frames(values)
            levels = softRows.levelErrors(values)
        }
        if failed.isEmpty && !containerMet {
            status = .unsatisfiable
            conflict = containerConflict(system, layout)
        }
        let ambiguous = status == .solved && analyseAmbiguity ? try ambiguousViews(system) : nil
        return Solution(variant: system.variant, status: status, viewNames: system.viewNames, frames: frames,
                        levels: levels, ambiguous: ambiguous, conflict: conflict)
    }

    /// The range of every free frame component of the ambiguous views, for
    /// `solve --explain`: (view, component, minimum, maximum), ±infinity when
    /// unbounded. Call after a solve that answered `ambiguous`.
    /// - Complexity: two warm-started simplex solves per free component.
    public func ambiguityRanges() -> [FrameRange] {
        guard let system else { return [] }
        let tolerance = Tolerance.ambiguity
        var out: [FrameRange] = []
        for view in system.viewNames.indices {
            for component in FrameComponent.allCases {
                let index = FrameVariable(view: view, component: component).index
                guard variables.indices.contains(index), let r = solver.rangeOnOptimalFace(of: variables[index]) else { continue }
                let same = r.minimum.isFinite && r.maximum.isFinite && tolerance.isClose(r.minimum, r.maximum)
                if !same { out.append(FrameRange(view: system.viewNames[view], component: component, minimum: r.minimum, maximum: r.maximum)) }
            }
        }
        return out
    }

    public func frameRanges() -> [FrameRange]? { ambiguityRanges() }

    /// The views with a frame component that can move on the optimal face
    /// (``CassowarySolver/freeVariables(_:tolerance:)``), in view order; nil
    /// when the tableau's shape does not allow an exact answer.
    func ambiguousViews(_ system: LoweredSystem) throws(SolverError) -> [String]? {
        let free: [Bool]?
        do {
            free = try solver.freeVariables(variables, tolerance: (Tolerance.ambiguity.absolute, Tolerance.ambiguity.relative))
        } catch {
            throw .backend(BackendError(solver: "cassowary", context: "ambiguity analysis", error))
        }
        guard let free else { return nil }
        var views: [String] = []
        for view in system.viewNames.indices where FrameComponent.allCases.contains(where: { free[FrameVariable(view: view, component: $0).index] }) {
            views.append(system.viewNames[view])
        }
        return views
    }

    /// A minimal conflict among the required rows, container rows included
    /// (the container size cannot be met).
    func containerConflict(_ system: LoweredSystem, _ layout: Layout) -> [ConflictMember] {
        // The loaded system is slimmed: the required rows come from a new lowering.
        let required = (fullSystem() ?? system).constraints.filter { $0.priority.isRequired }
        let definitions = required.map { definition($0, label: "") }
        let indices = CassowarySolver.minimalConflict(definitions, variableCount: variables.count)
        return indices.map { ConflictMember(origin: required[$0].origin, in: layout, size: system.size) }
    }
}
