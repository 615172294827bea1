import Foundation
@testable import LayoutFormat
import LayoutModel
import LayoutTestSupport
import Testing

/// The plain-line readers (PlainLines.swift) against the general parser:
/// on every line, the two paths must give the same layout, locations and
/// diagnostics, and the readers must take the lines they are for.
@Suite("Plain constraint and expectation lines read from their bytes, as the general parser reads them")
struct PlainLineTests {
    static let header = "container 100 x 100\nviews a b row12_left c_very_long_view_name_beyond_sixteen\nmetric m = 4\n"
    /// Views for the content lines (declared after the line under test, so
    /// that the header keeps its line count).
    static let trailer = "views d e f g\n"

    /// Lines the plain readers must take (and read as the general parser does).
    static let plain: [String] = [
        "a.left = b.right", "a.left == b.right", "a.left <= b.right", "a.left >= b.right",
        "a.left=b.right*2+8@750#id", "  a.left\t=  b.right * 2 + 8 @ 750 # an id  ",
        "a.width = b.height / 4 - 0.5", "a.width = .5", "a.width = 1e3 @ 1", "a.width = 12.25e-1",
        "row12_left.top = super.topMargin + 16", "a.centerX = b.centerX", "a.trailing = b.leading - 8",
        "c_very_long_view_name_beyond_sixteen.bottom = a.lastBaseline", "a.leftMargin = b.centerYWithinMargins",
        "a . left = b . right", "a.left = b.right #", "a.left = b.right # ", "a.height = 0",
        "a.width = 00012.5000", "a.width = 123456789012345678901234", "a.left = b.right * 0.333333333333333333333",
        "expect a = 0 0 10 20", "expect a == -1 +2 - 3 .5", "expect   row12_left=1 2 3 4 # note", "expect ambiguous = 1 2 3 4",
        "expect c_very_long_view_name_beyond_sixteen = 1e2 0 0 0",
        "views d", "views d e\tf   g # more", "views d#c", "  views  d  ", "views views expect super", "views.left = 5",
        "intrinsic d 77 21", "hugging d 251 250", "compression e\t750 1000 # c", "baselines f 17 4", "  intrinsic  g 0 .5",
        "intrinsic.width = 5", "intrinsic super 1 2", "intrinsic zz 1 2",
        // Views named like keywords, or with a keyword's length and first
        // byte: their keyword reader declines, the constraint reader takes them.
        "expect.top = a.bottom", "expand.left = a.left + 1", "hugging.width = 5", "compression.left = a.right",
        "baselines .top = 8", "bystanders.top = 8", "ibex_view.left = a.left",
    ]

    /// Lines the readers must decline (the general parser reads them, to a
    /// constraint or to an error).
    static let declined: [String] = [
        "a.left = m", "a.left = b.right + m", "a.left = b.right @ high", "a.left = -5", "a.left = b.right - -5",
        "a.left = b.right * -2", "a.left = b.right / 0", "a.left = 5 * b.width", "a.left = b.right * 2 * 3",
        "a.left = b.right + 8x", "a.left = b.right + 8.", "a.left = b.right + 1e", "a.left = b.right b",
        "a.lft = b.right", "a.left = b.rigth", "a.left = b", "a.left b.right", "a.left < b.right", "a.left =< b.right",
        "a.5 = b.right", "a .5", "a.left = b.right +", "a.left = b.right @", "a.left = 1e999", "a.left = b.right * 1e999",
        "when landscape: a.left = b.right", "a.left = b.right ; x", "a.left = b.right é", "a.left = b.right @ 750 750",
        "expect a = 1 2 3", "expect a = 1 2 3 4 5", "expect portrait a = 1 2 3 4", "expect a = 1 2 3 4 within 0.5",
        "expect a = 1 2 3 4 observed xcode", "expect a = m 2 3 4", "expect a.left = 1 2 3 4", "expect unsatisfiable",
        "expect ambiguous a b", "expected a = 1 2 3 4", "expect a = 1 2 3 4x", "# comment", "",
        "views", "views ", "views # none", "views d.e", "views d,e", "views 5", "viewsd e", "views d é",
        "views d e:", "views: d",
        "intrinsic d none 21", "intrinsic d 77", "intrinsic d 77 21 3", "intrinsic d -1 21", "intrinsic d m 21",
        "hugging d high low", "hugging d 251 250x", "intrinsic 5 5", "intrinsicd 1 2", "baselines d 1 2 within 3",
        "intrinsic d.e 1 2", "intrinsic: d 1 2",
    ]

