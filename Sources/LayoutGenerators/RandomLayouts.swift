import LayoutModel
import SeededRandom

/// Random layouts for cross-checking solvers: feasible ones (every view has
/// a known frame that satisfies every required constraint), infeasible ones
/// (one required constraint contradicts another), ambiguous ones (some
/// positions left free), with equalities and inequalities, multipliers on
/// sizes (aspect ratios), priorities anywhere in 1...999 and a variant with
/// another container size (a resize). Seeded: the same seed gives the same layout.
public enum RandomLayoutGenerator {
    public enum Kind: String, CaseIterable, Sendable {
        case feasible, infeasible, ambiguous
        /// Feasible, with sizes and positions up to 1e7 (constants |c| <= 1e7)
        /// and multipliers from 1e-4 to 1e4.
        case numeric
        /// Anything the accepted ``NumericRange`` allows, for crash hunting:
        /// constants near its bounds, multipliers at both ends, rows that
        /// conflict by less than the tolerance, near-parallel and nearly
        /// redundant rows, deep chains, unconstrained views. Feasible or not.
        /// Not in the seed cycle (``cycle``): it is chosen by name.
        case hostile
    }

    /// The kinds seeds cycle through.
    public static let cycle: [Kind] = [.feasible, .infeasible, .ambiguous, .numeric]

    /// The kind a seed gives (cycling through ``cycle``).
    public static func kind(forSeed seed: UInt64) -> Kind { cycle[Int(seed % UInt64(cycle.count))] }

