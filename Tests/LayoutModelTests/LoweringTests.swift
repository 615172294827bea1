import LayoutModel
import Testing

@Suite("Lowering to linear relations")
struct LoweringTests {
    /// A layout with one view `a` (margins 1 2 3 4) related to super.
    func system(_ constraint: LayoutConstraint, margins: EdgeInsets? = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        throws -> LoweredSystem
    {
        let layout = Layout(container: ContainerSize(width: 100, height: 50),
                            views: [ViewDeclaration(name: "a", margins: margins)], constraints: [constraint])
        return try layout.lowered()
    }

    /// The expression of `a.ATTR = 0 * a.width + 0`'s left side, as (x, y, w, h, constant) coefficients.
    func coefficients(_ attribute: Attribute) throws -> [Double] {
        let layout = Layout(container: ContainerSize(width: 100, height: 50),
                            views: [ViewDeclaration(name: "a", margins: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))])
        let e = layout.expression(for: attribute, ofView: 1, margins: layout.margins(of: "a"))
        var result = [0.0, 0, 0, 0, e.constant]
        for term in e.terms { result[term.variable.component.rawValue] = term.coefficient }
        return result
    }

    @Test("every attribute is the documented function of the frame and margins")
    func attributeExpressions() throws {
        // margins: top 1, left 2, bottom 3, right 4
        let expected: [Attribute: [Double]] = [
            .left: [1, 0, 0, 0, 0], .leading: [1, 0, 0, 0, 0],
            .right: [1, 0, 1, 0, 0], .trailing: [1, 0, 1, 0, 0],
            .top: [0, 1, 0, 0, 0], .bottom: [0, 1, 0, 1, 0],
            .width: [0, 0, 1, 0, 0], .height: [0, 0, 0, 1, 0],
            .centerX: [1, 0, 0.5, 0, 0], .centerY: [0, 1, 0, 0.5, 0],
            .leftMargin: [1, 0, 0, 0, 2], .leadingMargin: [1, 0, 0, 0, 2],
            .rightMargin: [1, 0, 1, 0, -4], .trailingMargin: [1, 0, 1, 0, -4],
            .topMargin: [0, 1, 0, 0, 1], .bottomMargin: [0, 1, 0, 1, -3],
            // (leftMargin + rightMargin) / 2 = x + w/2 + (2 - 4)/2
            .centerXWithinMargins: [1, 0, 0.5, 0, -1],
            // (topMargin + bottomMargin) / 2 = y + h/2 + (1 - 3)/2
            .centerYWithinMargins: [0, 1, 0, 0.5, -1],
            // Without a `baselines` line both baselines are the bottom.
            .firstBaseline: [0, 1, 0, 1, 0], .lastBaseline: [0, 1, 0, 1, 0],
        ]
        #expect(expected.count == Attribute.allCases.count)
        for attribute in Attribute.allCases {
            #expect(try coefficients(attribute) == expected[attribute], "\(attribute)")
        }
    }

    @Test("a constraint lowers to first - (multiplier * second + constant), not normalised")
    func loweredForm() throws {
        // a.right <= super.centerX * 2 - 10 @ 500
        let c = LayoutConstraint(ItemAttribute("a", .right), .lessThanOrEqual, ItemAttribute("super", .centerX),
                                 multiplier: 2, constant: -10, priority: Priority(500))
        let s = try system(c)
        let row = try #require(s.constraints.last)
        #expect(row.relation == .lessThanOrEqual)
        #expect(row.priority == Priority(500))
        #expect(row.origin == .constraint(index: 0))
        // a.x + a.w - 2 (super.x + super.w/2) + 10
        let terms = row.expression.terms.map { (s.name(of: $0.variable), $0.coefficient) }
        #expect(terms.map(\.0) == ["super.x", "super.width", "a.x", "a.width"])
        #expect(terms.map(\.1) == [-2, -1, 1, 1])
        #expect(row.expression.constant == 10)
    }

    @Test("like terms combine: a.width = a.height * 2 has two terms, a.left = a.left none")
    func likeTerms() throws {
        let aspect = try system(LayoutConstraint(ItemAttribute("a", .width), .equal, ItemAttribute("a", .height), multiplier: 2))
        #expect(aspect.constraints.last?.expression.terms.map(\.coefficient) == [1, -2])
        let trivial = try system(LayoutConstraint(ItemAttribute("a", .left), .equal, ItemAttribute("a", .left)))
        #expect(trivial.constraints.last?.expression.terms.isEmpty == true)
        #expect(trivial.constraints.last?.expression.constant == 0)
    }

