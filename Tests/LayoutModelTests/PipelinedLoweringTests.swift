@testable import LayoutModel
import Testing

/// The lowering on a thread of its own (PipelinedLowering.swift) against
/// the lowering on one thread: the same `start`, the same rows in the same
/// order, the same early stop and the same error.
@Suite("Lowering a block ahead on a thread of its own")
struct PipelinedLoweringTests {
    /// A chain of `count` views, each to the right of the previous one, with
    /// content sizes on every third view (content rows come last) and a
    /// `when` constraint that a variant switches on.
    static func chain(_ count: Int) -> Layout {
        var views: [ViewDeclaration] = []
        var constraints: [LayoutConstraint] = []
        for i in 0..<count {
            let content = i % 3 == 0
                ? ViewContent(intrinsicSize: IntrinsicSize(width: Double(10 + i % 7), height: 21))
                : ViewContent.none
            views.append(ViewDeclaration(name: "v\(i)", content: content))
            let previous = i == 0 ? ItemAttribute("super", .left) : ItemAttribute("v\(i - 1)", .right)
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .left), .equal, previous, constant: 8))
            constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .top), .equal, ItemAttribute("super", .top),
                                                multiplier: 1, constant: Double(i % 5)))
            if i % 11 == 0 {
                constraints.append(LayoutConstraint(ItemAttribute("v\(i)", .width), .greaterThanOrEqual, nil,
                                                    constant: 4, priority: Priority(750), traits: ["wide"]))
            }
        }
        return Layout(container: ContainerSize(width: 375, height: nil), views: views, constraints: constraints,
                      variants: [Variant(name: "wide", size: ContainerSize(width: 800, height: nil), traits: ["wide"])])
    }

    /// What a consumer sees: `start`'s count (nil if never called), the rows
    /// visited until `stopAfter` of them, and the returned system or error.
    struct Seen: Equatable {
        var startCount: Int?
        var reordered: Bool?
        var startedBeforeRows = true
        var rows: [LoweredConstraint] = []
        var header: LoweredSystem?
        var error: LoweringError?
    }

    static func consume(_ layout: Layout, variant: String?, stopAfter: Int?, pipelined: Bool, structural: Bool = false) -> Seen {
        var seen = Seen()
        let start: (LoweredSystem, LoweringStart) -> Void = { _, plan in
            seen.startCount = plan.rows
            seen.reordered = plan.reordered
        }
        let visit: (LoweredConstraint) -> Bool = { row in
            if seen.startCount == nil { seen.startedBeforeRows = false }
            seen.rows.append(row)
            return stopAfter.map { seen.rows.count < $0 } ?? true
        }
        do throws(LoweringError) {
            seen.header = pipelined
                ? try layout.lowerPipelined(variant: variant, structural: structural, start: start, visit: visit)
                : try layout.lowerChecked(variant: variant, structural: structural, start: start, visit: visit)
        } catch {
            seen.error = error
        }
        return seen
    }

    @Test("in insertion order too: the same rows as on one thread, reordered when the lines are", arguments: [1_200, 5_000])
    func sameRowsInInsertionOrder(views: Int) {
        var layout = Self.chain(views)
        for reversed in [false, true] {
            if reversed { layout.constraints.reverse() }
            let one = Self.consume(layout, variant: "wide", stopAfter: nil, pipelined: false, structural: true)
            let two = Self.consume(layout, variant: "wide", stopAfter: nil, pipelined: true, structural: true)
            #expect(one == two)
            #expect(two.reordered == reversed)
            #expect(two.rows.count == Self.consume(layout, variant: "wide", stopAfter: nil, pipelined: false).rows.count)
        }
    }

    @Test("every row in order, across block boundaries, for each variant", arguments: [0, 1, 700, 2_100, 5_000])
    func sameRows(views: Int) {
        let layout = Self.chain(views)
        for variant in [nil, "wide"] {
            let one = Self.consume(layout, variant: variant, stopAfter: nil, pipelined: false)
            let two = Self.consume(layout, variant: variant, stopAfter: nil, pipelined: true)
            #expect(one == two, "\(views) views, variant \(variant ?? "default")")
            #expect(two.startedBeforeRows)
            #expect(two.rows.count >= 2 * views)
            // `start` announces every row to come, content rows included (a
            // consumer reserves once): exactly, when every constraint is
            // active under the variant, at least as many otherwise.
            #expect((one.startCount ?? -1) >= one.rows.count, "announced \(one.startCount ?? -1), lowered \(one.rows.count)")
            if variant == "wide" { #expect(one.startCount == one.rows.count) }
        }
    }

    @Test("a consumer that stops at any row sees what one thread shows it, and the producer stops too",
          arguments: [1, 2, 2_047, 2_048, 2_049, 6_000, 9_000])
    func earlyStop(after: Int) {
        let layout = Self.chain(3_000)
        let one = Self.consume(layout, variant: nil, stopAfter: after, pipelined: false)
        let two = Self.consume(layout, variant: nil, stopAfter: after, pipelined: true)
        #expect(one == two)
        #expect(two.rows.count == min(after, one.rows.count))
    }

    @Test("an unknown variant: the same error, no start and no rows")
    func unknownVariant() {
        let layout = Self.chain(10)
        let one = Self.consume(layout, variant: "nope", stopAfter: nil, pipelined: false)
        let two = Self.consume(layout, variant: "nope", stopAfter: nil, pipelined: true)
        #expect(one == two)
        #expect(two.error == .unknownVariant("nope"))
        #expect(two.startCount == nil && two.rows.isEmpty)
    }

    @Test("the channel hands blocks over in order, and a cancelled consumer stops the producer")
    func channel() {
        let channel = BlockChannel<Int>(capacity: 2)
        var sent = 0
        let producer = WorkerThread {
            for k in 0..<100 {
                guard channel.send([k, k]) else { break }
                sent += 1
            }
            channel.finish()
        }
        producer.start()
        var received: [Int] = []
        while let block = channel.receive() {
            received += block
            if received.count >= 20 { channel.cancel(); break }
        }
        producer.join()
        #expect(received == (0..<10).flatMap { [$0, $0] })
        // At most the capacity sent beyond what was taken before the cancel.
        #expect(sent >= 10 && sent <= 12, "\(sent)")
    }
}
