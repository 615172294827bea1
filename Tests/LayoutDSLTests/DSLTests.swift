import LayoutDSL
import LayoutModel
import Testing

@Suite("The Swift DSL")
struct DSLTests {
    let a = LayoutView("a"), b = LayoutView("b")

    @Test("operators build the constraint as written, with no side effects")
    func operators() {
        let c = a.left == b.right * 2 + 10
        #expect(c == LayoutConstraint(ItemAttribute("a", .left), .equal, ItemAttribute("b", .right), multiplier: 2, constant: 10))
        #expect((a.top <= b.bottom - 4).constant == -4 && (a.top <= b.bottom - 4).relation == .lessThanOrEqual)
        #expect((a.width >= b.height / 4).multiplier == 0.25)
        #expect((a.width == 44).second == nil && (a.width == 44).constant == 44)
        #expect((a.centerX >= b.centerX).relation == .greaterThanOrEqual)
    }

    @Test("priority binds looser than the relation: `a.width == 10 ~ .high`")
    func priority() {
        #expect((a.width == 10 ~ .high).priority == .high)
        #expect((a.left == b.right + 8 ~ 750).priority == Priority(750))
        #expect((a.left == b.right ~ 250.5).priority == Priority(250.5))
        #expect((a.width == 10).priority.isRequired)
    }

    @Test("content modifiers and baseline anchors make the model's content lines and baseline constraints")
    func content() {
        let label = LayoutView("label").intrinsicSize(width: 60, height: nil).hugging(horizontal: 251).compressionResistance(vertical: 700)
            .baselines(first: 12, last: 3)
        #expect(label.content == ViewContent(intrinsicSize: IntrinsicSize(width: 60, height: nil),
                                             hugging: AxisPriorities(horizontal: 251, vertical: 250),
                                             compression: AxisPriorities(horizontal: 750, vertical: 700),
                                             baselines: Baselines(first: 12, last: 3)))
        let layout = Layout(container: ContainerSize(width: 100, height: 100), views: [label, b]) {
            b.firstBaseline == label.lastBaseline + 2
        }
        #expect(layout.views[0].content == label.content && layout.views[1].content.isEmpty)
        #expect(layout.constraints == [LayoutConstraint(ItemAttribute("b", .firstBaseline), .equal, ItemAttribute("label", .lastBaseline),
                                                        constant: 2)])
    }

    @Test("identifiers and traits")
    func decorations() {
        let c = (a.width == 10).identified("w").when("landscape", "ipad")
        #expect(c.identifier == "w" && c.traits == ["landscape", "ipad"])
    }

    @Test("batches: the builder takes constraints, arrays, if/else and for")
    func builder() {
        let flag = true
        let layout = Layout(container: ContainerSize(width: 100, height: 100), views: [a, b]) {
            a.width == 10
            if flag { a.height == 10 } else { a.height == 20 }
            for v in [a, b] { v.left == LayoutView.container.left }
            pin(b, to: a, edges: [.top, .bottom], insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        }
        #expect(layout.constraints.map(\.description) == [
            "a.width = 10", "a.height = 10", "a.left = super.left", "b.left = super.left", "b.top = a.top + 1", "a.bottom = b.bottom + 3",
        ])
        #expect(!layout.validate().containsErrors)
    }

    @Test("dividing by zero builds a value that validation rejects, not a trap")
    func divisionByZero() {
        let layout = Layout(container: ContainerSize(width: 1, height: 1), views: [a]) { a.width == a.height / 0 }
        #expect(layout.validate().map(\.kind) == [.nonFiniteNumber(field: "multiplier")])
    }
}