    @Test("a constant constraint: a.width >= 44 lowers to a.width - 44 >= 0")
    func constantConstraint() throws {
        let s = try system(LayoutConstraint(ItemAttribute("a", .width), .greaterThanOrEqual, nil, constant: 44))
        let row = try #require(s.constraints.last)
        #expect(row.expression.terms.count == 1)
        #expect(row.expression.constant == -44)
    }

    @Test("container rows: x = 0, y = 0, width = W, height = H; none for an auto height")
    func containerRows() throws {
        var layout = Layout(container: ContainerSize(width: 320, height: 480))
        let fixed = try layout.lowered()
        #expect(fixed.constraints.map(\.origin) == [.container(.x), .container(.y), .container(.width), .container(.height)])
        #expect(fixed.constraints.map(\.expression.constant) == [0, 0, -320, -480])
        #expect(fixed.constraints.allSatisfy { $0.priority.isRequired && $0.relation == .equal })
        layout.container.height = nil
        #expect(try layout.lowered().constraints.map(\.origin) == [.container(.x), .container(.y), .container(.width)])
    }

    @Test("variants pick their size and the constraints whose traits they all have")
    func variants() throws {
        let layout = Layout(
            container: ContainerSize(width: 375, height: 667), containerTraits: ["portrait"],
            views: [ViewDeclaration(name: "a")],
            constraints: [
                LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: 1),
                LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: 2, traits: ["landscape"]),
                LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: 3, traits: ["landscape", "ipad"]),
            ],
            variants: [Variant(name: "land", size: ContainerSize(width: 667, height: 375), traits: ["landscape"]),
                       Variant(name: "padLand", size: ContainerSize(width: 1024, height: nil), traits: ["ipad", "landscape"])])
        func active(_ variant: String?) throws -> [Int] {
            try layout.lowered(variant: variant).constraints.compactMap {
                if case .constraint(let i) = $0.origin { return i } else { return nil }
            }
        }
        #expect(try active(nil) == [0])
        #expect(try active("default") == [0])
        #expect(try active("land") == [0, 1])
        #expect(try active("padLand") == [0, 1, 2])
        #expect(try layout.lowered(variant: "land").size == ContainerSize(width: 667, height: 375))
        #expect(throws: LoweringError.unknownVariant("nope")) { try layout.lowered(variant: "nope") }
    }

    @Test("lowering an invalid layout throws its diagnostics instead of trapping")
    func invalidLayout() {
        let layout = Layout(container: ContainerSize(width: 1, height: 1),
                            constraints: [LayoutConstraint(ItemAttribute("ghost", .width), .equal, nil, constant: 1)])
        #expect(throws: LoweringError.self) { try layout.lowered() }
    }

    @Test("validation makes the only layouts that lower: once, with its warnings; errors refuse")
    func validatedLayout() throws {
        let invalid = Layout(container: ContainerSize(width: 1, height: 1),
                             constraints: [LayoutConstraint(ItemAttribute("ghost", .width), .equal, nil, constant: 1)])
        #expect(throws: LoweringError.self) { try invalid.validated() }
        let (none, diagnostics) = invalid.validation()
        #expect(none == nil && diagnostics.contains { $0.severity == .error })

        // A `when` trait no variant has: a warning, kept with the validated layout.
        var layout = Layout(container: ContainerSize(width: 100, height: 50), views: [ViewDeclaration(name: "a")],
                            constraints: [LayoutConstraint(ItemAttribute("a", .width), .equal, nil, constant: 10)])
        layout.constraints[0].traits = ["never"]
        let validated = try layout.validated()
        #expect(validated.layout == layout)
        #expect(validated.warnings.count == 1 && validated.warnings.allSatisfy { $0.severity == .warning })
        #expect(try validated.lowered() == layout.lowered())
        #expect(throws: LoweringError.unknownVariant("nope")) { try validated.lowered(variant: "nope") }
        // Every trait on: the `when never` constraint gets its row.
        #expect(try validated.lowered().constraints.count + 1 == validated.everyTraitOn(rightToLeft: false).lowered().constraints.count)
    }
}
