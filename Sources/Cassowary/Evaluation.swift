import MemoryHints

/// The rows ``Tableau/projectedRow(of:keeping:memo:)`` has projected, by
/// symbol id. Why a slot per symbol and the rows apart, not `[Row?]`: only
/// the basic externals reached get a row, and 16 bytes for every symbol of
/// the tableau was most of the ambiguity analysis's transient memory (the
/// peak of a whole `solve` of self-sizing rows at 10^5); a slot is 4 bytes.
/// Why an empty projection is kept as its constant alone (8 bytes, not a
/// 16-byte ``Row``): most projections are empty, and the memo is the
/// largest item at the peak of a grid's `solve`
/// (docs/measurements.md#m-2026-11-27-small-items).
/// A caller that reads only the cells (the ambiguity analysis) drops even
/// that (`keepsConstants: false`): an empty projection is then one shared
/// slot value and its constant reads as 0. Why: the constants of a grid's
/// 800,000 basic externals were 12.6 MB at the peak of a `solve` at
/// R = 10^5 (massif), and nothing there reads them.
struct ProjectionMemo {
    /// -1: not projected; >= 0: an index in ``rows``; <= -2: index `-2 - slot`
    /// in ``constants`` (-2 alone, without constants: an empty projection).
    private var slots: [Int32] = []
    private var rows: [Row] = []
    private var constants: [Double] = []
    /// Whether an empty projection keeps its constant.
    let keepsConstants: Bool
    /// The depth-first stack of ``Tableau/projectedRow(of:keeping:memo:)``,
    /// kept between calls (a call a symbol: a fresh array each was an
    /// allocation and a free a projected symbol).
    var stack: [Int32] = []

    init(keepsConstants: Bool = true) { self.keepsConstants = keepsConstants }

    /// Room for symbol ids below `count`.
    mutating func grow(to count: Int) {
        if slots.count < count { slots.append(contentsOf: repeatElement(-1, count: count - slots.count)) }
    }

    /// Whether `id` was projected (without making its row: the loops of
    /// ``Tableau/projectedRow(of:keeping:memo:)`` ask this of every cell).
    func isProjected(_ id: Int32) -> Bool { slot(id) != -1 }

    /// `id`'s slot, -1 (not projected) for an id beyond the table.
    private func slot(_ id: Int32) -> Int32 { slots.indices.contains(Int(id)) ? slots[Int(id)] : -1 }

    /// The constant of `id`'s projection when it is empty (no cells); nil
    /// when it has cells or was not projected. (0 for an empty projection
    /// when constants are not kept, as the subscript's row reads.)
    func emptyProjectionConstant(_ id: Int32) -> Double? {
        let slot = slot(id)
        guard slot <= -2 else { return nil }
        return keepsConstants ? constants[Int(-2 - slot)] : 0
    }

    subscript(id: Int32) -> Row? {
        get {
            let slot = slot(id)
            if slot >= 0 { return rows[Int(slot)] }
            if slot == -1 { return nil }
            return keepsConstants ? Row(constant: constants[Int(-2 - slot)]) : Row()
        }
        set {
            guard let newValue, slots.indices.contains(Int(id)) else { return }
            // (A second projection of a symbol, which no caller makes, takes a new entry.)
            if newValue.cells.isEmpty && !keepsConstants {
                slots[Int(id)] = -2
            } else if newValue.cells.isEmpty {
                slots[Int(id)] = -2 - Int32(truncatingIfNeeded: constants.count)
                constants.append(newValue.constant)
            } else {
                slots[Int(id)] = Int32(truncatingIfNeeded: rows.count)
                rows.append(newValue)
            }
        }
    }
}

/// Buffers for evaluating the DAG (kept by the solver between calls), and
/// the plan of the evaluation when it is made again at one shape.
///
/// `@unchecked Sendable`: every field is a value but the memo, a class
/// (`ManagedBuffer`s are never `Sendable`) that a scratch writes only after
/// ``reset(count:)`` made it its own, as an array's storage is written.
struct EvaluationScratch: @unchecked Sendable {
    /// Made by the first walk (a solver that never evaluates allocates none).
    var memo: WalkMemo?
    var known: [Bool] = []
    var stack: [Int32] = []
    /// The steps' values of ``plan``.
    var steps: [Double] = []
    var plan: EvaluationPlan?
    /// The shape and symbols of the last walk: a second evaluation of the
    /// same symbols at the same shape makes a plan (KeptShapes.swift).
    var walked: (epoch: Int, version: Int, externalOnly: Bool, symbols: [Symbol])?
    /// Evaluations that followed a plan (a count tests read).
    var plannedEvaluations = 0

