// The order in which an incremental solver is given a layout's constraints:
// by the layout's structure, not by the file's lines.
//
// Why: an incremental solver's tableau depends on the order of insertion.
// Each new row is solved for a variable chosen from what is already there,
// and the rows' ids and storage follow the order they arrive in. In the
// generators' order every family loads, solves and resizes in time linear in
// its size; shuffled, the same layouts grew as size^1.2-1.47 from 10^3 to
// 10^4 (the grid's load 1.25, the equal row's solve 1.42-1.47), with the
// same instructions: the rows the solver reads one after another no longer
// sat together in memory (docs/measurements.md#m-2026-11-28-insertion-order).
// In this order every permutation of a layout's constraints is loaded the same
// way, so no file order can be the slow one
// (docs/measurements.md#m-2026-11-29-structural-order). A file that already
// comes view by view, and a layout of fewer than 2,048 constraints, keep
// the file's order (``Layout/insertionOrder(index:)``).
//
// The order: each constraint goes with the later of the views it names (in
// declaration order, the container first), so a view's constraints come
// after those of every view it leans on; within a view, required before
// soft (a higher priority first), then by what they name (views and
// attributes), multiplier, constant and relation; the file's order only for
// constraints alike in all of these. Relations between two attributes of one
// view (an aspect ratio) come after all the others, in the same order among
// themselves. Why last: added with its view, an aspect ratio takes one of
// the view's sizes as its subject before the relations to the neighbours
// arrive, and they are then solved for other variables, in longer rows; the
// grid's solve took 45% longer and its resize 20% (measured against keys
// that keep them with their view).

extension Layout {
    /// Each name's view index as the lowering numbers views: the container
    /// 0, then the declared views from 1 (a name declared twice: its first).
    /// - Complexity: O(total length of the names) expected.
    func loweringNameIndex() -> (names: [String], index: NameIndex) {
        var names = [Layout.containerName]
        names.reserveCapacity(views.count + 1)
        for view in views { names.append(view.name) }
        return (names, NameIndex(names))
    }

    /// The order in which an incremental solver is given the constraints
    /// (see the top of InsertionOrder.swift), with the view indices of their
    /// items, resolved on the way.
    /// - Parameter index: ``loweringNameIndex()``'s index.
    /// - Complexity: O(*c*) for *c* constraints when the file's order is
    ///   kept; else O(*v* + *c* log *k*) for *v* views and at most *k*
    ///   constraints on one view: a counting sort by view, then each view's
    ///   constraints sorted among themselves.
    func insertionOrder(index: NameIndex) -> InsertionOrder {
        let count = constraints.count
        var order = InsertionOrder(count: count)
        // (No local function around it: one that captured the memo made
        // every call check exclusive access at run time, +1.8% of a grid's solve.)
        var names = MemoisedNames(index, lookups: 2 * count)
        // Constraints that reach further back than ``reachBack`` views behind
        // the latest view named before them.
        var reachingBack = 0
        constraints.withUnsafeBufferPointer { constraints in
            guard let base = constraints.baseAddress else { return }
            order.firstViews.withUnsafeMutableBufferPointer { firstViews in
                order.secondViews.withUnsafeMutableBufferPointer { secondViews in
                    var latest: Int32 = 0
                    for i in 0..<count {
                        // Why through a pointer: a copy of the constraint retains
                        // every reference in it (see `checkConstraint`).
                        let constraint = base + i
                        // Validation guarantees every name is declared; one that is not
                        // (never seen here) sorts with the container, and the lowering skips it.
                        let first = Int32(truncatingIfNeeded: names.view(constraint.pointee.first.item) ?? -1)
                        var second: Int32 = -1
                        if let item = constraint.pointee.second?.item { second = Int32(truncatingIfNeeded: names.view(item) ?? -1) }
                        firstViews[i] = first
                        secondViews[i] = second
                        let later = max(first, second)
                        if later &+ Self.reachBack < latest { reachingBack &+= 1 }
                        latest = max(latest, later)
                    }
                }
            }
        }
        // Why keep an orderly file's order: the generators' order is as
        // good as the structural one for time and better for the work (the
        // grid's whole solve took 4% more instructions sorted), and it is the
        // order whose answers the layout's author has seen.
        guard count >= Self.reorderingFloor, reachingBack > count / Self.reachingBackShare else { return order }
        order.indices = structuralOrder(order.firstViews, order.secondViews)
        return order
    }

    /// How many views behind the latest one named so far a constraint may
    /// reach and still count as in order, and the share of constraints that
    /// may reach further (one in ``reachingBackShare``) in a file kept in its
    /// own order. The generated families reach back at most one view; a
    /// shuffled file's constraints almost all reach back hundreds.
    static let reachBack: Int32 = 16
    static let reachingBackShare = 64

    /// Layouts with fewer constraints keep the file's order whatever it is.
    /// Why: what the structural order saves is memory out of order and rows
    /// lengthened across a large tableau; a small one fits the first caches
    /// in any order, and reordering it only trades one run of pivots for
    /// another (the real screens of the corpus, reordered: pivots of the load
    /// down on 9 screens, up on 10, a known-bug fixture from 1 to 90; the A/B
    /// gate's counters, docs/measurements.md#m-2026-11-29-structural-order).
    static let reorderingFloor = 2_048

