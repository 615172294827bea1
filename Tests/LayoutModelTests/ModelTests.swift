import LayoutModel
import Testing

@Suite("Model values")
struct ModelTests {
    @Test("attributes: axes and kinds")
    func attributes() {
        #expect(Attribute.allCases.count == 20)
        #expect(Attribute.allCases.filter(\.isDimension) == [.width, .height])
        #expect(Attribute.width.axis == .horizontal && Attribute.height.axis == .vertical)
        #expect(Attribute.allCases.filter { $0.axis == .vertical }.map(\.rawValue).sorted()
                == ["bottom", "bottomMargin", "centerY", "centerYWithinMargins", "firstBaseline", "height", "lastBaseline",
                    "top", "topMargin"])
    }

    @Test("named priorities")
    func priorities() {
        #expect(Priority.required.rawValue == 1000 && Priority.required.isRequired)
        #expect(Priority.high.rawValue == 750 && Priority.low.rawValue == 250 && Priority.fitting.rawValue == 50)
        #expect(Priority(750) == .high)
        #expect(!Priority(0.5).isValid && Priority(1).isValid && !Priority(1001).isValid)
    }

    @Test("equality ignores source locations")
    func equalityIgnoresLocations() {
        let here = SourceLocation(file: "a.layout", line: 3, column: 1)
        let there = SourceLocation(file: "b.layout", line: 9, column: 4)
        let a = LayoutConstraint(ItemAttribute("v", .width, location: here), .equal, nil, constant: 1,
                                 locations: ConstraintLocations(start: here))
        let b = LayoutConstraint(ItemAttribute("v", .width, location: there), .equal, nil, constant: 1,
                                 locations: ConstraintLocations(start: there))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.displayName == "a.layout:3")
    }

    @Test("constraint locations: parts on the first line as columns, others whole, start moved without moving them")
    func constraintLocations() {
        let start = SourceLocation(file: "a.layout", line: 3, column: 5)
        let relation = SourceLocation(file: "a.layout", line: 3, column: 12)
        let constant = SourceLocation(file: "a.layout", line: 4, column: 2)  // another line
        let priority = SourceLocation(file: "b.layout", line: 3, column: 30)  // another file
        var locations = ConstraintLocations(start: start, relation: relation, constant: constant, priority: priority)
        #expect(locations.start == start && locations.relation == relation && locations.multiplier == nil)
        #expect(locations.constant == constant && locations.priority == priority)
        // Moving the start leaves every part where it was written.
        let moved = SourceLocation(file: "a.layout", line: 4, column: 1)
        locations.start = moved
        #expect(locations.start == moved && locations.relation == relation)
        #expect(locations.constant == constant && locations.priority == priority)
        // Clearing and setting parts.
        locations.relation = nil
        locations.constant = nil
        locations.multiplier = SourceLocation(file: "a.layout", line: 4, column: 9)
        #expect(locations.relation == nil && locations.constant == nil)
        #expect(locations.multiplier == SourceLocation(file: "a.layout", line: 4, column: 9))
        // Equal values are equal however they are stored.
        let same = ConstraintLocations(start: moved, multiplier: SourceLocation(file: "a.layout", line: 4, column: 9),
                                       priority: priority)
        #expect(locations == same && locations.hashValue == same.hashValue)
        #expect(locations != ConstraintLocations(start: moved, priority: priority))
    }

    @Test("a part further right than 16-bit columns reach is kept whole, not wrapped")
    func farColumns() {
        let start = SourceLocation(file: "wide.layout", line: 2, column: 1)
        let far = SourceLocation(file: "wide.layout", line: 2, column: 70_000)
        let edge = SourceLocation(file: "wide.layout", line: 2, column: 65_535)
        var locations = ConstraintLocations(start: start, relation: edge, constant: far)
        #expect(locations.relation == edge && locations.constant == far)
        locations.priority = far
        #expect(locations.priority == far && locations.constant == far && locations.relation == edge)
    }

    @Test("a constraint's optional parts (item locations, locations, identifier, traits) read back as set, nil included")
    func compactStorageRoundTrips() {
        let here = SourceLocation(file: "a.layout", line: 7, column: 3)
        var c = LayoutConstraint(ItemAttribute("a", .left), .equal, ItemAttribute("b", .right, location: here), constant: 8)
        #expect(c.first.location == nil && c.second?.location == here)
        #expect(c.locations == nil && c.location == nil && c.identifier == nil && c.traits.isEmpty)
        c.first.location = here
        c.second?.location = nil
        c.locations = ConstraintLocations(start: here)
        c.identifier = "gap"
        #expect(c.first.location == here && c.second?.location == nil && c.second != nil)
        #expect(c.locations?.start == here && c.identifier == "gap" && c.traits.isEmpty)
        c.traits = ["landscape"]
        #expect(c.identifier == "gap" && c.traits == ["landscape"])
        c.identifier = nil
        #expect(c.identifier == nil && c.traits == ["landscape"])
        c.traits.append("ipad")
        #expect(c.traits == ["landscape", "ipad"] && c.isActive(under: ["ipad", "landscape"]) && !c.isActive(under: ["ipad"]))
        c.traits = []
        c.locations = nil
        #expect(c.identifier == nil && c.traits.isEmpty && c.locations == nil && c.first.location == here)
        // A copy does not see the original's later changes (the box is shared, never changed).
        var d = c
        d.identifier = "other"
        #expect(c.identifier == nil && d.identifier == "other")
    }

    @Test("an expectation's variant, observer and location read back as set, nil included; a copy keeps its own")
    func expectationStorageRoundTrips() {
        let here = SourceLocation(file: "e.layout", line: 4, column: 1)
        var e = Expectation(.frame(view: "a", Frame(x: 1, y: 2, width: 3, height: 4)), tolerance: 0.5)
        #expect(e.variant == nil && e.observedBy == nil && e.location == nil && e.tolerance == 0.5)
        e.variant = "landscape"
        e.location = here
        #expect(e.variant == "landscape" && e.observedBy == nil && e.location == here)
        e.observedBy = "xcode"
        #expect(e.variant == "landscape" && e.observedBy == "xcode")
        let copy = e
        e.variant = nil
        #expect(e.variant == nil && e.observedBy == "xcode" && copy.variant == "landscape")
        e.observedBy = nil
        e.location = nil
        #expect(e.variant == nil && e.observedBy == nil && e.location == nil && e != copy)
        #expect(Expectation(variant: "v", .unsatisfiable, observedBy: "o", location: here).variant == "v")
        #expect(MemoryLayout<LayoutModel.Expectation>.stride <= 88)  // 120 before (docs/measurements.md#m-2026-11-27-small-items)
    }

    @Test("a view's margins, their location, its content and its location read back as set, each alone; a copy keeps its own")
    func viewStorageRoundTrips() {
        let here = SourceLocation(file: "v.layout", line: 2, column: 7)
        let there = SourceLocation(file: "v.layout", line: 3, column: 1)
        let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        let content = ViewContent(intrinsicSize: IntrinsicSize(width: 80, height: nil))
        var v = ViewDeclaration(name: "label", location: here)
        #expect(v.margins == nil && v.marginsLocation == nil && v.content == .none && v.location == here)
        v.margins = insets
        v.marginsLocation = there
        #expect(v.margins == insets && v.marginsLocation == there && v.content == .none)
        v.content = content
        #expect(v.margins == insets && v.marginsLocation == there && v.content == content)
        let copy = v
        v.margins = nil
        #expect(v.margins == nil && v.marginsLocation == there && v.content == content && copy.margins == insets)
        v.marginsLocation = nil
        v.content = .none
        v.location = nil
        #expect(v.margins == nil && v.marginsLocation == nil && v.content == .none && v.location == nil)
        #expect(ViewDeclaration(name: "m", margins: insets, content: content).margins == insets)
        #expect(MemoryLayout<ViewDeclaration>.stride <= 40)  // 96 before (docs/measurements.md#m-2026-11-27-small-items)
    }

    @Test("a parsed constraint is at most 128 bytes: 800,000 of them are kept for a 10^5-row grid")
    func constraintSize() {
        // 168 bytes before the optional parts were packed (docs/measurements.md#m-2026-11-27-constraint-size).
        #expect(MemoryLayout<LayoutConstraint>.stride <= 128)
        #expect(MemoryLayout<ItemAttribute?>.stride <= 32)
    }

    @Test("number formatting: integers plain, others shortest round-trip")
    func numbers() {
        #expect(formatNumber(16) == "16")
        #expect(formatNumber(-0.0) == "0")
        #expect(formatNumber(0.625) == "0.625")
        #expect(Double(formatNumber(1.0 / 3)) == 1.0 / 3)
        #expect(Double(formatNumber(5e20)) == 5e20)
        #expect(formatNumber(111.66666666, maxFractionDigits: 4) == "111.6667")
        #expect(formatNumber(-469.00001, maxFractionDigits: 4) == "-469")
        #expect(formatNumber(-0.00001, maxFractionDigits: 4) == "0")
        #expect(formatNumber(2.5, maxFractionDigits: 0) == "3")
        #expect(formatNumber(0.05, maxFractionDigits: 4) == "0.05")
        #expect(formatNumber(-1234.0001, maxFractionDigits: 4) == "-1234.0001")
        #expect(formatNumber(.infinity, maxFractionDigits: 4) == "inf")
    }

    @Test("the byte formatter writes what the String one did, on every kind of value and every digit count")
    func bytesMatchTheStringFormatter() {
        // The String-built formatter the table writer used before it wrote bytes: the oracle.
        func reference(_ value: Double, _ decimals: Int) -> String {
            let digits = max(0, min(decimals, 9))
            var scale: Int64 = 1
            for _ in 0..<digits { scale *= 10 }
            let scaled = (abs(value) * Double(scale)).rounded()
            guard value.isFinite, scaled < 9e15 else { return formatNumber(value) }
            let n = Int64(scaled)
            if n == 0 { return "0" }
            let sign = value < 0 ? "-" : ""
            let integerPart = n / scale
            var fraction = String(n % scale)
            if digits == 0 || n % scale == 0 { return sign + String(integerPart) }
            fraction = String(repeating: "0", count: digits - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(sign)\(integerPart).\(fraction)"
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 9.99995, 1e-10, 123456789.12345, 8.9e15, 9.1e15, -7e20, .nan, .infinity, -.infinity]
        for _ in 0..<4000 {
            let magnitude = Double(next() % 1_000_000_000) / Double(1 << (next() % 40))
            values.append(next() % 2 == 0 ? magnitude : -magnitude)
        }
        for value in values {
            for decimals in -1...11 {
                #expect(formatNumber(value, maxFractionDigits: decimals) == reference(value, decimals), "\(value) \(decimals)")
            }
        }
    }

    @Test("a constraint's description is its .layout text")
    func description() {
        let c = LayoutConstraint(ItemAttribute("a", .left), .greaterThanOrEqual, ItemAttribute("b", .right),
                                 multiplier: 2, constant: -10, priority: .high)
        #expect(c.description == "a.left >= b.right * 2 - 10 @ 750")
    }
}