    /// Clears `known` for `count` symbols and returns a memo of `count`
    /// values that is this scratch's alone.
    @discardableResult
    mutating func reset(count: Int) -> WalkMemo {
        if known.count != count {
            known = [Bool](repeating: false, count: count)
        } else {
            for i in known.indices { known[i] = false }
        }
        // A copy of the scratch (of the solver) shares the memo: the walk
        // writes it, so it must be this scratch's alone.
        // (Uniqueness tested before `kept` binds: the binding is a reference too.)
        if memo?.header == count, isKnownUniquelyReferenced(&memo), let kept = memo {
            stack.removeAll(keepingCapacity: true)
            return kept
        }
        let made = WalkMemo.make(count: count)
        memo = made
        stack.removeAll(keepingCapacity: true)
        return made
    }
}

/// The walk's values by symbol id, left uninitialised: an entry is read only
/// after the same walk wrote it (`known` says which). The header is the
/// count; the values are the buffer's elements (one allocation, as the array
/// it replaced).
///
/// Why not an array of zeros: the first walk after a load makes it fresh, and
/// zeroing 8 bytes a symbol (1.9 MB at 10^4 self-sizing rows) was three
/// quarters of that walk's writes that missed the caches, for entries of
/// which the walk writes only the basic externals' (a third of the symbols).
final class WalkMemo: ManagedBuffer<Int, Double> {
    /// A memo of `count` uninitialised values (`Double` needs no
    /// deinitialisation, so none is done when it is freed).
    static func make(count: Int) -> WalkMemo {
        // `create` makes an instance of the class it is called on.
        unsafeDowncast(WalkMemo.create(minimumCapacity: count) { _ in count }, to: WalkMemo.self)
    }
}

/// Reading the DAG of external rows (see ``Tableau``): values at the current
/// basic solution, and rows projected onto chosen symbols.
extension Tableau {
    /// The value of every symbol in `symbols` at the current basic solution:
    /// a nonbasic symbol is 0, a restricted basic one its row's constant, a
    /// basic external its row evaluated (its basic externals first).
    /// - Complexity: O(Σ lengths of the external rows reached), each once.
    func values(of symbols: [Symbol]) -> [Double] {
        var scratch = EvaluationScratch()
        var out: [Double] = []
        values(of: symbols, into: &out, scratch: &scratch)
        return out
    }