    /// The positions of the constraints in structural order.
    /// - Complexity: O(*v* + *c* log *k*), see ``insertionOrder(index:)``.
    func structuralOrder(_ firstViews: [Int32], _ secondViews: [Int32]) -> [Int32] {
        let count = constraints.count
        let viewCount = views.count + 1
        // Bucket of each constraint: its later view, aspect ratios after
        // every other bucket (counted from `viewCount`). Its priority and
        // attributes beside it, read here in the file's order: the sort
        // below compares constraints in no order, and reading those from
        // the constraints themselves (two cache lines each) made a shuffled
        // grid's load at 10^4 wait on the memory.
        var buckets = [Int32](repeating: 0, count: count)
        var priorities = [Double](repeating: 0, count: count)
        var attributes = [Int16](repeating: 0, count: count)
        var starts = [Int32](repeating: 0, count: 2 * viewCount + 1)
        constraints.withUnsafeBufferPointer { constraints in
            guard let base = constraints.baseAddress else { return }
            for i in 0..<count {
                let constraint = base + i
                let first = firstViews[i], second = secondViews[i]
                let later = Int(max(0, max(first, second)))
                let bucket = second == first ? viewCount + later : later
                buckets[i] = Int32(truncatingIfNeeded: bucket)
                starts[bucket + 1] &+= 1
                priorities[i] = constraint.pointee.priority.rawValue
                let secondAttribute = constraint.pointee.second.map { $0.attribute.ordinal + 1 } ?? 0
                attributes[i] = Int16(truncatingIfNeeded: constraint.pointee.first.attribute.ordinal << 5 | secondAttribute)
            }
        }
        for b in 1..<starts.count { starts[b] &+= starts[b - 1] }
        // Within a bucket, the file's order until sorted below.
        var indices = [Int32](repeating: 0, count: count)
        var next = starts
        for i in 0..<count {
            let b = Int(buckets[i])
            indices[Int(next[b])] = Int32(truncatingIfNeeded: i)
            next[b] &+= 1
        }
        constraints.withUnsafeBufferPointer { constraints in
            guard let base = constraints.baseAddress else { return }
            func precedes(_ a: Int32, _ b: Int32) -> Bool {
                let i = Int(a), j = Int(b)
                if priorities[i] != priorities[j] { return priorities[i] > priorities[j] }
                if firstViews[i] != firstViews[j] { return firstViews[i] < firstViews[j] }
                // (The first attribute in the high bits: first attribute, then second.)
                if attributes[i] >> 5 != attributes[j] >> 5 { return attributes[i] >> 5 < attributes[j] >> 5 }
                if secondViews[i] != secondViews[j] { return secondViews[i] < secondViews[j] }
                if attributes[i] != attributes[j] { return attributes[i] < attributes[j] }
                // Alike so far (rare): the numbers, read from the constraints.
                // Why a pointer: a copy of a constraint retains every reference in it.
                let x = base + i, y = base + j
                if x.pointee.multiplier != y.pointee.multiplier { return x.pointee.multiplier < y.pointee.multiplier }
                if x.pointee.constant != y.pointee.constant { return x.pointee.constant < y.pointee.constant }
                let ra = x.pointee.relation.ordinal, rb = y.pointee.relation.ordinal
                if ra != rb { return ra < rb }
                return a < b
            }
            // (`precedes` is a strict total order on validated constraints,
            // whose numbers are finite: its last test is the position.)
            indices.withUnsafeMutableBufferPointer { indices in
                for b in 0..<(starts.count - 1) {
                    let lower = Int(starts[b]), upper = Int(starts[b + 1])
                    guard upper - lower > 1 else { continue }
                    var slice = UnsafeMutableBufferPointer(rebasing: indices[lower..<upper])
                    slice.sort(by: precedes)
                }
            }
        }
        return indices
    }
}

/// The positions of a layout's constraints in the order they are lowered
/// (``Layout/insertionOrder(index:)``; nil: the file's order), and the view
/// index of each constraint's items by its position in the file (-1: no
/// second item, or a name that does not resolve).
struct InsertionOrder {
    var indices: [Int32]?
    var firstViews: [Int32]
    var secondViews: [Int32]

    init(count: Int) {
        firstViews = [Int32](repeating: -1, count: count)
        secondViews = [Int32](repeating: -1, count: count)
    }
}

extension Attribute {
    /// The attribute's position in the declaration's order (a sort key).
    var ordinal: Int {
        switch self {
        case .left: 0
        case .right: 1
        case .top: 2
        case .bottom: 3
        case .leading: 4
        case .trailing: 5
        case .width: 6
        case .height: 7
        case .centerX: 8
        case .centerY: 9
        case .leftMargin: 10
        case .rightMargin: 11
        case .topMargin: 12
        case .bottomMargin: 13
        case .leadingMargin: 14
        case .trailingMargin: 15
        case .centerXWithinMargins: 16
        case .centerYWithinMargins: 17
        case .firstBaseline: 18
        case .lastBaseline: 19
        }
    }
}

extension Relation {
    /// `=` before `<=` before `>=` (a sort key).
    var ordinal: Int {
        switch self {
        case .equal: 0
        case .lessThanOrEqual: 1
        case .greaterThanOrEqual: 2
        }
    }
}