    /// - Parameters:
    ///   - views: how many views (1...500).
    ///   - kind: the kind; nil for the seed's kind in ``cycle``.
    /// - Complexity: O(views).
    public static func layout(seed: UInt64, views count: Int = 6, kind chosen: Kind? = nil) -> Layout {
        if chosen == .hostile { return hostile(seed: seed, views: count) }
        var rng = SplitMix(seed: seed &* 0x9E37_79B9 &+ 17)
        let kind = chosen ?? kind(forSeed: seed)
        let count = max(1, min(500, count))
        let names = (1...count).map { "v\($0)" }
        let scale = kind == .numeric ? 1e4 : 1.0  // positions up to ~1e7
        var frames: [String: Frame] = ["super": Frame(x: 0, y: 0, width: 1000 * scale, height: 800 * scale)]
        for name in names {
            frames[name] = Frame(x: Double(rng.int(0...900)) * scale, y: Double(rng.int(0...700)) * scale,
                                 width: Double(rng.int(5...100)) * scale, height: Double(rng.int(5...100)) * scale)
        }
        func value(_ a: Attribute, _ f: Frame) -> Double { f.value(of: a) }
        let horizontal: [Attribute] = [.left, .right, .centerX, .leading, .trailing]
        let vertical: [Attribute] = [.top, .bottom, .centerY]
        var constraints: [LayoutConstraint] = []
        func priority() -> Priority { Priority(Double(rng.int(1...999))) }
        for (i, name) in names.enumerated() {
            guard let f = frames[name] else { continue }
            let partners = ["super"] + names[max(0, i - 4)..<i]
            // Positions: required relations to earlier views, made to hold at the known frame.
            for axis in [horizontal, vertical] {
                if kind == .ambiguous && rng.int(0...2) == 0 { continue }  // leave this position free
                let a = axis[rng.int(0...(axis.count - 1))], b = axis[rng.int(0...(axis.count - 1))].inFamily(of: a)
                let partner = partners[rng.int(0...(partners.count - 1))]
                guard let pf = frames[partner] else { continue }
                let c = value(a, f) - value(b, pf)
                switch rng.int(0...5) {
                case 0: constraints.append(LayoutConstraint(ItemAttribute(name, a), .greaterThanOrEqual, ItemAttribute(partner, b),
                                                            constant: c - Double(rng.int(0...30)) * scale))
                case 1: constraints.append(LayoutConstraint(ItemAttribute(name, a), .lessThanOrEqual, ItemAttribute(partner, b),
                                                            constant: c + Double(rng.int(0...30)) * scale))
                default: constraints.append(LayoutConstraint(ItemAttribute(name, a), .equal, ItemAttribute(partner, b), constant: c))
                }
            }
            // Sizes: a number, or an aspect ratio / a multiple of another size.
            for dimension in [Attribute.width, .height] {
                let own = value(dimension, f)
                if rng.int(0...2) == 0, i > 0 {
                    let other = names[rng.int(0...(i - 1))]
                    let otherDimension: Attribute = rng.int(0...1) == 0 ? .width : .height
                    guard let of = frames[other] else { continue }
                    let base = value(otherDimension, of)
                    let multiplier = kind == .numeric ? [1e-4, 1e-2, 0.5, 3, 1e2, 1e4][rng.int(0...5)] : Double(rng.int(1...8)) / 4
                    // Keep constants within the documented range (|c| <= 1e7).
                    guard abs(own - multiplier * base) <= 1e7 else {
                        constraints.append(LayoutConstraint(ItemAttribute(name, dimension), .equal, nil, constant: own))
                        continue
                    }
                    constraints.append(LayoutConstraint(ItemAttribute(name, dimension), .equal, ItemAttribute(other, otherDimension),
                                                        multiplier: multiplier, constant: own - multiplier * base))
                } else {
                    constraints.append(LayoutConstraint(ItemAttribute(name, dimension), .equal, nil, constant: own))
                }
            }
            // Soft wishes at random priorities, some unreachable.
            for _ in 0..<rng.int(0...3) {
                let axis = rng.int(0...1) == 0 ? horizontal : vertical
                let a = axis[rng.int(0...(axis.count - 1))], b = axis[rng.int(0...(axis.count - 1))].inFamily(of: a)
                let partner = partners[rng.int(0...(partners.count - 1))]
                guard let pf = frames[partner] else { continue }
                let target = value(a, f) - value(b, pf) + Double(rng.int(-40...40)) * scale
                let relation: Relation = [.equal, .equal, .lessThanOrEqual, .greaterThanOrEqual][rng.int(0...3)]
                constraints.append(LayoutConstraint(ItemAttribute(name, a), relation, ItemAttribute(partner, b), constant: target,
                                                    priority: priority()))
            }
        }
        if kind == .infeasible, case let victim = names[rng.int(0...(names.count - 1))], let f = frames[victim] {
            // Contradicts the required size set above.
            constraints.append(LayoutConstraint(ItemAttribute(victim, .width), .greaterThanOrEqual, nil, constant: f.width + 10 * scale,
                                                identifier: "contradiction"))
        }
        let container = frames["super"] ?? Frame(x: 0, y: 0, width: 1000, height: 800)
        return Layout(container: ContainerSize(width: container.width, height: container.height),
                      views: names.map { ViewDeclaration(name: $0) }, constraints: constraints,
                      variants: [Variant(name: "resized", size: ContainerSize(width: container.width * 0.8, height: container.height))])
    }