    /// ``values(of:)`` into `out`, with buffers the caller keeps. Why: the
    /// solver evaluates after every solve and resize, and three fresh arrays
    /// each time were most of a resize's allocations.
    ///
    /// A second call for the same symbols at the same shape (a run of
    /// resizes without pivots; for external symbols, without changes but
    /// pivots between restricted symbols: ``version(externalOnly:)``) plans
    /// the evaluation (``EvaluationPlan``) and later calls at that shape
    /// follow the plan: the same values, bit for bit, read from flat arrays
    /// in order.
    func values(of symbols: [Symbol], into out: inout [Double], scratch: inout EvaluationScratch) {
        if let plan = scratch.plan, plan.epoch == epoch, plan.symbols == symbols, plan.version == version(externalOnly: plan.externalOnly) {
            evaluate(plan, into: &out, steps: &scratch.steps)
            scratch.plannedEvaluations += 1
            return
        }
        scratch.plan = nil
        if keepsShapesNow, let walked = scratch.walked, walked.epoch == epoch, walked.symbols == symbols,
           walked.version == version(externalOnly: walked.externalOnly) {
            let plan = self.plan(for: symbols, externalOnly: walked.externalOnly, stack: &scratch.stack)
            evaluate(plan, into: &out, steps: &scratch.steps)
            scratch.plan = plan
            scratch.plannedEvaluations += 1
            return
        }
        let memoStorage = scratch.reset(count: kinds.count)
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(symbols.count)
        // Why buffers: through the arrays, each row's cells were retained
        // and released and each write to the memo checked for uniqueness
        // (a quarter of a walk's instructions), and the retains wrote to
        // every row's storage, which a walk otherwise only reads.
        // Taken out (not copied) so that pushing onto it does not copy it.
        var stack: [Int32] = []
        swap(&stack, &scratch.stack)
        // Symbols that are not external, counted as the walk meets them (a
        // planned evaluation compares the symbols by identity alone, so the
        // kinds are read here; a pass of their own over the symbols was 5%
        // of an equal row's solve at 10^4).
        var notExternal = 0
        rows.withUnsafeBufferPointer { rows in
            isBasic.withUnsafeBufferPointer { isBasic in
                memoStorage.withUnsafeMutablePointerToElements { base in
                    let memo = UnsafeMutableBufferPointer(start: base, count: kinds.count)
                    scratch.known.withUnsafeMutableBufferPointer { known in
                        // (The symbols through a buffer too: the hint's
                        // test and read ahead are a few instructions a
                        // symbol, and a layout of short rows in order, the
                        // equal row, walks a symbol in about fifty.)
                        symbols.withUnsafeBufferPointer { symbols in
                            let count = symbols.count, ahead = Self.prefetchDistance
                            for i in 0..<count {
                                if i + ahead < count { Self.prefetchCells(of: symbols[i + ahead].id, in: rows) }
                                notExternal &+= symbols[i].kind == .external ? 0 : 1
                                out.append(Self.walk(from: symbols[i], rows: rows, isBasic: isBasic, memo: memo, known: known, stack: &stack))
                            }
                        }
                    }
                }
            }
        }
        scratch.stack = stack
        let externalOnly = notExternal == 0
        scratch.walked = keepsShapesNow ? (epoch, version(externalOnly: externalOnly), externalOnly, symbols) : nil
    }

    /// The version a plan of `symbols` is valid at: for external symbols
    /// only, ``evaluationVersion``; for any other, `-1 - ` ``shapeVersion``.
    /// Why two: a plan of external symbols reads only the external rows'
    /// terms, which pivots between restricted symbols leave alone, while
    /// a restricted symbol's value is zero or its row's constant depending
    /// on whether it is basic, which any pivot may change.
    func version(externalOnly: Bool) -> Int { externalOnly ? evaluationVersion : -1 - shapeVersion }

    /// How many symbols ahead of the walk their rows' cells are asked for:
    /// 16, a little ahead of 8 on self-sizing rows at 10^4 (solve 2.6-3.0 ms
    /// against 3.0-3.1) and as fast elsewhere; the misses of a top-level
    /// symbol's own dependencies, asked for as they were pushed, made no
    /// difference that the VM's noise showed, so they are not.
    static let prefetchDistance = 16

    /// Asks the processor for the first cells of `id`'s row (a hint; no
    /// value depends on it).
    ///
    /// Why: every row's cells are a buffer of their own, met in the order of
    /// the symbols, not of the buffers, so at 10^4 rows and more each row of
    /// the walk waited for a miss of the caches
    /// (docs/measurements.md#m-2026-11-28-prefetch). The symbols to walk are
    /// known in advance, so the misses of the next ones can overlap the
    /// work on this one.
    @inline(__always)
    static func prefetchCells(of id: Int32, in rows: UnsafeBufferPointer<Row>) {
        guard let first = firstCellAddress(of: id, in: rows) else { return }
        // The count (read first) and the first cells: two lines at most,
        // the allocator aligning buffers to 16 bytes, not 64.
        memory_hints_prefetch(first - 16)
        memory_hints_prefetch(first + 31)
    }

    /// ``prefetchCells(of:in:)`` on the tableau's own rows.
    @inline(__always)
    func prefetchRowCells(_ id: Int32) {
        rows.withUnsafeBufferPointer { Self.prefetchCells(of: id, in: $0) }
    }

    /// Where `id`'s row keeps its first cell, found without touching the
    /// array (a read through it would retain and release it): the row's
    /// `cells` field is one reference to the array's storage object, whose
    /// count is at 16 bytes and whose elements start at 32 (64-bit Swift).
    /// Only a hint's address: `RowTests.firstCellAddress` checks it against
    /// the array's own, and if the layout ever changed the hints would fetch
    /// useless lines, never change a value.
    @inline(__always)
    static func firstCellAddress(of id: Int32, in rows: UnsafeBufferPointer<Row>) -> UnsafeRawPointer? {
        let i = Int(id)
        guard i >= 0, i < rows.count, let base = rows.baseAddress else { return nil }
        // (Read as a pointer: an array's reference is never null.)
        return (UnsafeRawPointer(base + i) + Row.cellsFieldOffset).load(as: UnsafeRawPointer.self) + 32
    }

