import LayoutModel
import Testing

/// Validation of models built in code (the parser's own diagnostics, with
/// line:col, are tested in LayoutFormatTests).
@Suite("Validation of models built in code")
struct ValidationTests {
    func kinds(_ constraints: [LayoutConstraint], views: [String] = ["a", "b"]) -> [DiagnosticKind] {
        Layout(container: ContainerSize(width: 100, height: 100), views: views.map { ViewDeclaration(name: $0) },
               constraints: constraints).validate().map(\.kind)
    }

    func c(_ a: Attribute, _ b: Attribute?, multiplier: Double = 1, constant: Double = 0, priority: Double = 1000)
        -> LayoutConstraint
    {
        LayoutConstraint(ItemAttribute("a", a), .equal, b.map { ItemAttribute("b", $0) }, multiplier: multiplier,
                         constant: constant, priority: Priority(priority))
    }

    @Test("legal relations give no diagnostics")
    func legal() {
        #expect(kinds([c(.left, .right), c(.top, .bottomMargin), c(.width, .height, multiplier: 0.5),
                       c(.height, nil, constant: 3), c(.centerX, .leadingMargin), c(.width, .width, multiplier: 0)]).isEmpty)
    }

    @Test("location against dimension, both ways")
    func locationAgainstDimension() {
        #expect(kinds([c(.left, .width)]) == [.locationAgainstDimension(first: .left, second: .width)])
        #expect(kinds([c(.height, .top)]) == [.locationAgainstDimension(first: .height, second: .top)])
    }

    @Test("x-axis location against y-axis location")
    func axisMismatch() {
        #expect(kinds([c(.left, .top)]) == [.axisMismatch(first: .left, second: .top)])
        #expect(kinds([c(.centerYWithinMargins, .trailing)]) == [.axisMismatch(first: .centerYWithinMargins, second: .trailing)])
    }

    @Test("a location set to a number, or multiplied by 0")
    func locationConstant() {
        #expect(kinds([c(.left, nil, constant: 10)]) == [.locationAgainstConstant(.left)])
        #expect(kinds([c(.centerX, .centerX, multiplier: 0)]) == [.zeroMultiplierOnLocation(.centerX)])
    }

    @Test("priorities outside 1...1000 and non-finite numbers")
    func numbers() {
        #expect(kinds([c(.width, nil, priority: 0)]) == [.priorityOutOfRange(0)])
        #expect(kinds([c(.width, nil, priority: 1000.5)]) == [.priorityOutOfRange(1000.5)])
        #expect(kinds([c(.width, nil, priority: .nan)]) == [.nonFiniteNumber(field: "priority")])
        #expect(kinds([c(.width, .width, multiplier: .infinity)]) == [.nonFiniteNumber(field: "multiplier")])
        #expect(kinds([c(.width, nil, constant: -.infinity)]) == [.nonFiniteNumber(field: "constant")])
    }

    @Test("undeclared, duplicate, reserved and invalid names")
    func names() {
        #expect(kinds([LayoutConstraint(ItemAttribute("ghost", .width), .equal, nil, constant: 1)])
                == [.undeclaredView("ghost")])
        #expect(kinds([], views: ["a", "a"]) == [.duplicateView("a")])
        #expect(kinds([], views: ["super"]) == [.reservedName("super", meaning: "the container")])
        #expect(kinds([], views: ["1a"]) == [.invalidName("1a", what: "view")])
        let layout = Layout(container: ContainerSize(width: 1, height: 1),
                            variants: [Variant(name: "default", size: ContainerSize(width: 1, height: 1)),
                                       Variant(name: "v", size: ContainerSize(width: -1, height: .infinity))],
                            expectations: [Expectation(variant: "w", .unsatisfiable),
                                           Expectation(.ambiguous(views: ["nobody"]))])
        #expect(layout.validate().map(\.kind) == [
            .reservedName("default", meaning: "the container line's own variant"),
            .invalidContainerSize("variant 'v' width -1 must be finite and >= 0"),
            .invalidContainerSize("variant 'v' height inf must be finite and >= 0"),
            .undeclaredVariant("w"),
            .undeclaredView("nobody"),
        ])
    }

    @Test("a when-trait that no variant has is a warning, not an error")
    func neverActive() {
        var constraint = c(.width, nil, constant: 1)
        constraint.traits = ["landscpe"]
        let diagnostics = Layout(container: ContainerSize(width: 1, height: 1), views: [ViewDeclaration(name: "a")],
                                 constraints: [constraint]).validate()
        #expect(diagnostics.map(\.kind) == [.traitNeverActive("landscpe")])
        #expect(diagnostics.first?.severity == .warning)
        #expect(!diagnostics.containsErrors)
    }

    @Test("an identifier with a line break could not be printed")
    func identifier() {
        var constraint = c(.width, nil, constant: 1)
        constraint.identifier = "two\nlines"
        #expect(kinds([constraint]) == [.invalidIdentifier("two\nlines")])
    }
}
