@testable import LayoutModel
import Testing

/// The order an incremental solver is given a layout's constraints in
/// (InsertionOrder.swift): the file's when it comes view by view, else the
/// structural order, the same for every permutation of the lines.
@Suite("Insertion order")
struct InsertionOrderTests {
    /// `count` views in a chain, each left of the next, with a top, a
    /// width at two priorities and, on every fourth view, an aspect ratio.
    static func chain(_ count: Int) -> Layout {
        var views: [ViewDeclaration] = []
        var constraints: [LayoutConstraint] = []
        for i in 0..<count {
            views.append(ViewDeclaration(name: "v\(i)"))
            let previous = i == 0 ? ItemAttribute("super", .left) : ItemAttribute("v\(i - 1)", .right)
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .left), .equal, previous, constant: 8))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .top), .equal, ItemAttribute("super", .top)))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .width), .equal, nil, constant: 20, priority: Priority(250)))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .width), .greaterThanOrEqual, nil, constant: 4))
            if i % 4 == 0 {
                constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .height), .equal, ItemAttribute("v\(i)", .width),
                                                    multiplier: 0.5))
            }
        }
        return Layout(container: ContainerSize(width: 10_000, height: nil), views: views, constraints: constraints)
    }

    /// `layout` with its constraints at `permutation` (position k holds the
    /// constraint that was at `permutation[k]`).
    static func permuted(_ layout: Layout, _ permutation: [Int]) -> Layout {
        var out = layout
        out.constraints = permutation.map { layout.constraints[$0] }
        return out
    }

    /// A fixed shuffle of `0..<count` (a linear congruential generator:
    /// the same every run).
    static func shuffle(_ count: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<count)
        var state = seed
        for i in stride(from: count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(i, Int(state >> 33) % (i + 1))
        }
        return order
    }

    /// The lowering in insertion order: `start`'s report and each
    /// constraint row's position in the file.
    static func lowered(_ layout: Layout) -> (start: LoweringStart?, positions: [Int]) {
        var start: LoweringStart?
        var positions: [Int] = []
        _ = try? layout.lowerChecked(variant: nil, structural: true, start: { start = $1 }, visit: { row in
            if case .constraint(let i) = row.origin { positions.append(i) }
            return true
        })
        return (start, positions)
    }

    @Test("a file that comes view by view keeps its order")
    func orderlyFileKept() {
        let layout = Self.chain(600)
        #expect(layout.insertionOrder(index: layout.loweringNameIndex().index).indices == nil)
        let (start, positions) = Self.lowered(layout)
        #expect(start?.reordered == false)
        #expect(positions == Array(layout.constraints.indices))
    }

    @Test("every permutation of the lines is lowered in one order, each constraint once", arguments: [1, 2, 3])
    func permutationsAgree(seed: UInt64) {
        let layout = Self.chain(600)
        let count = layout.constraints.count
        // Each permutation's rows, named by the constraint's position in `layout`.
        func sequence(_ permutation: [Int]) -> [Int] {
            let (start, positions) = Self.lowered(Self.permuted(layout, permutation))
            #expect(start?.reordered == true)
            return positions.map { permutation[$0] }
        }
        let reversed = sequence(Array((0..<count).reversed()))
        let shuffled = sequence(Self.shuffle(count, seed: seed))
        #expect(shuffled == reversed)
        #expect(reversed.sorted() == Array(0..<count))
    }

    @Test("the structural order: by the later view named, required first, aspect ratios last")
    func structuralOrder() {
        // Views a (1) and b (2); the constraints out of order.
        let layout = Layout(container: ContainerSize(width: 375, height: nil),
                            views: [ViewDeclaration(name: "a"), ViewDeclaration(name: "b")], constraints: [
            LayoutConstraint(ItemAttribute("b", .width), .equal, ItemAttribute("b", .height), multiplier: 2),  // 0: b's aspect
            LayoutConstraint(ItemAttribute("b", .left), .equal, ItemAttribute("a", .right), constant: 8),      // 1: b
            LayoutConstraint(ItemAttribute("a", .left), .equal, ItemAttribute("super", .left), priority: Priority(500)),  // 2: a, soft
            LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: 10),                          // 3: a, width
            LayoutConstraint(ItemAttribute("a", .left), .equal, ItemAttribute("super", .left), constant: 4),  // 4: a, left
            LayoutConstraint(ItemAttribute("a", .left), .lessThanOrEqual, ItemAttribute("super", .left), constant: 4),  // 5: as 4, <=
            LayoutConstraint(ItemAttribute("a", .height), .equal, ItemAttribute("a", .width)),                // 6: a's aspect
        ])
        let order = layout.insertionOrder(index: layout.loweringNameIndex().index)
        #expect(order.firstViews == [2, 2, 1, 1, 1, 1, 1])
        #expect(order.secondViews == [2, 1, 0, -1, 0, 0, 1])
        #expect(layout.structuralOrder(order.firstViews, order.secondViews) == [4, 5, 3, 2, 1, 6, 0])
    }

    @Test("a layout under the floor keeps its order, however shuffled")
    func smallLayoutKept() {
        let layout = Self.chain(400)
        #expect(layout.constraints.count < Layout.reorderingFloor)
        let (start, positions) = Self.lowered(Self.permuted(layout, Self.shuffle(layout.constraints.count, seed: 7)))
        #expect(start?.reordered == false)
        #expect(positions == Array(layout.constraints.indices))
        let larger = Self.chain(600)
        #expect(larger.constraints.count >= Layout.reorderingFloor)
        #expect(Self.lowered(Self.permuted(larger, Self.shuffle(larger.constraints.count, seed: 7))).start?.reordered == true)
    }

    @Test("reordered only when more than one constraint in 64 reaches back over 16 views")
    func reorderThreshold() {
        let views = 600
        let layout = Self.chain(views)
        let count = layout.constraints.count
        // Moving constraints of view 0 to the end: each reaches back 599 views.
        let share = count / Layout.reachingBackShare
        let viewZero = Array(0..<5)  // v0's five constraints
        func moved(_ k: Int) -> Layout {
            let movedBack = Array(viewZero.prefix(k))
            let rest = (0..<count).filter { !movedBack.contains($0) }
            return Self.permuted(layout, rest + movedBack)
        }
        #expect(share >= 5)
        #expect(Self.lowered(moved(5)).start?.reordered == false)
        // A file reaching back exactly `reachBack` views keeps its order; one view more counts.
        var near = layout
        let back = Int(Layout.reachBack)
        var extra: [LayoutConstraint] = []
        for _ in 0...(share + 1) {  // (one more than the share of the longer file)
            extra.append(LayoutConstraint(ItemAttribute("v\(views - 1 - back)", .top), .greaterThanOrEqual, nil, constant: 1))
        }
        near.constraints += extra
        #expect(Self.lowered(near).start?.reordered == false)
        var far = layout
        far.constraints += extra.map { var c = $0; c.first = ItemAttribute("v\(views - 2 - back)", .top); return c }
        #expect(Self.lowered(far).start?.reordered == true)
    }
}
