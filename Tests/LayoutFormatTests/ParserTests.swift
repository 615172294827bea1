import LayoutFormat
import LayoutModel
import LayoutTestSupport
import Testing

@Suite("Parsing the .layout format")
struct ParserTests {
    func parse(_ text: String) throws -> Layout {
        let result = LayoutParser.parse(text, fileName: "t.layout")
        guard let layout = result.layout else {
            Issue.record("unexpected diagnostics:\n\(result.renderedDiagnostics())")
            throw CancellationError()
        }
        return layout
    }

    @Test("the anatomy of a constraint line")
    func constraintLine() throws {
        let layout = try parse("""
            container 320 x 480
            views a b
            a.left = b.right * 1 + 10 @ 750 # the id
            """)
        let c = try #require(layout.constraints.first)
        #expect(c.first == ItemAttribute("a", .left))
        #expect(c.relation == .equal)
        #expect(c.second == ItemAttribute("b", .right))
        #expect(c.multiplier == 1 && c.constant == 10 && c.priority == .high)
        #expect(c.identifier == "the id")
        #expect(c.location == SourceLocation(file: "t.layout", line: 3, column: 1))
        #expect(c.locations?.priority == SourceLocation(file: "t.layout", line: 3, column: 29))
    }

    @Test("relations, division, subtraction, constants, named priorities, metrics anywhere")
    func variety() throws {
        let layout = try parse("""
            metric gap = 8
            container w x auto traits a b
            metric w = 375
            views p q
            p.width == q.width / 1.6 - gap @ high
            p.height <= q.width * -2 + -3 @ low
            p.height >= 44 @ fitting #
            p.width = gap @ required
            q.width = 10 @ gap
            q.height = .5 @ 1e2
            """)
        #expect(layout.container == ContainerSize(width: 375, height: nil))
        #expect(layout.containerTraits == ["a", "b"])
        let c = layout.constraints
        #expect(c[0].relation == .equal && c[0].multiplier == 1 / 1.6 && c[0].constant == -8 && c[0].priority == .high)
        #expect(c[1].relation == .lessThanOrEqual && c[1].multiplier == -2 && c[1].constant == -3 && c[1].priority == .low)
        #expect(c[2].relation == .greaterThanOrEqual && c[2].second == nil && c[2].constant == 44 && c[2].identifier == nil)
        #expect(c[2].priority == .fitting)
        #expect(c[3].constant == 8 && c[3].priority == .required)
        #expect(c[4].priority == Priority(8))
        #expect(c[5].constant == 0.5 && c[5].priority == Priority(100))
    }

    @Test("375x812 without spaces, variants, margins, when, expectations")
    func declarations() throws {
        let layout = try parse("""
            # a comment
              # an indented comment
            container 375x812 traits portrait   # trailing comment
            variant land 812x375 traits landscape
            variant tall 320 x auto
            views a
            views b c
            margins a 1 2 3 -4
            margins super 0 0 0 0
            when landscape, portrait: a.width = super.width * 0.4
            expect a = 1 2 -3 4.5
            expect land b = 0 0 0 0
            expect unsatisfiable
            expect land ambiguous a b
            expect tall ambiguous
            expect default c = 1 1 1 1
            """)
        #expect(layout.container == ContainerSize(width: 375, height: 812))
        #expect(layout.variants.map(\.name) == ["land", "tall"])
        #expect(layout.variants[0].size == ContainerSize(width: 812, height: 375))
        #expect(layout.variants[1].size.height == nil)
        #expect(layout.views.map(\.name) == ["a", "b", "c"])
        #expect(layout.margins(of: "a") == EdgeInsets(top: 1, left: 2, bottom: 3, right: -4))
        #expect(layout.margins(of: "b") == .standard)
        #expect(layout.margins(of: "super") == EdgeInsets(all: 0))
        #expect(layout.constraints[0].traits == ["landscape", "portrait"])
        #expect(layout.expectations == [
            Expectation(.frame(view: "a", Frame(x: 1, y: 2, width: -3, height: 4.5))),
            Expectation(variant: "land", .frame(view: "b", Frame(x: 0, y: 0, width: 0, height: 0))),
            Expectation(.unsatisfiable),
            Expectation(variant: "land", .ambiguous(views: ["a", "b"])),
            Expectation(variant: "tall", .ambiguous(views: [])),
            Expectation(.frame(view: "c", Frame(x: 1, y: 1, width: 1, height: 1))),
        ])
    }

    @Test("views may be called like keywords; `NAME =` after expect is always a frame")
    func keywordNames() throws {
        let layout = try parse("""
            container 10 x 10
            views ambiguous unsatisfiable when metric x
            when.width = metric.width
            metric.width = 5
            x.width = 2
            expect ambiguous = 1 2 3 4
            expect unsatisfiable = 1 2 3 4
            expect ambiguous unsatisfiable x
            """)
        #expect(layout.constraints.count == 3)
        #expect(layout.constraints[0].first.item == "when")
        #expect(layout.expectations.map(\.kind) == [
            .frame(view: "ambiguous", Frame(x: 1, y: 2, width: 3, height: 4)),
            .frame(view: "unsatisfiable", Frame(x: 1, y: 2, width: 3, height: 4)),
            .ambiguous(views: ["unsatisfiable", "x"]),
        ])
    }

    @Test("visual format lines expand into ordinary constraints")
    func visualFormat() throws {
        let layout = try parse("""
            container 320 x 200
            metric spacing = 12
            views a b top row
            H:|-[a]-8-[b(==a)]-|
            when wide: V:|-20-[top(>=44@750)]-(spacing)-[row] options alignAllLeading # stack
            H:|[top(200)][row]|
            V:[a(>=10,<=20@low)]
            """)
        #expect(layout.constraints.map(\.description) == [
            "a.leading = super.leadingMargin", "b.leading = a.trailing + 8", "b.width = a.width", "super.trailingMargin = b.trailing",
            "top.top = super.top + 20", "top.height >= 44 @ 750", "row.top = top.bottom + 12", "row.leading = top.leading",
            "top.leading = super.leading", "top.width = 200", "row.leading = top.trailing", "super.trailing = row.trailing",
            "a.height >= 10", "a.height <= 20 @ 250",
        ])
        #expect(layout.constraints[4...7].allSatisfy { $0.traits == ["wide"] && $0.identifier == "stack" })
        #expect(layout.constraints[2].locations?.start == SourceLocation(file: "t.layout", line: 4, column: 14))
    }

    @Test("CRLF line endings, a BOM, tabs and a missing final newline")
    func whitespace() throws {
        let layout = try parse("\u{FEFF}container 1 x 1\r\nviews a\r\n\ta.width\t=\t3\r\nexpect a = 0 0 3 0")
        #expect(layout.constraints.first?.constant == 3)
        #expect(layout.expectations.count == 1)
    }

    @Test("every corpus file parses and validates without errors")
    func corpus() throws {
        let files = TestCorpus.files()
        #expect(files.count >= 8)
        for file in files {
            let (result, readable) = LayoutParser.parseFile(atPath: file)
            #expect(readable, "\(file)")
            #expect(result.isValid, "\(file):\n\(result.renderedDiagnostics())")
            #expect(result.diagnostics.isEmpty, "\(file) has warnings:\n\(result.renderedDiagnostics())")
        }
    }
}
