import LayoutModel

/// Random *valid* layouts for property tests: every construct of the model,
/// awkward names (keywords, `x`, `ambiguous`), and numbers chosen to stress
/// printing (thirds, huge and tiny exponents, negatives, integers).
public enum RandomLayouts {
    /// Names that are legal but collide with words of the format.
    static let trickyNames = ["x", "auto", "traits", "when", "expect", "ambiguous", "unsatisfiable", "required",
                              "high", "low", "fitting", "views", "metric", "margins", "variant", "container", "_", "A9"]

    static func name<R: RandomNumberGenerator>(_ index: Int, prefix: String, using rng: inout R) -> String {
        Int.random(in: 0..<4, using: &rng) == 0 ? trickyNames.randomElement(using: &rng)! + "_\(index)"
            : (Bool.random(using: &rng) ? trickyNames[index % trickyNames.count] : "\(prefix)\(index)")
    }

    /// A number that is awkward to print and read back, within the format's
    /// accepted magnitudes (|x| <= 1e9: ``NumericRange``).
    public static func number<R: RandomNumberGenerator>(using rng: inout R) -> Double {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return Double(Int.random(in: -1000...1000, using: &rng))
        case 1: return Double.random(in: -1e6...1e6, using: &rng)
        case 2: return 1.0 / Double(Int.random(in: 1...97, using: &rng))
        case 3: return Double.random(in: -1...1, using: &rng) * 1e-9
        case 4: return Double.random(in: 1...9.99, using: &rng) * 1e8 * (Bool.random(using: &rng) ? 1 : -1)
        case 5: return 0
        case 6: return Double.leastNonzeroMagnitude
        case 7: return Double(Int.random(in: 0...10, using: &rng)) + 0.5
        default: return Double.random(in: -500...500, using: &rng)
        }
    }

    /// A random valid layout.
    public static func layout<R: RandomNumberGenerator>(using rng: inout R) -> Layout {
        // Distinct names for each kind.
        var viewNames: [String] = []
        for i in 0..<Int.random(in: 1...8, using: &rng) {
            let n = name(i, prefix: "v", using: &rng)
            if !viewNames.contains(n) && n != Layout.containerName { viewNames.append(n) }
        }
        let traitPool = ["portrait", "landscape", "ipad", "compact", "x", "when"]
        func traits() -> [String] {
            Array(traitPool.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng)))
        }
        func size() -> ContainerSize {
            ContainerSize(width: abs(number(using: &rng)), height: Bool.random(using: &rng) ? abs(number(using: &rng)) : nil)
        }
        var variants: [Variant] = []
        for i in 0..<Int.random(in: 0...3, using: &rng) {
            let n = Bool.random(using: &rng) ? "var\(i)" : ["x", "auto", "traits", "when", "landscape"][i % 5] + "\(i)"
            variants.append(Variant(name: n, size: size(), traits: traits()))
        }
        let allTraits = Set(variants.flatMap(\.traits))
        let containerTraits = traits()
        let knownTraits = Array(allTraits.union(containerTraits)).sorted()

        var metrics: [Metric] = []
        for i in 0..<Int.random(in: 0...3, using: &rng) {
            metrics.append(Metric(name: name(i, prefix: "m", using: &rng) + "_m", value: number(using: &rng)))
        }

        var views = viewNames.map { ViewDeclaration(name: $0) }
        for i in views.indices where Int.random(in: 0..<4, using: &rng) == 0 {
            views[i].margins = EdgeInsets(top: number(using: &rng), left: number(using: &rng),
                                          bottom: number(using: &rng), right: number(using: &rng))
        }
        // Content lines on some views: intrinsic sizes (an axis may be none),
        // hugging and compression priorities, baselines.
        for i in views.indices where Int.random(in: 0..<3, using: &rng) == 0 {
            var content = ViewContent()
            func size() -> Double? { Bool.random(using: &rng) ? abs(number(using: &rng)) : nil }
            func priorities() -> AxisPriorities? {
                guard Bool.random(using: &rng) else { return nil }
                return AxisPriorities(horizontal: Priority(Double(Int.random(in: 1...1000, using: &rng))),
                                      vertical: [.required, .high, .low, .fitting].randomElement(using: &rng)!)
            }
            if Bool.random(using: &rng) { content.intrinsicSize = IntrinsicSize(width: size(), height: size()) }
            content.hugging = priorities()
            content.compression = priorities()
            if Bool.random(using: &rng) { content.baselines = Baselines(first: number(using: &rng), last: number(using: &rng)) }
            views[i].content = content
        }
        let items = [Layout.containerName] + viewNames

        var constraints: [LayoutConstraint] = []
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let first = ItemAttribute(items.randomElement(using: &rng)!, Attribute.allCases.randomElement(using: &rng)!)
            let relation = Relation.allCases.randomElement(using: &rng)!
            var second: ItemAttribute?
            var multiplier = 1.0
            if first.attribute.isDimension && Int.random(in: 0..<3, using: &rng) == 0 {
                second = nil
            } else {
                // A legal partner: dimensions relate to dimensions (either axis),
                // locations to locations of the same axis, leading-family edges
                // not to left-family ones.
                let partners = Attribute.allCases.filter {
                    first.attribute.isDimension ? $0.isDimension : ($0.isLocation && $0.axis == first.attribute.axis
                        && $0.inFamily(of: first.attribute) == $0)
                }
                second = ItemAttribute(items.randomElement(using: &rng)!, partners.randomElement(using: &rng)!)
                multiplier = Bool.random(using: &rng) ? 1 : number(using: &rng)
                // Multipliers the format accepts: 0, or 1e-6 <= |m| <= 1e6.
                if multiplier != 0 && !NumericRange.acceptedMultiplier.contains(abs(multiplier)) {
                    multiplier = multiplier < 0 ? -1e-6 * Double(Int.random(in: 1...9, using: &rng)) : 1e6 / Double(Int.random(in: 1...9, using: &rng))
                }
                if multiplier == 0 && first.attribute.isLocation { multiplier = 2 }
            }
            let priority: Priority = switch Int.random(in: 0..<4, using: &rng) {
            case 0: .required
            case 1: Priority(Double(Int.random(in: 1...999, using: &rng)))
            case 2: Priority(Double.random(in: 1...1000, using: &rng))
            default: [.high, .low, .fitting].randomElement(using: &rng)!
            }
            let identifiers = ["", "row 1 top", "a#b", "π ≈ 3.14159", "ends with hash #", "  "]
            var identifier: String? = identifiers.randomElement(using: &rng)!.trimmingSpaces()
            if identifier?.isEmpty == true { identifier = nil }
            let when = knownTraits.isEmpty || Bool.random(using: &rng)
                ? [] : Array(knownTraits.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)))
            constraints.append(LayoutConstraint(first, relation, second, multiplier: multiplier,
                                                constant: number(using: &rng), priority: priority,
                                                identifier: identifier, traits: when))
        }

        var expectations: [Expectation] = []
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let variant: String? = variants.isEmpty || Bool.random(using: &rng) ? nil : variants.randomElement(using: &rng)!.name
            let kind: Expectation.Kind
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                kind = .frame(view: items.randomElement(using: &rng)!,
                              Frame(x: number(using: &rng), y: number(using: &rng),
                                    width: number(using: &rng), height: number(using: &rng)))
            case 1: kind = .unsatisfiable
            default: kind = .ambiguous(views: Array(viewNames.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))))
            }
            expectations.append(Expectation(variant: variant, kind))
        }

        var layout = Layout(container: size(), containerTraits: containerTraits, views: views, metrics: metrics,
                            constraints: constraints, variants: variants, expectations: expectations)
        if Bool.random(using: &rng) { layout.containerMargins = EdgeInsets(all: number(using: &rng)) }
        return layout
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