    @Test("every plain line is taken by a reader and read as the general parser reads it")
    func plainLinesAgree() {
        for line in Self.plain {
            #expect(Self.takenByReader(line), "\(line)")
            Self.expectSameParse(Self.header + line + "\n" + Self.trailer, label: line)
        }
    }

    @Test("every other line is declined without a trace, and the general parser reads it as before")
    func otherLinesDeclined() {
        for line in Self.declined {
            #expect(!Self.takenByReader(line), "\(line)")
            Self.expectSameParse(Self.header + line + "\n" + Self.trailer, label: line)
        }
    }

    @Test("random lines from constraint fragments, spacing and junk: both paths agree", arguments: [UInt64(1), 2, 3, 4])
    func randomLinesAgree(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let fragments = ["a", "b", "row12_left", "super", ".", "left", "right", "width", "topMargin", "lft", "=", "==",
                         "<=", ">=", "<", "*", "/", "+", "-", "@", "#", "2", "0", ".5", "8.", "1e3", "750", "m", "high",
                         "x", "expect", "é", "\t", "id"]
        for _ in 0..<400 {
            var line = ""
            for _ in 0..<Int(random.next() % 12) {
                line += fragments[Int(random.next() % UInt64(fragments.count))]
                if random.next() % 3 == 0 { line += " " }
            }
            Self.expectSameParse(Self.header + line + "\n", label: line)
        }
        // Well-formed lines with random parts, so that most are taken.
        let relations = ["=", "==", "<=", ">="], items = ["a", "b", "row12_left", "super"]
        let attributes = Attribute.allCases.map(\.rawValue)
        for _ in 0..<400 {
            func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
            func number() -> String { ["0", "1", "8", "0.5", "16.25", "1e2", "333.3333"][Int(random.next() % 7)] }
            var line = "\(pick(items)).\(pick(attributes)) \(pick(relations)) \(pick(items)).\(pick(attributes))"
            if random.next() % 2 == 0 { line += " \(pick(["*", "/"])) \(number())" }
            if random.next() % 2 == 0 { line += " \(pick(["+", "-"])) \(number())" }
            if random.next() % 2 == 0 { line += " @ \(["1", "250", "750", "999", "1000"][Int(random.next() % 5)])" }
            if random.next() % 2 == 0 { line += " # c\(random.next() % 100)" }
            Self.expectSameParse(Self.header + line + "\n", label: line)
        }
    }

    @Test("content lines of interleaved views: every field lands on its view, a second line of a kind is an error")
    func interleavedContent() throws {
        let text = "container 100 x auto\nviews a b\nintrinsic a 10 20\nhugging a 250 251\nintrinsic b 30 40\n"
            + "baselines a 5 6\ncompression b 700 701\nbaselines b 7 8\nhugging b 1 2\n"
        let layout = try #require(LayoutParser.parse(text).layout)
        let a = layout.views[0].content, b = layout.views[1].content
        #expect(a.intrinsicSize == IntrinsicSize(width: 10, height: 20) && a.baselines == Baselines(first: 5, last: 6))
        #expect(a.hugging == AxisPriorities(horizontal: Priority(250), vertical: Priority(251)) && a.compression == nil)
        #expect(b.intrinsicSize == IntrinsicSize(width: 30, height: 40) && b.baselines == Baselines(first: 7, last: 8))
        #expect(b.compression == AxisPriorities(horizontal: Priority(700), vertical: Priority(701)))
        #expect(b.hugging == AxisPriorities(horizontal: Priority(1), vertical: Priority(2)))
        #expect(a.intrinsicLocation?.line == 3 && a.baselinesLocation?.line == 6 && b.huggingLocation?.line == 9)
        let twice = LayoutParser.parse(text + "intrinsic a 1 1\n")
        #expect(twice.layout == nil && twice.diagnostics.count == 1)
    }

    @Test("parts beyond column 65,535 keep their locations (kept apart from the packed columns)")
    func farColumns() {
        let gap = String(repeating: " ", count: 70_000)
        for line in ["a.left =\(gap)b.right * 2 + 8 @ 750", "a.left = b.right\(gap)+ 8", "a.width\(gap)= 5"] {
            #expect(Self.takenByReader(line))
            Self.expectSameParse(Self.header + line + "\n", label: "far: \(line.count) bytes")
        }
    }