    /// Evaluates a symbol by an explicit depth-first walk (a chain of 10^5
    /// external rows would overflow the stack by recursion); `memo`/`known`
    /// (as long as the symbol table) keep what is evaluated for the next call.
    private static func walk(from symbol: Symbol, rows: UnsafeBufferPointer<Row>, isBasic: UnsafeBufferPointer<Bool>,
                             memo: UnsafeMutableBufferPointer<Double>, known: UnsafeMutableBufferPointer<Bool>,
                             stack: inout [Int32]) -> Double {
        let id = Int(symbol.id)
        guard id >= 0, id < isBasic.count, isBasic[id] else { return 0 }
        guard symbol.kind == .external else { return rows[id].constant }
        if known[id] { return memo[id] }
        stack.append(symbol.id)
        while let top = stack.last {
            let t = Int(top)
            if known[t] {
                stack.removeLast()
                continue
            }
            var pending = false
            var value = rows[t].constant
            // Why by index, not `withUnsafeBufferPointer` on the cells: the
            // closure made the compiler retain and release each row's cells
            // (a fifth of a first walk's instructions, and a write to every
            // row's storage, which a walk only reads); an element read has
            // no call between the borrow and its use, so nothing is retained.
            for k in 0..<rows[t].cells.count {
                let cell = rows[t].cells[k]
                let c = Int(cell.symbol.id)
                guard isBasic[c] else { continue }
                if cell.symbol.kind != .external {
                    value += cell.coefficient * rows[c].constant
                } else if known[c] {
                    value += cell.coefficient * memo[c]
                } else {
                    stack.append(cell.symbol.id)
                    pending = true
                }
            }
            if pending { continue }
            memo[t] = value
            known[t] = true
            stack.removeLast()
        }
        return memo[id]
    }

    /// The plan of ``values(of:into:scratch:)`` for `symbols` at the current
    /// shape: the walk's order, written down.
    /// - Complexity: O(symbols + Σ lengths of the external rows reached).
    /// `stack`: a kept buffer (the walk's), left empty.
    func plan(for symbols: [Symbol], externalOnly: Bool, stack: inout [Int32]) -> EvaluationPlan {
        var plan = EvaluationPlan(epoch: epoch, version: version(externalOnly: externalOnly), externalOnly: externalOnly,
                                  symbols: symbols)
        // Each basic external's step, -1 until planned.
        var step = [Int32](repeating: -1, count: kinds.count)
        stack.removeAll(keepingCapacity: true)
        // Why room up front: grown by doubling, the five arrays were about
        // sixty allocations at 100 self-sizing rows. A step is a basic
        // external, at most one a symbol planned; rows of layouts have a few
        // terms (the room for three a step is address space until written).
        plan.outputs.reserveCapacity(symbols.count)
        plan.targets.reserveCapacity(symbols.count)
        plan.termEnds.reserveCapacity(symbols.count)
        plan.coefficients.reserveCapacity(3 * symbols.count)
        plan.sources.reserveCapacity(3 * symbols.count)
        for symbol in symbols {
            let id = Int(symbol.id)
            guard id >= 0, id < kinds.count, isBasic[id] else {
                plan.outputs.append(EvaluationPlan.zero)
                continue
            }
            guard symbol.kind == .external else {
                plan.outputs.append(symbol.id)
                continue
            }
            stack.append(symbol.id)
            while let top = stack.last {
                let t = Int(top)
                if step[t] >= 0 {
                    stack.removeLast()
                    continue
                }
                var pending = false
                for cell in rows[t].cells {
                    let c = Int(cell.symbol.id)
                    if isBasic[c] && cell.symbol.kind == .external && step[c] < 0 {
                        stack.append(cell.symbol.id)
                        pending = true
                    }
                }
                if pending { continue }
                // The row's terms in its cell order, as the walk sums them.
                for cell in rows[t].cells {
                    let c = Int(cell.symbol.id)
                    guard isBasic[c] else { continue }
                    plan.coefficients.append(cell.coefficient)
                    plan.sources.append(cell.symbol.kind != .external ? cell.symbol.id : -1 - step[c])
                }
                step[t] = Int32(truncatingIfNeeded: plan.targets.count)
                plan.targets.append(top)
                plan.termEnds.append(Int32(truncatingIfNeeded: plan.sources.count))
                stack.removeLast()
            }
            plan.outputs.append(-1 - step[id])
        }
        return plan
    }