    /// A ``Kind/hostile`` layout.
    /// - Complexity: O(views).
    static func hostile(seed: UInt64, views count: Int) -> Layout {
        var rng = SplitMix(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ 5)
        let count = max(1, min(500, count))
        let names = (1...count).map { "v\($0)" }
        // Magnitudes at every scale up to the accepted bound, both signs.
        let magnitudes: [Double] = [0, 1e-9, 1e-6, 0.5, 1, 3, 1e3, 5e6, 1e7, 1.0000001e7, 1e8, 9.99e8, 1e9]
        func magnitude() -> Double {
            let m = magnitudes[rng.int(0...(magnitudes.count - 1))]
            return rng.int(0...3) == 0 ? -m : m
        }
        let multipliers: [Double] = [1e-6, 1e-5, 1e-4, 0.5, 1, 1.000_000_1, 2, 1e4, 1e5, 1e6]
        func multiplier() -> Double {
            let m = multipliers[rng.int(0...(multipliers.count - 1))]
            return rng.int(0...4) == 0 ? -m : m
        }
        let relations: [Relation] = [.equal, .lessThanOrEqual, .greaterThanOrEqual]
        func relation() -> Relation { relations[rng.int(0...2)] }
        func priority() -> Priority { rng.int(0...2) == 0 ? .required : Priority(Double(rng.int(1...1000))) }
        let horizontal: [Attribute] = [.left, .right, .centerX, .leading, .trailing]
        let vertical: [Attribute] = [.top, .bottom, .centerY]
        var constraints: [LayoutConstraint] = []
        // Some views stay unconstrained (ambiguous in every component).
        let constrained = names.filter { _ in rng.int(0...5) != 0 }
        for (i, name) in constrained.enumerated() {
            let previous = i > 0 ? constrained[i - 1] : "super"
            switch rng.int(0...5) {
            case 0:
                // A deep chain: each view after the previous.
                constraints.append(LayoutConstraint(ItemAttribute(name, .left), .equal, ItemAttribute(previous, previous == "super" ? .left : .right),
                                                    constant: magnitude(), priority: priority()))
            case 1:
                // A size set twice, by amounts that differ below the tolerance.
                let base = magnitude()
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, nil, constant: base))
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), relation(), nil,
                                                    constant: base + [0, 1e-9, 1e-7, 1e-5, 1e-3][rng.int(0...4)], priority: priority()))
            case 2:
                // The case: a size through a multiple, then set directly.
                let base = magnitude()
                let m = multiplier()
                constraints.append(LayoutConstraint(ItemAttribute(previous, .width), .equal, nil, constant: base, priority: priority()))
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, ItemAttribute(previous, .width), multiplier: m))
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, nil, constant: base * m + [0, 1e-7, 1e-3][rng.int(0...2)],
                                                    priority: priority()))
            case 3:
                // Near-parallel rows on one position.
                let a = horizontal[rng.int(0...(horizontal.count - 1))]
                let b = horizontal[rng.int(0...(horizontal.count - 1))].inFamily(of: a)
                let c = magnitude()
                constraints.append(LayoutConstraint(ItemAttribute(name, a), relation(), ItemAttribute(previous, b), constant: c,
                                                    priority: priority()))
                constraints.append(LayoutConstraint(ItemAttribute(name, a), relation(), ItemAttribute(previous, b),
                                                    multiplier: 1.000_000_1, constant: c + 1e-6, priority: priority()))
            case 4:
                // A vertical position and a height from extreme multiples.
                let a = vertical[rng.int(0...(vertical.count - 1))], b = vertical[rng.int(0...(vertical.count - 1))]
                constraints.append(LayoutConstraint(ItemAttribute(name, a), relation(), ItemAttribute(previous, b), multiplier: multiplier(),
                                                    constant: magnitude(), priority: priority()))
                constraints.append(LayoutConstraint(ItemAttribute(name, .height), relation(), ItemAttribute(name, .width),
                                                    multiplier: multiplier(), constant: magnitude(), priority: priority()))
            default:
                // Nearly redundant equalities between two views' sizes.
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, ItemAttribute(previous, .width),
                                                    constant: magnitude(), priority: priority()))
                constraints.append(LayoutConstraint(ItemAttribute(name, .width), .equal, ItemAttribute(previous, .width),
                                                    multiplier: 1 + 1e-9, constant: magnitude(), priority: priority()))
            }
        }
        let width = abs(magnitudes[rng.int(0...(magnitudes.count - 1))])
        let height = rng.int(0...2) == 0 ? nil : abs(magnitudes[rng.int(0...(magnitudes.count - 1))])
        return Layout(container: ContainerSize(width: width, height: height),
                      views: names.map { ViewDeclaration(name: $0) }, constraints: constraints,
                      variants: [Variant(name: "resized", size: ContainerSize(width: width * 0.8 + 1, height: height))])
    }
}