    @Test("numbers convert as Double(String) does, bit for bit: short ones exactly, long ones through it", arguments: [UInt64(7), 8])
    func numbersCorrectlyRounded(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.next() % 10)) }) }
        var texts = ["0", "00", "0.0", ".5", "1e22", "1e23", "9007199254740993", "9007199254740992.5", "0.1", "123456789012345678901",
                     "1.7976931348623157e308", "2e308", "5e-324", "1e-400", "111.6667", "0.000000000000000000001", "1E5", "1e+5", "1e-5",
                     "9999999999999999999", "18446744073709551616", "0000000000000000000000012.5"]
        for _ in 0..<3_000 {
            var text = digits(Int(random.next() % 24))
            if text.isEmpty || random.next() % 2 == 0 { text += "." + digits(1 + Int(random.next() % 24)) }
            if random.next() % 3 == 0 { text += ["e", "E"][Int(random.next() % 2)] + ["", "+", "-"][Int(random.next() % 3)] + String(random.next() % 40) }
            texts.append(text)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            var position = 0
            let value = bytes.withUnsafeBufferPointer { Lexer.scanNumber($0, &position, end: bytes.count) }
            #expect(position == bytes.count, "consumed: \(text)")
            let expected = Double(text) ?? .infinity
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) against \(expected)")
        }
    }

    @Test("every corpus file parses the same with and without the plain readers")
    func corpusAgrees() throws {
        let files = TestCorpus.files()
        #expect(files.count > 10)
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            Self.expectSameParse(bytes, label: path)
        }
    }

    // MARK: Helpers

    /// Whether a reader takes `line` (on its own, after the header's
    /// declarations), through the choice by first word that the parser
    /// makes; also checks that choice against offering the line to every
    /// reader in turn (the readers take disjoint sets of lines).
    static func takenByReader(_ line: String) -> Bool {
        let source = SourceText(header + line + "\n", fileName: "plain.layout")
        let lineNumber = 4
        return source.bytes.withUnsafeBufferPointer { bytes in
            var chosen = FileParser(source: source)
            let taken = chosen.parsePlainLine(bytes, line: lineNumber)
            var each = FileParser(source: source)
            let start = each.plainReader(bytes, line: lineNumber)
            var r = start, s = start, t = start, u = start
            let takers = [each.parsePlainConstraint(&r), each.parsePlainExpectation(&s), each.parsePlainViews(&t),
                          each.parsePlainContent(&u)].filter { $0 }.count
            #expect(takers <= 1, "\(takers) readers take \(line)")
            #expect(taken == (takers == 1), "the reader chosen by the first word \(taken ? "takes" : "declines") \(line)")
            return taken
        }
    }

    static func expectSameParse(_ text: String, label: String) {
        expectSameParse(Array(text.utf8), label: label)
    }

    /// Parses `bytes` both ways and compares everything the parse gives:
    /// the constraints with every location, the expectations with theirs,
    /// the views, and the rendered diagnostics.
    static func expectSameParse(_ bytes: [UInt8], label: String) {
        let source = SourceText(bytes: bytes, fileName: "plain.layout")
        let fast = LayoutParser.parseSyntax(source, readsPlainLines: true).validated()
        let general = LayoutParser.parseSyntax(source, readsPlainLines: false).validated()
        let render = { (result: ParseResult) in result.diagnostics.map { DiagnosticRenderer.render($0, source: source) } }
        #expect(render(fast) == render(general), "diagnostics: \(label)")
        #expect((fast.layout == nil) == (general.layout == nil), "validity: \(label)")
        guard let a = fast.layout, let b = general.layout else { return }
        #expect(a.constraints.count == b.constraints.count, "constraint count: \(label)")
        for (x, y) in zip(a.constraints, b.constraints) {
            #expect(x == y, "constraint: \(label)")
            #expect(x.locations == y.locations, "locations: \(label)")
            #expect(x.first.location == y.first.location, "first item location: \(label)")
            #expect(x.second?.location == y.second?.location, "second item location: \(label)")
            #expect(x.multiplier.bitPattern == y.multiplier.bitPattern && x.constant.bitPattern == y.constant.bitPattern,
                    "numbers bit for bit: \(label)")
        }
        #expect(a.expectations == b.expectations, "expectations: \(label)")
        #expect(a.expectations.map(\.location) == b.expectations.map(\.location), "expectation locations: \(label)")
        #expect(a.views == b.views, "views: \(label)")
    }
}
