import CassowaryLayout
import Foundation
import LayoutDSL
import LayoutFormat
import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

/// The seed layouts written in Swift with the DSL.
enum SeedsInSwift {
    static let container = LayoutView.container

    static func emojiPlayground() -> Layout {
        let gray = LayoutView("gray"), red = LayoutView("red"), blue = LayoutView("blue"), orange = LayoutView("orange")
        return Layout(container: ContainerSize(width: 375, height: 300), views: [gray, red, blue, orange]) {
            pin(gray, to: container, insets: EdgeInsets(all: 20))
            red.left == container.left + 60
            red.top == container.top + 60
            red.height == 40
            red.width == 40
            red.bottom == blue.top - 100 ~ 800
            red.bottom == blue.top - 10 ~ 900
            red.centerX == blue.centerX
            blue.width == red.width + 20
            blue.height == 100
            orange.left == blue.right + 40
            orange.centerY == blue.centerY
            orange.height == 45
            orange.width == 25
        }
    }

    static func alternatingGrid() -> Layout {
        let top = LayoutView("top")
        let rows = (1...3).map { (LayoutView("row\($0)_left"), LayoutView("row\($0)_right")) }
        var layout = Layout(container: ContainerSize(width: 375, height: 812), traits: ["portrait"],
                            views: [top] + rows.flatMap { [$0.0, $0.1] }) {
            top.left == container.left + 16
            top.right == container.right - 16
            top.top == container.topMargin + 16
        }
        var above = top
        for (i, (left, right)) in rows.enumerated() {
            let square = i % 2 == 0
            layout.add {
                left.left == container.left + 16
                right.right == container.right - 16
                left.top == above.bottom + 8
                right.left == left.right + 8
                right.top == left.top
                right.bottom == left.bottom
                left.width == left.height * (square ? 1 : 2)
                right.width == right.height * (square ? 2 : 1)
            }
            above = left
        }
        layout.add { above.bottom == container.bottomMargin - 16 }
        layout.variants = [Variant(name: "landscape", size: ContainerSize(width: 812, height: 375), traits: ["landscape"]),
                           Variant(name: "ipad", size: ContainerSize(width: 768, height: 1024), traits: ["portrait", "ipad"])]
        return layout
    }

    static func compactConstraint() -> Layout {
        let button = LayoutView("button"), label = LayoutView("label"), spinner = LayoutView("spinner")
        let emailLabel = LayoutView("emailLabel"), emailField = LayoutView("emailField"), preview = LayoutView("preview")
        let buttonHeight = 36.0, spacing = 15.0, scale = 1.25
        return Layout(container: ContainerSize(width: 320, height: 480),
                      views: [button, label, spinner, emailLabel, emailField, preview]) {
            button.centerX == container.centerX
            label.width == button.width * scale + 40
            spinner.left == button.right + 10 ~ .high
            button.height == buttonHeight
            spinner.height == 40 ~ 100
            emailLabel.left >= emailField.left
            preview.height == preview.width / 1.6
            button.top == container.top + 20
            button.width == 100
            label.centerX == container.centerX
            label.top == button.bottom + spacing
            label.height == 21
            spinner.left == container.left + 8 ~ .low
            spinner.width == 20
            spinner.centerY == button.centerY
            spinner.height == button.height ~ .fitting
            emailLabel.left == container.left ~ .low
            emailLabel.top == label.bottom + spacing
            emailLabel.width == 60
            emailLabel.height == 17
            emailField.left == container.left + 20
            emailField.right == container.right - 20
            emailField.top == emailLabel.bottom + 4
            emailField.height == 30
            preview.left == container.left + 20
            preview.right == container.right - 20
            preview.top == emailField.bottom + spacing
        }
    }

    static func textualAutoLayout() -> Layout {
        let box = LayoutView("box"), outer = LayoutView("outer"), inner = LayoutView("inner"), card = LayoutView("card")
        let childA = LayoutView("childA"), childB = LayoutView("childB")
        var layout = Layout(container: ContainerSize(width: 320, height: 400), views: [box, outer, inner, card, childA, childB]) {
            box.width >= box.height * 2
            box.width <= 250
            box.width == 250 ~ .high
            box.height == 150 ~ .low
            box.left == container.left + 10
            box.top == container.top + 10
            outer.left == container.left + 10
            outer.top == box.bottom + 10
            outer.width == 300
            outer.height == 80
            pin(inner, to: outer, insets: EdgeInsets(all: 5))
            card.left == container.left + 10
            card.right == container.right - 10
            card.top == outer.bottom + 10
            card.bottom == container.bottom - 10
            for child in [childA, childB] {
                child.leadingMargin == card.leadingMargin
                child.trailingMargin == card.trailingMargin
            }
            childA.top == card.topMargin
            childA.height == 35
            childB.top == childA.bottom + 8
            childB.height == 35
        }
        if let i = layout.views.firstIndex(where: { $0.name == "card" }) {
            layout.views[i].margins = EdgeInsets(top: 12, left: 20, bottom: 12, right: 20)
        }
        return layout
    }

