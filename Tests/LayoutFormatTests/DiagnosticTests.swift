import LayoutFormat
import LayoutModel
import Testing

/// One test per diagnostic kind: the kind, the message and the line:col.
@Suite("Diagnostics of the .layout parser")
struct DiagnosticTests {
    struct Found: Equatable, CustomStringConvertible {
        var message: String
        var line: Int
        var column: Int
        var description: String { "\(line):\(column): \(message)" }
    }

    func found(_ text: String) -> [Found] {
        LayoutParser.parse(text, fileName: "t.layout").diagnostics.map {
            Found(message: $0.message, line: $0.location?.line ?? 0, column: $0.location?.column ?? 0)
        }
    }

    func only(_ text: String) -> Found? {
        let all = found(text)
        #expect(all.count == 1, "\(all)")
        return all.first
    }

    let header = "container 100 x 100\nviews a b\n"

    @Test func invalidUTF8() {
        let result = LayoutParser.parse(bytes: Array("container 1 x 1\nviews a".utf8) + [0xC3, 0x28], fileName: "t.layout")
        #expect(result.diagnostics.map(\.kind) == [.invalidUTF8])
        #expect(result.diagnostics.first?.location == SourceLocation(file: "t.layout", line: 2, column: 8))
        #expect(result.layout == nil)
    }

