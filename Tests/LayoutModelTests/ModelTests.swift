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