    static func readableConstraints() -> Layout {
        let panel = LayoutView("panel"), control1 = LayoutView("control1"), control2 = LayoutView("control2")
        var layout = Layout(container: ContainerSize(width: 375, height: 667), traits: ["portrait"], views: [panel, control1, control2]) {
            (panel.width == container.width * 1.0).when("portrait")
            (panel.width == container.width * 0.4).when("landscape")
            panel.left == container.left
            panel.top == container.top + 20
            panel.height == 100
            control1.left == container.left + 20
            control1.top == panel.bottom + 20
            control1.width == 100 ~ .high
            control1.height == 44
            control2.left == control1.right + 20
            control2.width == control1.width
            control2.height == control1.height
            control2.top == control1.top ~ 500
            (control2.centerY == container.centerY).when("ipad")
            (control1.width == 200).when("landscape", "ipad")
        }
        layout.variants = [
            Variant(name: "landscape", size: ContainerSize(width: 667, height: 375), traits: ["landscape"]),
            Variant(name: "ipad", size: ContainerSize(width: 768, height: 1024), traits: ["portrait", "ipad"]),
            Variant(name: "ipadLandscape", size: ContainerSize(width: 1024, height: 768), traits: ["landscape", "ipad"]),
        ]
        return layout
    }
}

@Suite("One model, three syntaxes")
struct ThreeSyntaxesTests {
    static let seeds: [(String, @Sendable () -> Layout)] = [
        ("emoji-playground", SeedsInSwift.emojiPlayground), ("alternating-grid", SeedsInSwift.alternatingGrid),
        ("compact-constraint", SeedsInSwift.compactConstraint), ("textual-auto-layout", SeedsInSwift.textualAutoLayout),
        ("readable-constraints", SeedsInSwift.readableConstraints),
    ]

    /// A lowered system in canonical form: each row sign-normalised (`>=`
    /// turned into `<=`, an equality's first coefficient made positive) and
    /// the rows sorted. Two layouts that say the same thing in different
    /// words (`a.right = super.right - 16` or `H:[a]-16-|`) compare equal.
    static func canonical(_ system: LoweredSystem) -> [String] {
        system.constraints.map { row -> String in
            var terms = row.expression.terms.map { (system.name(of: $0.variable), $0.coefficient) }
            var constant = row.expression.constant
            var relation = row.relation
            let flip = relation == .greaterThanOrEqual || (relation == .equal && (terms.first?.1 ?? 0) < 0)
            if flip {
                terms = terms.map { ($0.0, -$0.1) }
                constant = -constant
                if relation == .greaterThanOrEqual { relation = .lessThanOrEqual }
            }
            let text = terms.map { "\($0.1) \($0.0)" }.joined(separator: " + ")
            return "\(text) + \(constant == 0 ? 0 : constant) \(relation.symbol) 0 @ \(row.priority)"
        }.sorted()
    }

    static func file(_ path: String) throws -> Layout {
        let (result, _) = LayoutParser.parseFile(atPath: path)
        guard let layout = result.layout else {
            Issue.record("\(path):\n\(result.renderedDiagnostics())")
            throw CancellationError()
        }
        return layout
    }

    @Test("each seed in .layout, in VFL and in the DSL: the same lowered constraints and frames in every variant",
          arguments: 0..<5)
    func sameModel(index: Int) throws {
        let (name, swift) = Self.seeds[index]
        let text = try Self.file(TestCorpus.path("seed/\(name).layout"))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let vfl = try Self.file(fixtures.appendingPathComponent("\(name).vfl.layout").path)
        let dsl = swift()
        #expect(!dsl.validate().containsErrors)
        #expect(vfl.constraints.count == text.constraints.count, "\(name): VFL expands to \(vfl.constraints.count) constraints")
        for variant in text.allVariants.map(\.name) {
            let reference = Self.canonical(try text.lowered(variant: variant))
            #expect(Self.canonical(try vfl.lowered(variant: variant)) == reference, "\(name) \(variant): VFL differs")
            #expect(Self.canonical(try dsl.lowered(variant: variant)) == reference, "\(name) \(variant): DSL differs")
            // The same rows inserted in another order round differently in the
            // last bits: frames agree within the cross-check tolerance.
            let frames = try CassowaryLayoutSolver().load(text, variant: variant).frames
            func same(_ other: [Frame]) -> Bool {
                other.count == frames.count && zip(other, frames).allSatisfy { x, y in
                    FrameComponent.allCases.allSatisfy { Tolerance.crossCheck.isClose(x[$0], y[$0]) }
                }
            }
            #expect(same(try CassowaryLayoutSolver().load(vfl, variant: variant).frames), "\(name) \(variant)")
            #expect(same(try CassowaryLayoutSolver().load(dsl, variant: variant).frames), "\(name) \(variant)")
        }
    }
}