    @Test func unexpectedCharacter() {
        #expect(only(header + "views c $") == Found(message: "unexpected character '$'", line: 3, column: 9))
        #expect(only(header + "a.width = b.width ^ 2")?.message == "unexpected character '^'")
        #expect(only(header + "a.width < 3") == Found(message: "unexpected character '<' (relations are '<=' and '>=')",
                                                       line: 3, column: 9))
        #expect(only(header + "\u{0}") == Found(message: "unexpected character U+0000", line: 3, column: 1))
    }

    @Test func numberOutOfRange() {
        #expect(only(header + "a.width = 1e999") == Found(message: "number '1e999' is out of range", line: 3, column: 11))
    }

    @Test func unexpectedToken() {
        #expect(only(header + "container 375 by 812")
                == Found(message: "expected 'x' between width and height, found 'by'", line: 3, column: 15))
        #expect(only(header + "a.width = b.width +")
                == Found(message: "expected a constant, found end of line", line: 3, column: 20))
        #expect(only(header + "a.width = b.width 3")
                == Found(message: "expected end of line, found '3'", line: 3, column: 19))
        #expect(only(header + "a.width b.width")
                == Found(message: "expected a relation '=', '==', '<=' or '>=', found 'b'", line: 3, column: 9))
    }

    @Test func unknownKeyword() {
        #expect(only(header + "contaner 1 x 1") == Found(
            message: "unknown keyword 'contaner'; did you mean 'container'? (a constraint starts with 'view.attribute')",
            line: 3, column: 1))
        #expect(only(header + "frobnicate")?.message
                == "unknown keyword 'frobnicate' (a constraint starts with 'view.attribute')")
    }

    @Test func unknownAttribute() {
        #expect(only(header + "a.lft = b.left")
                == Found(message: "unknown attribute 'lft'; did you mean 'left'?", line: 3, column: 3))
        #expect(only(header + "a.left = b.CenterX")?.message == "unknown attribute 'CenterX'; did you mean 'centerX'?")
    }

    @Test func unknownMetric() {
        #expect(only(header + "a.width = b.width + gapp") == Found(message: "unknown metric 'gapp'; expected a constant, or a metric declared on a 'metrics' line", line: 3, column: 21))
        // After '@' the message names the priority words.
        #expect(only(header + "a.width = 10 @ medium")
                == Found(message: "unknown metric 'medium'; expected a priority (1...1000, required, high, low or fitting), "
                         + "or a metric declared on a 'metrics' line", line: 3, column: 16))
    }

    @Test func misplacedMultiplier() {
        #expect(only(header + "a.width >= 2 * a.height") == Found(
            message: "a multiplier follows the second item: write 'a.width = b.height * 2'", line: 3, column: 12))
    }

    @Test func divisionByZero() {
        #expect(only(header + "a.width = b.width / 0") == Found(message: "division by zero", line: 3, column: 21))
    }

    @Test func nonFiniteMultiplier() {
        // 1 / 1e-320 overflows to infinity.
        #expect(only(header + "a.width = b.width / 1e-320")
                == Found(message: "multiplier is not a finite number", line: 3, column: 21))
    }

    @Test func missingAndDuplicateContainer() {
        #expect(only("views a") == Found(message: "missing 'container W x H' line", line: 1, column: 1))
        #expect(only(header + "container 1 x 1") == Found(message: "duplicate 'container' line", line: 3, column: 1))
    }

    @Test func tooManyErrors() {
        let text = header + String(repeating: "nonsense\n", count: 500)
        let all = found(text)
        #expect(all.count == LayoutParser.errorLimit + 1)
        #expect(all.last?.message == "too many errors (\(LayoutParser.errorLimit)); stopping here")
    }

    @Test func duplicates() {
        #expect(only(header + "views a") == Found(message: "view 'a' is declared twice", line: 3, column: 7))
        #expect(only(header + "variant v 1 x 1\nvariant v 2 x 2")
                == Found(message: "variant 'v' is declared twice", line: 4, column: 9))
        #expect(only(header + "metric m = 1\nmetric m = 2") == Found(message: "metric 'm' is declared twice", line: 4, column: 8))
        #expect(only(header + "margins a 1 1 1 1\nmargins a 2 2 2 2")
                == Found(message: "margins of 'a' are set twice", line: 4, column: 9))
    }

    @Test func reservedNames() {
        #expect(only(header + "views super") == Found(message: "'super' is reserved (the container)", line: 3, column: 7))
        #expect(only(header + "variant default 1 x 1")
                == Found(message: "'default' is reserved (the container line's own variant)", line: 3, column: 9))
        #expect(only(header + "variant ambiguous 1 x 1")?.message == "'ambiguous' is reserved (a keyword of 'expect')")
    }

    @Test func undeclaredNames() {
        #expect(only(header + "a.left = ghost.right") == Found(message: "undeclared view 'ghost' (declare it on a 'views' line)", line: 3, column: 10))
        #expect(only(header + "margins ghost 1 1 1 1") == Found(message: "undeclared view 'ghost' (declare it on a 'views' line)", line: 3, column: 9))
        #expect(only(header + "expect ghost = 0 0 0 0") == Found(message: "undeclared view 'ghost' (declare it on a 'views' line)", line: 3, column: 1))
        // A near miss gets a suggestion instead.
        #expect(only(header + "a.left = bb.right") == Found(message: "undeclared view 'bb'; did you mean 'b'?", line: 3, column: 10))
        #expect(only(header + "expect nowhere a = 0 0 0 0") == Found(message: "undeclared variant 'nowhere'", line: 3, column: 1))
    }

    @Test func invalidContainerSize() {
        #expect(only("container -5 x 10")
                == Found(message: "invalid container size: container width -5 must be finite and >= 0", line: 1, column: 1))
    }

    @Test func locationAgainstDimension() {
        #expect(only(header + "a.left = b.width")
                == Found(message: "cannot relate location 'left' to dimension 'width'", line: 3, column: 10))
    }

    @Test func axisMismatch() {
        #expect(only(header + "a.left = b.top")
                == Found(message: "cannot relate horizontal 'left' to vertical 'top'", line: 3, column: 10))
    }

    @Test func aspectRatiosAcrossAxesAreLegal() {
        #expect(found(header + "a.width = a.height * 2\na.height = b.width").isEmpty)
    }

    @Test func locationAgainstConstant() {
        #expect(only(header + "a.left = 10") == Found(
            message: "location 'left' cannot equal a constant; relate it to another view's attribute", line: 3, column: 10))
    }

    @Test func zeroMultiplierOnLocation() {
        #expect(only(header + "a.left = b.left * 0 + 10")
                == Found(message: "multiplier 0 makes location 'left' equal a constant", line: 3, column: 19))
        #expect(found(header + "a.width = b.width * 0 + 10").isEmpty)
    }

    @Test func priorityOutOfRange() {
        #expect(only(header + "a.width = 10 @ 1001") == Found(message: "priority 1001 is outside 1...1000", line: 3, column: 16))
        #expect(only(header + "a.width = 10 @ 0")?.message == "priority 0 is outside 1...1000")
        #expect(only(header + "a.width = 10 @ -5")?.message == "priority -5 is outside 1...1000")
    }

    @Test func traitNeverActiveIsAWarning() {
        let result = LayoutParser.parse(header + "when landscpe: a.width = 1", fileName: "t.layout")
        #expect(result.diagnostics.map(\.kind) == [.traitNeverActive("landscpe")])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.isValid)
    }

    @Test func unreadableFile() {
        let (result, readable) = LayoutParser.parseFile(atPath: "/nonexistent/x.layout")
        #expect(!readable)
        #expect(result.diagnostics.map(\.message) == ["cannot read file: no such file"])
        let (directory, _) = LayoutParser.parseFile(atPath: "/tmp")
        #expect(directory.diagnostics.map(\.message) == ["cannot read file: is a directory"])
    }

    @Test("all errors of a file are collected, in source order")
    func collected() {
        let all = found("""
            container 10 x 10
            views a
            a.lft = a.right
            a.left = ghost.left
            bogus
            a.width = 10 @ 2000
            """)
        #expect(all.map(\.line) == [3, 4, 5, 6])
    }

    @Test("past the error limit, the first errors in source order are shown, content and margins lines included, with suggestions")
    func limitInSourceOrder() {
        // Content lines for missing views first, margins for missing views
        // after: the syntax stage reports the margins first.
        var lines = ["container 100 x 100", "views " + (0..<80).map { "view\($0)" }.joined(separator: " ")]
        lines += (0..<80).map { "intrinsic viex\($0) 10 10" }
        lines += (0..<80).map { "margins viey\($0) 1 2 3 4" }
        let all = found(lines.joined(separator: "\n"))
        #expect(all.count == LayoutParser.errorLimit + 1)
        #expect(all.first == Found(message: "undeclared view 'viex0'; did you mean 'view0'?", line: 3, column: 11))
        #expect(all.dropLast().allSatisfy { $0.line <= 3 + LayoutParser.errorLimit && $0.message.contains("did you mean") }, "\(all)")
        #expect(all.last?.message == "too many errors (50); stopping here")
    }

    @Test("rendered like a compiler: FILE:LINE:COL, the line and a caret")
    func rendering() {
        let result = LayoutParser.parse(header + "a.lft = b.left", fileName: "grid.layout")
        #expect(result.renderedDiagnostics() == """
            grid.layout:3:3: error: unknown attribute 'lft'; did you mean 'left'?
                a.lft = b.left
                  ^

            """)
        let duplicate = LayoutParser.parse(header + "views a", fileName: "d.layout")
        #expect(duplicate.renderedDiagnostics().contains("d.layout:2:7: note: first declared here"))
    }

    @Test("a long line is shown as a window around the column")
    func longLineExcerpt() {
        let line = "a.width = b.width " + String(repeating: "+ 1 ", count: 5000) + "$"
        let rendered = LayoutParser.parse(header + line, fileName: "t.layout").renderedDiagnostics()
        let excerptLines = rendered.split(separator: "\n")
        #expect(excerptLines.count == 3)
        #expect(excerptLines.allSatisfy { $0.count < 200 })
        // The caret sits under the first error, the second '+'.
        let text = excerptLines[1], caret = excerptLines[2]
        let column = caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }
        #expect(column.map { Array(text)[$0] } == "+")
    }

    @Test("visual format: errors point at the column in the VFL string")
    func visualFormatErrors() {
        #expect(only(header + "H:|-[a]-[b] optionz") == Found(message: "expected end of line, found 'optionz'", line: 3, column: 13))
        #expect(only(header + "H:[super]") == Found(message: "expected a view (the container is '|'), found 'super'", line: 3, column: 4))
        #expect(only(header + "V:[a]-(==b)-[b]") == Found(message: "unknown metric 'b'; expected a spacing or metric, or a metric declared on a 'metrics' line", line: 3, column: 10))
        #expect(only(header + "H:|-[a]- ") == Found(message: "expected a spacing, '[view]' or '|' after '-', found end of line",
                                                   line: 3, column: 10))
        #expect(only(header + "H:[a options alignAllTop") == Found(message: "expected ']' after the view, found 'options'", line: 3, column: 6))
        #expect(only(header + "H:[a][b] options alignAllLeft")
                == Found(message: "expected an alignment option of H: lines (alignAllBottom, alignAllCenterY, alignAllTop) or a direction "
                         + "(directionLeadingToTrailing, directionLeftToRight, directionRightToLeft), found 'alignAllLeft'",
                         line: 3, column: 18))
        #expect(only(header + "H:[a][ghost]") == Found(message: "undeclared view 'ghost' (declare it on a 'views' line)", line: 3, column: 7))
        #expect(only(header + "H:[a(==1e999)]") == Found(message: "number '1e999' is out of range", line: 3, column: 8))
        #expect(only(header + "H:[a(>=10@2000)]") == Found(message: "priority 2000 is outside 1...1000", line: 3, column: 11))
    }
}