    /// The values of a plan's symbols at the current constants.
    /// - Complexity: O(steps + terms + symbols), reading each array in order.
    private func evaluate(_ plan: EvaluationPlan, into out: inout [Double], steps: inout [Double]) {
        if steps.count < plan.targets.count { steps = [Double](repeating: 0, count: plan.targets.count) }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(plan.outputs.count)
        rows.withUnsafeBufferPointer { rows in
            plan.coefficients.withUnsafeBufferPointer { coefficients in
                plan.sources.withUnsafeBufferPointer { sources in
                    steps.withUnsafeMutableBufferPointer { steps in
                        var term = 0
                        for k in plan.targets.indices {
                            var value = rows[Int(plan.targets[k])].constant
                            let end = Int(plan.termEnds[k])
                            while term < end {
                                let source = sources[term]
                                value += coefficients[term] * (source >= 0 ? rows[Int(source)].constant : steps[Int(-1 - source)])
                                term += 1
                            }
                            steps[k] = value
                        }
                        for output in plan.outputs {
                            if output == EvaluationPlan.zero {
                                out.append(0)
                            } else {
                                out.append(output >= 0 ? rows[Int(output)].constant : steps[Int(-1 - output)])
                            }
                        }
                    }
                }
            }
        }
    }

    /// The value of one symbol at the current basic solution.
    /// - Complexity: O(symbols) to set up, then the external rows it depends on.
    func value(of symbol: Symbol) -> Double { values(of: [symbol])[0] }

    /// A basic external's row with every basic external in it expanded, kept
    /// to the symbols `keep` accepts (the others dropped as they appear):
    /// the row's dependence on those symbols alone, exactly (cancellations
    /// included), without building the full flat row. `memo` holds the rows
    /// already projected, for the next call.
    /// - Complexity: O(Σ (row length + projected length)) over the external
    ///   rows reached, each once per `memo`.
    func projectedRow(of symbol: Symbol, keeping keep: (Symbol) -> Bool, memo: inout ProjectionMemo) -> Row {
        guard isBasicExternal(symbol) else { return Row() }
        memo.grow(to: kinds.count)
        if let known = memo[symbol.id] { return known }
        // Taken out of the memo (not copied) so that pushing onto it does not copy it.
        var stack: [Int32] = []
        swap(&stack, &memo.stack)
        defer {
            stack.removeAll(keepingCapacity: true)
            swap(&stack, &memo.stack)
        }
        stack.append(symbol.id)
        // Why the memo's tests and the cells by index: a lookup that made a
        // row (`memo[id] == nil`, `inner.cells.isEmpty`) retained and released
        // its cells for every cell read, and so did each loop over a row's
        // cells; a quarter of the ambiguity analysis's instructions at 10^4
        // self-sizing rows were retains, releases and frees. The same rows
        // are projected, in the same order.
        while let top = stack.last {
            let t = Int(top)
            if memo.isProjected(top) {
                stack.removeLast()
                continue
            }
            var pending = false
            for k in 0..<rows[t].cells.count {
                let inner = rows[t].cells[k].symbol
                if isBasicExternal(inner) && !memo.isProjected(inner.id) {
                    stack.append(inner.id)
                    pending = true
                }
            }
            if pending { continue }
            var projected = Row(constant: rows[t].constant)
            for k in 0..<rows[t].cells.count {
                let cell = rows[t].cells[k]
                if isBasicExternal(cell.symbol) {
                    // Why the test: most projections are empty, and a merge allocates.
                    if let constant = memo.emptyProjectionConstant(cell.symbol.id) {
                        projected.constant += cell.coefficient * constant
                    } else if let inner = memo[cell.symbol.id] {
                        projected.addScaled(inner, cell.coefficient)
                    }
                } else if keep(cell.symbol) {
                    projected.add(cell.symbol, cell.coefficient)
                }
            }
            memo[top] = projected
            stack.removeLast()
        }
        return memo[symbol.id] ?? Row()
    }
}
