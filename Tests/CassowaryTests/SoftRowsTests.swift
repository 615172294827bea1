@testable import CassowaryLayout
import LayoutFormat
import LayoutGenerators
@testable import LayoutModel
import LayoutSolving
import LayoutTestSupport
import Testing

/// The native solver's adapter keeps only the soft rows, in flat arrays
/// (``SoftRows``), to measure an answer's level errors: the same numbers as
/// the lowered system's own ``LoweredSystem/levelErrors(_:)``.
@Suite("Soft rows kept flat: the same level errors as the lowered system")
struct SoftRowsTests {
    /// A small deterministic generator (xorshift), so that a failure repeats.
    struct Xorshift {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    @Test("random rows and assignments: every level's error equal to the last bit", arguments: [UInt64(1), 2, 3, 4])
    func randomRows(seed: UInt64) {
        var random = Xorshift(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        let views = 20
        let priorities: [Priority] = [.required, Priority(250), Priority(251), Priority(750), Priority(999), Priority(1)]
        let relations: [Relation] = [.equal, .lessThanOrEqual, .greaterThanOrEqual]
        var rows: [LoweredConstraint] = []
        for i in 0..<500 {
            var terms: [LinearExpression.Term] = []
            for _ in 0..<Int(random.next() % 4) {
                let variable = FrameVariable(view: Int(random.next() % UInt64(views)),
                                             component: FrameComponent.allCases[Int(random.next() % 4)])
                terms.append(LinearExpression.Term(variable: variable, coefficient: random.unit() * 4 - 2))
            }
            let expression = LinearExpression(terms: terms, constant: random.unit() * 200 - 100)
            rows.append(LoweredConstraint(expression: expression, relation: relations[Int(random.next() % 3)],
                                          priority: priorities[Int(random.next() % UInt64(priorities.count))],
                                          origin: .constraint(index: i)))
        }
        let system = LoweredSystem(variant: "default", size: ContainerSize(width: 375, height: nil),
                                   viewNames: (0..<views).map { "v\($0)" }, constraints: rows)
        let soft = SoftRows(rows)
        #expect(soft.count == rows.filter { !$0.priority.isRequired }.count)
        for _ in 0..<5 {
            let values = (0..<system.variableCount).map { _ in random.unit() * 1000 - 500 }
            let expected = system.levelErrors(values)
            #expect(expected.count == 5)
            #expect(soft.levelErrors(values) == expected)
        }
    }

    @Test("the adapter's answers: level errors of every corpus file's variants and of resizes are the lowered system's",
          arguments: TestCorpus.files())
    func adapterAgrees(file: String) throws {
        let validated = try #require(LayoutParser.parseFile(atPath: file).result.validated)
        let layout = validated.layout
        let solver = CassowaryLayoutSolver()
        for (i, variant) in layout.allVariants.enumerated() {
            let solution = i == 0 ? try solver.load(validated, variant: variant.name)
                : try solver.switchVariant(to: variant.name)
            try expectLevels(solution, validated, variant.name, size: nil, file)
        }
        guard layout.allVariants.count == 1, solver.system != nil else { return }
        for width in [200.0, 900] {
            let size = ContainerSize(width: width, height: layout.container.height)
            let solution = try solver.resize(to: size)
            try expectLevels(solution, validated, layout.allVariants[0].name, size: size, file)
        }
    }

    private func expectLevels(_ solution: Solution, _ validated: ValidatedLayout, _ variant: String,
                              size: ContainerSize?, _ file: String) throws {
        guard solution.status == .solved else { return }
        var system = try validated.lowered(variant: variant)
        if let size { system.resize(to: size) }
        var values = [Double](repeating: .nan, count: system.variableCount)
        for (view, frame) in solution.frames.enumerated() {
            for (component, value) in zip(FrameComponent.allCases, [frame.x, frame.y, frame.width, frame.height]) {
                values[FrameVariable(view: view, component: component).index] = value
            }
        }
        #expect(solution.levels == system.levelErrors(values), "\(file) \(variant) \(String(describing: size))")
    }
}
