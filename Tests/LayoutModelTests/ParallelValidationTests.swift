@testable import LayoutModel
import Testing

/// Validation on two threads (``Layout/validate(onTwoThreads:)``) against
/// one: the same diagnostics in the same order, with and without locations.
@Suite("Validation of a large layout on two threads, as on one")
struct ParallelValidationTests {
    /// `count` views in a chain with, every so often, each kind of problem
    /// the constraint and expectation checks report (in both halves), nearly
    /// parallel multipliers, and diagnostics at shared locations when
    /// `located`.
    static func layout(views count: Int, located: Bool) -> Layout {
        func at(_ line: Int, _ column: Int = 1) -> LayoutModel.SourceLocation? {
            located ? LayoutModel.SourceLocation(file: "v.layout", line: line, column: column) : nil
        }
        var views = (0..<count).map { ViewDeclaration(name: "v\($0)", location: at($0 + 1)) }
        views.append(ViewDeclaration(name: "v7", location: at(count + 1)))  // a duplicate
        var constraints: [LayoutConstraint] = []
        for i in 0..<count {
            let line = count + 10 + i
            let loc = located ? ConstraintLocations(start: LayoutModel.SourceLocation(file: "v.layout", line: line, column: 1)) : nil
            func make(_ a: ItemAttribute, _ r: Relation, _ b: ItemAttribute?, multiplier: Double = 1, constant: Double = 0,
                      priority: Priority = .required, traits: [String] = []) -> LayoutConstraint {
                LayoutConstraint(a, r, b, multiplier: multiplier, constant: constant, priority: priority, traits: traits, locations: loc)
            }
            switch i % 97 {
            case 3: constraints.append(make(ItemAttribute("v\(i)", .left), .equal, ItemAttribute("nobody", .right)))
            case 11: constraints.append(make(ItemAttribute("v\(i)", .left), .equal, ItemAttribute("v0", .width)))
            case 19: constraints.append(make(ItemAttribute("v\(i)", .width), .equal, nil, constant: 2e9))
            case 23: constraints.append(make(ItemAttribute("v\(i)", .width), .equal, nil, constant: 2e7))
            case 31: constraints.append(make(ItemAttribute("v\(i)", .top), .equal, ItemAttribute("v0", .left)))
            case 41: constraints.append(make(ItemAttribute("v5", .width), .equal, ItemAttribute("v0", .height), multiplier: 0.9999999))
            case 42: constraints.append(make(ItemAttribute("v5", .width), .equal, ItemAttribute("v0", .height), multiplier: 1.0000001))
            case 57: constraints.append(make(ItemAttribute("v\(i)", .left), .equal, nil, constant: 5))
            case 61: constraints.append(make(ItemAttribute("v\(i)", .width), .greaterThanOrEqual, nil, constant: 1, traits: ["never"]))
            case 71: constraints.append(make(ItemAttribute("ghost\(i)", .width), .equal, nil, constant: 1, priority: Priority(2000)))
            default:
                let previous = i == 0 ? ItemAttribute("super", .left) : ItemAttribute("v\(i - 1)", .right)
                constraints.append(make(ItemAttribute("v\(i)", .left), .equal, previous, constant: 8))
            }
        }
        var expectations: [LayoutModel.Expectation] = []
        for i in stride(from: 0, to: count, by: 13) {
            let view = i % 3 == 0 ? "v\(i)" : "missing\(i)"
            let y = i % 5 == 0 ? 3e7 : Double(i)
            expectations.append(LayoutModel.Expectation(variant: i % 7 == 0 ? "nosuch" : nil,
                                            .frame(view: view, Frame(x: 0, y: y, width: 1, height: 1)), location: at(3 * count + i)))
        }
        return Layout(container: ContainerSize(width: 375, height: nil), views: views, constraints: constraints,
                      expectations: expectations)
    }

    @Test("the same diagnostics, in the same order", arguments: [(1, true), (2, false), (501, true), (3_000, false), (3_001, true)])
    func sameDiagnostics(views: Int, located: Bool) {
        let layout = Self.layout(views: views, located: located)
        let one = layout.validate(onTwoThreads: false)
        let two = layout.validate(onTwoThreads: true)
        #expect(one == two)
        if views > 1_000 {
            #expect(one.count > 100, "the layout has problems to report: \(one.count)")
            #expect(one.contains { if case .nearlyParallel = $0.kind { return true } else { return false } })
        }
    }

    @Test("many undeclared views: suggestions for the first ones in source order only, so that validation stays linear")
    func suggestionsBounded() {
        let count = 20_000
        let views = (0..<count).map { ViewDeclaration(name: "view\($0)") }
        // Each constraint names a view that is one letter off a declared one.
        let constraints = (0..<count).map { i in
            LayoutConstraint(ItemAttribute("viex\(i)", .width), .equal, nil, constant: 1,
                             locations: ConstraintLocations(start: LayoutModel.SourceLocation(file: "s.layout", line: i + 1, column: 1)))
        }
        let layout = Layout(container: ContainerSize(width: 375, height: nil), views: views, constraints: constraints)
        let diagnostics = layout.validate(onTwoThreads: true)
        let suggestions = diagnostics.map { d -> String? in
            if case .undeclaredView(_, let suggestion) = d.kind { return suggestion } else { return nil }
        }
        #expect(diagnostics.count == count)
        #expect(suggestions.prefix(Layout.suggestionLimit).allSatisfy { $0 != nil })
        #expect(suggestions.prefix(3) == ["view0", "view1", "view2"])
        #expect(suggestions.dropFirst(Layout.suggestionLimit).allSatisfy { $0 == nil })
    }

    @Test("the bounded edit distance is the distance up to its limit, and above the limit beyond it")
    func boundedDistance() {
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var previous: [Int] = [], current: [Int] = []
        for _ in 0..<3_000 {
            let a = (0..<(next() % 9)).map { _ in UInt8(97 + next() % 4) }
            let b = (0..<(next() % 9)).map { _ in UInt8(97 + next() % 4) }
            let exact = NameSuggestion.editDistance(a, b)
            for limit in 0...3 {
                let bounded = NameSuggestion.distance(a, b, atMost: limit, &previous, &current)
                #expect(exact <= limit ? bounded == exact : bounded > limit, "\(a) \(b) limit \(limit)")
            }
        }
        #expect(NameSuggestion.closest(to: "Lable", among: ["label", "lable2", "button"]) == "lable2")  // distance 1 beats 2
        #expect(NameSuggestion.closest(to: "LABEL", among: ["lbl", "label"]) == "label")
        #expect(NameSuggestion.closest(to: "zzzzzz", among: ["label"]) == nil)
    }
}