extension RandomLayouts {
    /// A random valid layout whose constraints all have visual-format forms:
    /// edge-to-edge connections, edges to the container (and its margins),
    /// sizes against numbers or other views, with relations and priorities.
    public static func visualFormatLayout<R: RandomNumberGenerator>(using rng: inout R) -> Layout {
        let names = (0..<Int.random(in: 2...6, using: &rng)).map { "v\($0)" }
        var constraints: [LayoutConstraint] = []
        for _ in 0..<Int.random(in: 1...10, using: &rng) {
            let horizontal = Bool.random(using: &rng)
            let (lead, trail, size, leadM, trailM): (Attribute, Attribute, Attribute, Attribute, Attribute) = horizontal
                ? (.leading, .trailing, .width, .leadingMargin, .trailingMargin) : (.top, .bottom, .height, .topMargin, .bottomMargin)
            let a = names.randomElement(using: &rng)!
            var b = names.randomElement(using: &rng)!
            if b == a { b = names.first { $0 != a }! }
            let relation = Relation.allCases.randomElement(using: &rng)!
            let priority: Priority = Bool.random(using: &rng) ? .required : Priority(Double(Int.random(in: 1...999, using: &rng)))
            let constant = Bool.random(using: &rng) ? 0 : number(using: &rng)
            let c: LayoutConstraint
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: c = LayoutConstraint(ItemAttribute(b, lead), relation, ItemAttribute(a, trail), constant: constant, priority: priority)
            case 1: c = LayoutConstraint(ItemAttribute(a, lead), relation, ItemAttribute("super", lead), constant: constant, priority: priority)
            case 2: c = LayoutConstraint(ItemAttribute(a, lead), .equal, ItemAttribute("super", leadM))
            case 3: c = LayoutConstraint(ItemAttribute("super", trail), relation, ItemAttribute(a, trail), constant: constant, priority: priority)
            case 4: c = LayoutConstraint(ItemAttribute("super", trailM), .equal, ItemAttribute(a, trail))
            case 5: c = LayoutConstraint(ItemAttribute(a, size), relation, nil, constant: constant, priority: priority)
            default: c = LayoutConstraint(ItemAttribute(a, size), relation, ItemAttribute(b, size), priority: priority)
            }
            constraints.append(c)
        }
        return Layout(container: ContainerSize(width: 320, height: 480), views: names.map { ViewDeclaration(name: $0) },
                      constraints: constraints)
    }
}
