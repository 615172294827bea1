import BenchHarness
import CassowaryLayout
import Foundation
import GLPKReference
import LayoutFormat
import LayoutGenerators
import LayoutModel
import LayoutSolving
import Testing

/// Intrinsic sizes, hugging, compression resistance, baselines and right to
/// left: the format, the lowering, both solvers, incremental variant switches.
@Suite("Auto Layout's content model")
struct ContentModelTests {
    static let header = "container 320 x 100\nviews a b\n"

    func parse(_ text: String) -> ParseResult { LayoutParser.parse(text, fileName: "t.layout") }

    func layout(_ text: String) throws -> Layout {
        let result = parse(text)
        return try #require(result.layout, "\(result.renderedDiagnostics())")
    }

    func errors(_ text: String) -> [String] {
        parse(text).diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    func solve(_ layout: Layout, variant: String? = nil, with solver: some LayoutSolver) throws -> Solution {
        try solver.prepare(layout, variant: variant)
        return try solver.solve()
    }

    @Test("content lines parse into the model and print back to an equal layout")
    func roundTrip() throws {
        let text = Self.header + """
            metric tall = 40
            intrinsic a 60 none
            intrinsic b none tall
            hugging a 251 required
            compression b low 749.5
            baselines a 17 4
            a.firstBaseline = b.lastBaseline
            """
        let parsed = try layout(text)
        let a = parsed.views[0].content, b = parsed.views[1].content
        #expect(a.intrinsicSize == IntrinsicSize(width: 60, height: nil))
        #expect(b.intrinsicSize == IntrinsicSize(width: nil, height: 40))
        #expect(a.hugging == AxisPriorities(horizontal: 251, vertical: .required))
        #expect(a.compression == nil && a.priority(.compression, .horizontal) == 750)
        #expect(b.compression == AxisPriorities(horizontal: .low, vertical: 749.5))
        #expect(b.priority(.hugging, .vertical) == 250)
        #expect(a.baselines == Baselines(first: 17, last: 4) && b.baselines == nil)
        #expect(a.intrinsicLocation?.line == 4 && a.huggingLocation?.line == 6)
        let printed = LayoutPrinter.print(parsed)
        #expect(printed.contains("intrinsic a 60 none\n") && printed.contains("intrinsic b none 40\n"))
        #expect(try layout(printed) == parsed)
    }

    @Test("an intrinsic size lowers to size <= S @ hugging and size >= S @ compression, named for explanations")
    func loweredRows() throws {
        let parsed = try layout(Self.header + "intrinsic a 60 20\nhugging a 251 250\nintrinsic b none 30\ncompression b 750 required\n")
        let system = try parsed.lowered()
        let content = system.constraints.filter { if case .content = $0.origin { return true } else { return false } }
        let described = content.map { parsed.describe($0.origin, size: system.size) }
        #expect(described.map(\.name) == ["hugging a (width)", "compression a (width)", "hugging a (height)", "compression a (height)",
                                         "hugging b (height)", "compression b (height)"])
        #expect(described.map(\.text) == ["a.width <= 60 @ 251", "a.width >= 60 @ 750", "a.height <= 20 @ 250",
                                         "a.height >= 20 @ 750", "b.height <= 30 @ 250", "b.height >= 30"])
        let first = try #require(content.first)
        #expect(first.expression.terms.map { system.name(of: $0.variable) } == ["a.width"])
        #expect(first.expression.constant == -60 && first.relation == .lessThanOrEqual && first.priority == 251)
        // Content rows come after the constraints and the container.
        #expect(system.constraints.suffix(content.count).elementsEqual(content))
    }

    @Test("baselines: firstBaseline = y + first, lastBaseline = y + height - last, both the bottom without a line")
    func baselines() throws {
        let parsed = try layout(Self.header + "baselines a 17 4\n")
        func terms(_ attribute: Attribute, view: Int) -> [Double] {
            let e = parsed.expression(for: attribute, ofView: view, margins: .standard,
                                      baselines: parsed.views[view - 1].content.baselines)
            var c = [0.0, 0, 0, 0, e.constant]
            for t in e.terms { c[t.variable.component.rawValue] = t.coefficient }
            return c
        }
        #expect(terms(.firstBaseline, view: 1) == [0, 1, 0, 0, 17])
        #expect(terms(.lastBaseline, view: 1) == [0, 1, 0, 1, -4])
        #expect(terms(.firstBaseline, view: 2) == [0, 1, 0, 1, 0])
        #expect(terms(.lastBaseline, view: 2) == [0, 1, 0, 1, 0])
        let frame = Frame(x: 0, y: 10, width: 5, height: 30)
        #expect(frame.value(of: .firstBaseline, baselines: Baselines(first: 17, last: 4)) == 27)
        #expect(frame.value(of: .lastBaseline, baselines: Baselines(first: 17, last: 4)) == 36)
        #expect(frame.value(of: .firstBaseline) == 40)
    }

    @Test("right to left: leading = super.width - right, trailing = super.width - left; the rest unchanged")
    func mirroredAttributes() throws {
        let parsed = try layout(Self.header)
        let m = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        func terms(_ attribute: Attribute) -> [String: Double] {
            let e = parsed.expression(for: attribute, ofView: 1, margins: m, rightToLeft: true)
            var out = ["c": e.constant]
            for t in e.terms { out[(t.variable.view == 0 ? "super." : "") + t.variable.component.description] = t.coefficient }
            return out
        }
        #expect(terms(.leading) == ["super.width": 1, "x": -1, "width": -1, "c": 0])
        #expect(terms(.trailing) == ["super.width": 1, "x": -1, "c": 0])
        #expect(terms(.leadingMargin) == ["super.width": 1, "x": -1, "width": -1, "c": 4])
        #expect(terms(.trailingMargin) == ["super.width": 1, "x": -1, "c": -2])
        for attribute in Attribute.allCases where attribute.horizontalFamily != .directional {
            #expect(parsed.expression(for: attribute, ofView: 1, margins: m, rightToLeft: true)
                    == parsed.expression(for: attribute, ofView: 1, margins: m), "\(attribute)")
        }
        // The frame's own formula agrees with the lowering.
        let frame = Frame(x: 10, y: 0, width: 50, height: 5)
        #expect(frame.value(of: .leading, margins: m, rightToLeftIn: 300) == 240)
        #expect(frame.value(of: .trailingMargin, margins: m, rightToLeftIn: 300) == 288)
    }

    @Test("with a multiplier of 1, a leading constraint right to left is its right-edge mirror with the constant's sign flipped")
    func mirrorIsUIKits() throws {
        let rtl = try layout("container 300 x 100 traits rtl\nviews a b\na.leading = super.leading + 10\nb.leading = a.trailing + 5\n"
                             + "b.width = 40\na.width = 50\na.top = super.top\nb.top = super.top\na.height = 1\nb.height = 1\n")
        let explicit = try layout("container 300 x 100\nviews a b\na.right = super.right - 10\nb.right = a.left - 5\n"
                                  + "b.width = 40\na.width = 50\na.top = super.top\nb.top = super.top\na.height = 1\nb.height = 1\n")
        for solver in [CassowaryLayoutSolver() as any LayoutSolver, GLPKLayoutSolver()] {
            let mirrored = try solve(rtl, with: solver), written = try solve(explicit, with: solver)
            #expect(mirrored.frames == written.frames, "\(solver.name)")
            #expect(mirrored.frames[1] == Frame(x: 240, y: 0, width: 50, height: 1))
        }
    }

    @Test("switching between left-to-right and right-to-left variants matches a fresh solve, in both solvers")
    func incrementalDirectionSwitch() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/content/readable-constraints-arabic.layout")
        let (result, _) = LayoutParser.parseFile(atPath: url.path)
        let parsed = try #require(result.layout)
        let order: [String?] = [nil, "arabic", "ipadLandscape", "arabicIpadLandscape", nil, "arabicIpadLandscape", "arabic"]
        for make in [{ CassowaryLayoutSolver() as any LayoutSolver }, { GLPKLayoutSolver() }] {
            let incremental = make()
            try incremental.prepare(parsed, variant: nil)
            _ = try incremental.solve()
            for variant in order {
                let switched = try incremental.switchVariant(to: variant)
                let fresh = try solve(parsed, variant: variant, with: make())
                #expect(switched.status == fresh.status)
                for (a, b) in zip(switched.frames, fresh.frames) {
                    for c in FrameComponent.allCases {
                        #expect(abs(a[c] - b[c]) < 1e-6, "\(incremental.name) \(variant ?? "default") \(c)")
                    }
                }
            }
        }
    }

    @Test("hugging decides who grows, compression who shrinks, and a required content row is named in a conflict")
    func prioritiesDecide() throws {
        let row = "container 200 x 50\nvariant narrow 100 x 50\nviews a b\nintrinsic a 50 10\nintrinsic b 80 10\n"
            + "a.leading = super.leading\nb.leading = a.trailing\nb.trailing = super.trailing\na.top = super.top\nb.top = super.top\n"
        let huggier = try layout(row + "hugging a 300 250\ncompression b 700 750\n")
        for solver in [CassowaryLayoutSolver() as any LayoutSolver, GLPKLayoutSolver()] {
            let wide = try solve(huggier, with: solver)
            #expect(abs(wide.frames[1].width - 50) < 1e-7 && abs(wide.frames[2].width - 150) < 1e-7, "\(solver.name): b grows")
            let narrow = try solve(huggier, variant: "narrow", with: solver)
            #expect(abs(narrow.frames[1].width - 50) < 1e-7 && abs(narrow.frames[2].width - 50) < 1e-7, "\(solver.name): b shrinks")
        }
        let conflicting = try layout(row + "hugging a required 250\ncompression a required 750\na.width = 60\n")
        for solver in [CassowaryLayoutSolver() as any LayoutSolver, GLPKLayoutSolver()] {
            let solution = try solve(conflicting, with: solver)
            #expect(solution.status == .unsatisfiable, "\(solver.name)")
            let names = solution.conflict.map(\.name)
            #expect(names.contains("hugging a (width)") || names.contains("compression a (width)"), "\(solver.name): \(names)")
        }
    }

    @Test("equal hugging on views that share extra space is reported ambiguous by the reference")
    func hugTieIsAmbiguous() throws {
        let tie = try layout("container 200 x 50\nviews a b\nintrinsic a 50 10\nintrinsic b 80 10\n"
                             + "a.leading = super.leading\nb.leading = a.trailing\nb.trailing = super.trailing\n"
                             + "a.top = super.top\nb.top = super.top\n")
        let solution = try solve(tie, with: GLPKLayoutSolver())
        #expect(solution.ambiguous == ["a", "b"])
    }

    @Test("located errors: mixed direction families, content on the container, duplicates, negative sizes, misplaced options")
    func errorsAreLocated() {
        #expect(errors(Self.header + "a.leading = b.left\n")
                == ["t.layout:3:13: error: cannot relate 'leading' to 'left': leading and trailing attributes follow the layout "
                    + "direction, left and right do not; use the same family on both sides"])
        #expect(errors(Self.header + "a.rightMargin >= b.trailingMargin * 2\n").count == 1)
        #expect(errors(Self.header + "a.centerX = b.leading\na.centerX = b.left\n").isEmpty)
        #expect(errors(Self.header + "intrinsic super 10 10\n")
                == ["t.layout:3:11: error: the container has no content: 'intrinsic' applies to a view, not to 'super'"])
        #expect(errors(Self.header + "hugging a 251 251\nhugging a 252 252\n") == ["t.layout:4:9: error: 'hugging' of 'a' is set twice"])
        // A view's lines apart (another view's, an undeclared one's, the container's between them): still one content.
        #expect(errors(Self.header + "hugging a 251 251\nintrinsic b 1 1\nbaselines ghost 1 2\nintrinsic super 1 1\nhugging a 252 252\n")
                == ["t.layout:5:11: error: undeclared view 'ghost' (declare it on a 'views' line)",
                    "t.layout:6:11: error: the container has no content: 'intrinsic' applies to a view, not to 'super'",
                    "t.layout:7:9: error: 'hugging' of 'a' is set twice"])
        #expect(errors(Self.header + "intrinsic a -1 none\n")
                == ["t.layout:3:11: error: intrinsic width -1 must be >= 0 (use 'none' for no intrinsic width)"])
        #expect(errors(Self.header + "compression a 0 750\n") == ["t.layout:3:13: error: priority 0 is outside 1...1000"])
        #expect(errors(Self.header + "baselines ghost 1 2\n") == ["t.layout:3:11: error: undeclared view 'ghost' (declare it on a 'views' line)"])
        #expect(errors(Self.header + "intrinsic a 10\n")
                == ["t.layout:3:15: error: expected the intrinsic height (a number, a metric or 'none'), found end of line"])
        #expect(errors(Self.header + "a.top = b.width\n").count == 1)
        #expect(errors(Self.header + "a.firstBaseline = b.centerX\n")
                == ["t.layout:3:19: error: cannot relate vertical 'firstBaseline' to horizontal 'centerX'"])
        #expect(errors(Self.header + "V:[a][b] options directionRightToLeft\n").first?.contains("direction options apply to H: lines") == true)
        #expect(errors(Self.header + "H:[a][b] options directionRightToLeft directionLeftToRight\n").first?
            .contains("one direction option") == true)
    }

    @Test("VFL: H lines follow the direction; directionLeftToRight and directionRightToLeft fix it")
    func visualFormatDirection() throws {
        let parsed = try layout("container 300 x 100\nviews a b\nH:|-10-[a(50)]-(>=5)-[b(20)]-| options directionRightToLeft\n")
        #expect(parsed.constraints.map(\.description) == ["a.right = super.right - 10", "a.width = 50", "b.right <= a.left - 5",
                                                          "b.width = 20", "super.leftMargin = b.left"])
        let fixed = try layout("container 300 x 100\nviews a b\nH:|[a]-[b]| options directionLeftToRight alignAllTop\n")
        #expect(fixed.constraints.map(\.description) == ["a.left = super.left", "b.left = a.right + 8", "super.right = b.right",
                                                         "b.top = a.top"])
    }

    @Test("random layouts with content lines and a right-to-left variant: cassowary and glpk agree", arguments: [UInt64(1), 201])
    func randomAgreement(from seed: UInt64) {
        let solvers = [SolverSpec(name: "glpk", kind: .glpk), SolverSpec(name: "cassowary", kind: .cassowary)]
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let priorities: [Priority] = [.required, 751, .high, 300, 251, .low, .fitting]
        var compared = 0
        for s in seed..<(seed + 200) {
            var layout = RandomLayoutGenerator.layout(seed: s, views: 5)
            for i in layout.views.indices where next(2) == 0 {
                var content = ViewContent()
                content.intrinsicSize = IntrinsicSize(width: next(4) == 0 ? nil : Double(10 + next(90)),
                                                      height: next(4) == 0 ? nil : Double(10 + next(50)))
                if next(2) == 0 { content.hugging = AxisPriorities(horizontal: priorities[next(7)], vertical: priorities[next(7)]) }
                if next(2) == 0 { content.compression = AxisPriorities(horizontal: priorities[next(7)], vertical: priorities[next(7)]) }
                if next(2) == 0 { content.baselines = Baselines(first: Double(next(30)), last: Double(next(10))) }
                layout.views[i].content = content
            }
            layout.variants.append(Variant(name: "arabic", size: layout.container, traits: layout.containerTraits + ["rtl"]))
            guard layout.validate().allSatisfy({ $0.severity != .error }) else { continue }
            for finding in Agreement.check(layout, solvers: solvers) {
                #expect(finding.outcome != .disagree, "seed \(s) [\(finding.variant)]: \(finding.reasons)")
                compared += 1
            }
        }
        #expect(compared >= 200)
    }

    @Test("self-sizing rows: both solvers find the closed-form frames")
    func selfSizingRows() throws {
        let generated = try SelfSizingRows.layout(rows: 40)
        for solver in [CassowaryLayoutSolver() as any LayoutSolver, GLPKLayoutSolver()] {
            let solution = try solve(generated, with: solver)
            let results = solution.check(generated.expectations(for: nil))
            let failed = results.filter { $0.verdict == .failed }
            #expect(failed.isEmpty, "\(solver.name): \(failed.prefix(3).map { $0.reason ?? "" })")
            #expect(results.filter { $0.verdict == .passed }.count >= 81)
        }
    }
}
