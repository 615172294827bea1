import LayoutModel

extension ScreenBuilder {
    static let attributeWords: [String: Attribute] = [
        "left": .left, "right": .right, "top": .top, "bottom": .bottom, "leading": .leading, "trailing": .trailing,
        "width": .width, "height": .height, "centerX": .centerX, "centerY": .centerY,
        // Why: IB writes `baseline` for NSLayoutAttributeLastBaseline (the word `lastBaseline` never appears).
        "baseline": .lastBaseline, "lastBaseline": .lastBaseline, "firstBaseline": .firstBaseline,
        "leftMargin": .leftMargin, "rightMargin": .rightMargin, "topMargin": .topMargin, "bottomMargin": .bottomMargin,
        "leadingMargin": .leadingMargin, "trailingMargin": .trailingMargin,
        "centerXWithinMargins": .centerXWithinMargins, "centerYWithinMargins": .centerYWithinMargins,
    ]

    /// `a:b`, `a/b` or a decimal.
    static func multiplier(_ text: String?) -> Double? {
        guard let text else { return 1 }
        for separator in [":", "/"] where text.contains(separator) {
            let parts = text.split(separator: Character(separator), omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 else { return nil }
            let m = a / b
            return m.isFinite ? m : nil
        }
        return number(text)
    }

    func location(_ element: XMLElement) -> SourceLocation {
        SourceLocation(file: context.fileName, line: element.line, column: element.column)
    }

    /// Whether `descendant` is inside `ancestor`'s subtree.
    func isDescendant(_ descendant: Int, of ancestor: Int) -> Bool {
        var current = nodes[descendant].parent
        var steps = 0
        while let c = current, steps < 10_000 {
            if c == ancestor { return true }
            current = nodes[c].parent
            steps += 1
        }
        return false
    }

    static func isEdge(_ a: Attribute) -> Bool {
        switch a {
        case .left, .right, .top, .bottom, .leading, .trailing, .leftMargin, .rightMargin, .topMargin, .bottomMargin,
             .leadingMargin, .trailingMargin: return true
        default: return false
        }
    }

    static let scrollingElements: Set<String> = ["scrollView", "tableView", "collectionView", "textView"]

    // MARK: Written constraints

    /// One `<constraint>` into one or more model constraints (one per group of size classes where it reads the same).
    mutating func convert(_ element: XMLElement, owner: Int) {
        if element["placeholder"] == "YES" {
            // Kept: the stored frames, the oracle, were computed with them.
            notes.append("placeholder constraints (UIKit removes them at build time) are kept: the stored frames were computed with them")
        }
        guard let items = constraintItems(element, owner: owner),
              let attributes = constraintAttributes(element, hasSecondItem: items.second != nil),
              let relation = constraintRelation(element),
              let readings = constraintReadings(element, owner: owner, firstIndex: items.first, secondIndex: items.second),
              !readings.isEmpty else { return }
        if items.second == nil, attributes.first.isLocation {
            warn("constraint \(element["id"] ?? ""): a position (\(attributes.firstWord)) equal to a bare number: left out", element)
            return
        }
        let ends = constraintEnds(element, items: items, attributes: attributes)
        let identifier = element["id"].map { String($0.filter { !$0.isNewline }.prefix(200)) }
        for reading in readings {
            let traits = readings.count == 1 && reading.classes.count == SizeClass.all.count ? [] : reading.classes
            for group in Self.traitGroups(traits) {
                constraints.append(LayoutConstraint(ends.first, relation, ends.second, multiplier: reading.multiplier, constant: reading.constant,
                                                    priority: Priority(reading.priority), identifier: identifier, traits: group,
                                                    locations: ConstraintLocations(start: location(element))))
            }
        }
    }

    /// The indices of a constraint's first item (its owner when unnamed) and
    /// second item; nil, with a warning, when one is not in this screen.
    private mutating func constraintItems(_ element: XMLElement, owner: Int) -> (first: Int, second: Int?)? {
        let firstID = element["firstItem"] ?? nodes[owner].id
        guard let firstIndex = byID[firstID] else {
            warn("constraint \(element["id"] ?? "") refers to '\(firstID.prefix(40))', which is not in this screen: left out", element)
            return nil
        }
        var secondIndex: Int?
        if let secondID = element["secondItem"] {
            guard let index = byID[secondID] else {
                warn("constraint \(element["id"] ?? "") refers to '\(secondID.prefix(40))', which is not in this screen: left out", element)
                return nil
            }
            secondIndex = index
        }
        return (firstIndex, secondIndex)
    }

    /// A constraint's first attribute (and the word IB wrote for it) and,
    /// with a second item, its second; nil, with a warning, when one is not supported.
    private mutating func constraintAttributes(_ element: XMLElement,
                                               hasSecondItem: Bool) -> (firstWord: String, first: Attribute, second: Attribute?)? {
        guard let firstWord = element["firstAttribute"], let firstAttribute = Self.attributeWords[firstWord] else {
            warn("constraint \(element["id"] ?? ""): attribute '\((element["firstAttribute"] ?? "none").prefix(40))' is not supported: left out", element)
            return nil
        }
        var secondAttribute: Attribute?
        if hasSecondItem {
            guard let word = element["secondAttribute"], let attribute = Self.attributeWords[word] else {
                warn("constraint \(element["id"] ?? ""): attribute '\((element["secondAttribute"] ?? "none").prefix(40))' is not supported: left out", element)
                return nil
            }
            secondAttribute = attribute
        }
        return (firstWord, firstAttribute, secondAttribute)
    }

    /// A constraint's relation (equal when absent); nil, with a warning, when unknown.
    private mutating func constraintRelation(_ element: XMLElement) -> Relation? {
        switch element["relation"] {
        case nil, "equal"?: return .equal
        case "greaterThanOrEqual"?: return .greaterThanOrEqual
        case "lessThanOrEqual"?: return .lessThanOrEqual
        case let other?:
            warn("constraint \(element["id"] ?? ""): relation '\(other.prefix(40))' is unknown: left out", element)
            return nil
        }
    }

    /// A constraint's numbers in the size classes where it reads the same.
    private typealias ConstraintReading = (classes: [SizeClass], multiplier: Double, constant: Double, priority: Double)

    /// Per size class: installed, and with which numbers (size classes that
    /// read the same merged). Empty when it is installed in none; nil, with a
    /// warning, when a number cannot be read.
    private mutating func constraintReadings(_ element: XMLElement, owner: Int, firstIndex: Int,
                                             secondIndex: Int?) -> [ConstraintReading]? {
        var readings: [ConstraintReading] = []
        for sizeClass in SizeClass.all {
            guard installed(element, owner: owner, in: sizeClass) else { continue }
            let attributes = Self.numberAttributes(element, in: sizeClass)
            guard let multiplier = Self.multiplier(attributes["multiplier"]) else {
                warn("constraint \(element["id"] ?? ""): multiplier '\((attributes["multiplier"] ?? "").prefix(40))' is not a number, a:b or a/b: left out", element)
                return nil
            }
            var constant = Self.number(attributes["constant"]) ?? 0
            if attributes["constant"] == nil, element["symbolic"] == "YES" {
                // Standard spacing when IB stored no number: 20 to a superview's edge, 8 between siblings.
                let toSuperview = secondIndex.map { nodes[firstIndex].parent == $0 || nodes[$0].parent == firstIndex } ?? false
                constant = toSuperview ? 20 : 8
            }
            if attributes["constant"] != nil, Self.number(attributes["constant"]) == nil {
                warn("constraint \(element["id"] ?? ""): constant '\((attributes["constant"] ?? "").prefix(40))' is not a number: left out", element)
                return nil
            }
            var priority = Self.number(attributes["priority"]) ?? 1000
            if !(1...1000).contains(priority) {
                warn("constraint \(element["id"] ?? ""): priority \(formatNumber(priority)) is outside 1...1000: clamped", element)
                priority = min(1000, max(1, priority))
            }
            if let i = readings.firstIndex(where: { $0.multiplier == multiplier && $0.constant == constant && $0.priority == priority }) {
                readings[i].classes.append(sizeClass)
            } else {
                readings.append(([sizeClass], multiplier, constant, priority))
            }
        }
        return readings
    }

    /// A constraint's `multiplier`, `constant` and `priority` as written for one size class.
    private static func numberAttributes(_ element: XMLElement, in sizeClass: SizeClass) -> [String: String] {
        var attributes: [String: String] = [:]
        for key in ["multiplier", "constant", "priority"] { if let v = element[key] { attributes[key] = v } }
        // Attribute overrides: the most specific matching `<variation>` inside the constraint wins.
        let overrides = element.children("variation").compactMap { v in sizeClass.matches(variationKey: v["key"] ?? "").map { (v, $0) } }
        for (variation, _) in overrides.sorted(by: { $0.1 < $1.1 }) {
            for key in ["multiplier", "constant", "priority"] { if let v = variation[key] { attributes[key] = v } }
        }
        return attributes
    }

    /// The item attributes a constraint relates, a scroll view's edges
    /// replaced by its content rectangle's where they face its descendants.
    private mutating func constraintEnds(_ element: XMLElement, items: (first: Int, second: Int?),
                                         attributes: (firstWord: String, first: Attribute, second: Attribute?))
        -> (first: ItemAttribute, second: ItemAttribute?) {
        let firstIndex = items.first, secondIndex = items.second
        let firstAttribute = attributes.first, secondAttribute = attributes.second
        var first = ItemAttribute(nodes[firstIndex].name, firstAttribute, location: location(element))
        var second = secondIndex.map { ItemAttribute(nodes[$0].name, secondAttribute ?? .width) }
        // A scroll view without content guides: its edges and centers, related
        // to its own descendants, are the edges of its content rectangle.
        // Only the edges: centers and sizes related to the scroll view are its
        // frame's (a stack centred on its scroll view takes the frame's width).
        if let s = secondIndex, let a = secondAttribute, Self.isEdge(a), isDescendant(firstIndex, of: s),
           let content = contentRectangle(of: s) { second = ItemAttribute(content, a) }
        if let s = secondIndex, Self.isEdge(firstAttribute), isDescendant(s, of: firstIndex),
           let content = contentRectangle(of: firstIndex) { first = ItemAttribute(content, firstAttribute, location: location(element)) }
        return (first, second)
    }

    /// The `when` trait lists covering a set of size classes (one list per class, merged by width or height where whole).
    static func traitGroups(_ classes: [SizeClass]) -> [[String]] {
        if classes.isEmpty { return [[]] }
        var remaining = Set(classes)
        var groups: [[String]] = []
        for width in [SizeClass.Class.compact, .regular] {
            let pair = [SizeClass(width: width, height: .regular), SizeClass(width: width, height: .compact)]
            if pair.allSatisfy(remaining.contains) {
                groups.append([pair[0].traits[0]])
                pair.forEach { remaining.remove($0) }
            }
        }
        for sizeClass in remaining.sorted() { groups.append(sizeClass.traits) }
        return groups
    }

    /// Whether a constraint is installed in a size class: the most specific
    /// `<variation>` of its owner that names it decides; by default it is.
    func installed(_ element: XMLElement, owner: Int, in sizeClass: SizeClass) -> Bool {
        guard let id = element["id"], let list = variations[owner] else { return true }
        var decision: (specificity: Int, installed: Bool)?
        for variation in list {
            guard let specificity = sizeClass.matches(variationKey: variation["key"] ?? "") else { continue }
            for mask in variation.children("mask") where mask["key"] == "constraints" {
                var verdict: Bool?
                if mask.children("include").contains(where: { $0["reference"] == id }) { verdict = true }
                if mask.children("exclude").contains(where: { $0["reference"] == id }) { verdict = false }
                if let verdict, decision.map({ specificity >= $0.specificity }) ?? true { decision = (specificity, verdict) }
            }
        }
        return decision?.installed ?? true
    }

    /// The name of a scroll view's content rectangle (made on first use; its
    /// content layout guide when it has one), or nil when it is no scroll view.
    mutating func contentRectangle(of index: Int) -> String? {
        guard Self.scrollingElements.contains(nodes[index].element.name) else { return nil }
        let id = nodes[index].id + "_contentRect"
        if let existing = byID[id] { return nodes[existing].name }
        // With its own content layout guide, edges related to descendants are that guide's
        // (UIKit relates them to the content area whether or not the guides exist).
        if let guide = nodes.firstIndex(where: { $0.parent == index && $0.guide == .content }) { return nodes[guide].name }
        let guideIndex = nodes.count
        var node = Node(id: id, element: nodes[index].element, parent: index, frame: nodes[index].frame, hasFrame: false, autoLayout: true)
        node.guide = .content
        node.name = uniqueName(context.options.naming == .id ? identifierName(id, camelCase: false) : nodes[index].name + "_content")
        byID[id] = guideIndex
        nodes.append(node)
        return node.name
    }

    // MARK: Generated constraints

    mutating func add(_ a: Int, _ aa: Attribute, _ relation: Relation, _ b: Int?, _ ba: Attribute?, multiplier: Double = 1,
                      constant: Double = 0, priority: Double = 1000, _ why: String) {
        constraints.append(LayoutConstraint(ItemAttribute(nodes[a].name, aa), relation, b.map { ItemAttribute(nodes[$0].name, ba ?? aa) },
                                            multiplier: multiplier, constant: constant, priority: Priority(priority), identifier: why))
    }

    /// The guides' own constraints: the safe area and frame guides inset in
    /// their owner, the content guide at its owner's origin, the legacy
    /// guides as bars at the root's top and bottom.
    mutating func addGuideConstraints() {
        for i in nodes.indices {
            guard let kind = nodes[i].guide, let owner = nodes[i].parent else { continue }
            let name = nodes[i].name
            switch kind {
            case .safeArea, .frameGuide:
                let inset = kind == .safeArea ? guideInsets(owner: owner) : EdgeInsets(all: 0)
                add(i, .left, .equal, owner, .left, constant: inset.left, "\(name): inset from \(nodes[owner].name)")
                add(i, .top, .equal, owner, .top, constant: inset.top, "\(name): inset from \(nodes[owner].name)")
                add(i, .right, .equal, owner, .right, constant: -inset.right, "\(name): inset from \(nodes[owner].name)")
                add(i, .bottom, .equal, owner, .bottom, constant: -inset.bottom, "\(name): inset from \(nodes[owner].name)")
            case .content:
                add(i, .left, .equal, owner, .left, "\(name): content origin (offset 0)")
                add(i, .top, .equal, owner, .top, "\(name): content origin (offset 0)")
            case .topLegacy, .bottomLegacy:
                let safe = safeAreaInsets(ofRoot: storedRoot)
                add(i, .left, .equal, 0, .left, "\(name): spans the root")
                add(i, .width, .equal, 0, .width, "\(name): spans the root")
                if kind == .topLegacy {
                    add(i, .top, .equal, 0, .top, "\(name): status and navigation bars")
                    add(i, .height, .equal, nil, nil, constant: safe.top, "\(name): status and navigation bars")
                } else {
                    add(i, .bottom, .equal, 0, .bottom, "\(name): tab bar and home indicator")
                    add(i, .height, .equal, nil, nil, constant: safe.bottom, "\(name): tab bar and home indicator")
                }
            case .stackGap:
                break
            }
        }
    }

    /// What UIStackView generates for its arranged views (IB stores none of it).
    mutating func addStackViews() {
        let stacks = nodes.indices.filter { nodes[$0].element.name == "stackView" && nodes[$0].guide == nil }
        for s in stacks {
            let element = nodes[s].element
            let vertical = element["axis"] == "vertical"
            let arranged = arrangedViews(of: s)
            guard !arranged.isEmpty else {
                // Why: an empty stack view generates nothing and has no
                // content size, yet Xcode neither flags it ambiguous nor
                // resizes it: it keeps the size it was drawn at, above a
                // 750 width (duckduckgo's menu is stored at its empty
                // stack's 329 + 16, not its own 280 @ 750) and above an
                // enclosing stack's canvas fit (JTAppleCalendar). 999, not
                // 1000: the evidence says above 750, and a required size
                // would make a screen that also pins the stack unsatisfiable
                // in its other size classes.
                let f = nodes[s].frame
                add(s, .width, .equal, nil, nil, constant: f.width, priority: 999, "\(nodes[s].name): empty stack, drawn width")
                add(s, .height, .equal, nil, nil, constant: f.height, priority: 999, "\(nodes[s].name): empty stack, drawn height")
                continue
            }
            let axes = StackAttributes(vertical: vertical, margins: Self.arrangesInsideMargins(element))
            // `spacingType="standard"`: the system spacing between siblings, 8.
            let spacing = Self.number(element["spacing"]) ?? (element["spacingType"] == "standard" ? 8 : 0)
            let distribution = element["distribution"] ?? "fill"
            let alignment = element["alignment"] ?? "fill"
            let name = nodes[s].name
            if element["baselineRelativeArrangement"] == "YES" { notes.append("baseline-relative stack spacing is measured between edges") }

            add(arranged[0], axes.vLead, .equal, s, axes.lead, "\(name): first arranged view")
            add(arranged[arranged.count - 1], axes.vTrail, .equal, s, axes.trail, "\(name): last arranged view")
            addStackSpacing(s, arranged: arranged, distribution: distribution, spacing: spacing, axes: axes)
            addStackDistribution(s, arranged: arranged, distribution: distribution, axes: axes)
            addStackAlignment(s, arranged: arranged, alignment: alignment, axes: axes)
        }
    }

    /// The attributes a stack view's constraints use: the stack's (its
    /// margins' when it arranges inside them) and an arranged view's (the
    /// `v` ones), along the axis and across it.
    private struct StackAttributes {
        var vertical: Bool
        var lead: Attribute, trail: Attribute
        var vLead: Attribute, vTrail: Attribute
        var crossStart: Attribute, crossEnd: Attribute
        var vCrossStart: Attribute, vCrossEnd: Attribute
        var crossCenter: Attribute, vCrossCenter: Attribute
        var dimension: Attribute, crossDimension: Attribute

        init(vertical: Bool, margins: Bool) {
            self.vertical = vertical
            lead = vertical ? (margins ? .topMargin : .top) : (margins ? .leadingMargin : .leading)
            trail = vertical ? (margins ? .bottomMargin : .bottom) : (margins ? .trailingMargin : .trailing)
            vLead = vertical ? .top : .leading
            vTrail = vertical ? .bottom : .trailing
            crossStart = vertical ? (margins ? .leadingMargin : .leading) : (margins ? .topMargin : .top)
            crossEnd = vertical ? (margins ? .trailingMargin : .trailing) : (margins ? .bottomMargin : .bottom)
            vCrossStart = vertical ? .leading : .top
            vCrossEnd = vertical ? .trailing : .bottom
            crossCenter = vertical ? (margins ? .centerXWithinMargins : .centerX) : (margins ? .centerYWithinMargins : .centerY)
            vCrossCenter = vertical ? .centerX : .centerY
            dimension = vertical ? .height : .width
            crossDimension = vertical ? .width : .height
        }
    }

    /// A stack's arranged views, in order: its children but the hidden ones
    /// (marked as no oracle).
    private mutating func arrangedViews(of s: Int) -> [Int] {
        let children = nodes.indices.filter { nodes[$0].parent == s && nodes[$0].guide == nil }
        var arranged: [Int] = []
        for c in children {
            // A stopped activity indicator that hides when stopped is stored
            // hidden, but IB's canvas arranges it (its frames leave its place).
            let element = nodes[c].element
            let stoppedIndicator = element.name == "activityIndicatorView" && element["hidesWhenStopped"] == "YES"
            if element["hidden"] == "YES", !stoppedIndicator {
                markNoOracle(c, "hidden in a stack view")
            } else {
                arranged.append(c)
            }
        }
        return arranged
    }

    /// Whether a stack arranges its views inside its layout margins.
    private static func arrangesInsideMargins(_ element: XMLElement) -> Bool {
        // IB writes no `layoutMarginsRelativeArrangement` in the sample; a
        // stack given its own margins arranges inside them (16 of 16
        // stacks with margins have their first view at the margin).
        let hasOwnMargins = element.children.contains {
            ($0.name == "edgeInsets" && $0["key"] == "layoutMargins")
                || ($0.name == "directionalEdgeInsets" && $0["key"] == "directionalLayoutMargins")
        }
        return element["layoutMarginsRelativeArrangement"].map { $0 == "YES" } ?? hasOwnMargins
    }

    /// The spacing between neighbouring arranged views: fixed, or for the
    /// equal-spacing distributions at least `spacing`, with a gap guide
    /// between each pair whose lengths are all equal.
    private mutating func addStackSpacing(_ s: Int, arranged: [Int], distribution: String, spacing: Double, axes: StackAttributes) {
        let name = nodes[s].name
        let vertical = axes.vertical, vLead = axes.vLead, vTrail = axes.vTrail
        for (k, (a, b)) in zip(arranged, arranged.dropFirst()).enumerated() {
            switch distribution {
            case "equalSpacing", "equalCentering":
                add(b, vLead, .greaterThanOrEqual, a, vTrail, constant: spacing, "\(name): spacing")
                let gap = addGap(stack: s, index: k + 1)
                let centers = distribution == "equalCentering"
                let center: Attribute = vertical ? .centerY : .centerX
                add(gap, vLead, .equal, a, centers ? center : vTrail, "\(name): \(distribution) gap")
                add(gap, vTrail, .equal, b, centers ? center : vLead, "\(name): \(distribution) gap")
                add(gap, axes.vCrossStart, .equal, s, axes.vCrossStart, "\(name): gap guide")
                add(gap, axes.crossDimension, .equal, nil, nil, "\(name): gap guide")
                if k > 0, let firstGap = byID[nodes[s].id + "_gap1"] {
                    add(gap, axes.dimension, .equal, firstGap, axes.dimension, "\(name): \(distribution)")
                }
            default:
                add(b, vLead, .equal, a, vTrail, constant: spacing, "\(name): spacing")
            }
        }
    }

    /// The sizes along the axis that `fillEqually` and `fillProportionally`
    /// set; a warning for a distribution this importer does not know.
    private mutating func addStackDistribution(_ s: Int, arranged: [Int], distribution: String, axes: StackAttributes) {
        let name = nodes[s].name
        let dimension = axes.dimension
        if distribution == "fillEqually" {
            for v in arranged.dropFirst() { add(v, dimension, .equal, arranged[0], dimension, "\(name): fillEqually") }
        } else if distribution == "fillProportionally" {
            let sizes = arranged.map { Self.frameSize(nodes[$0], vertical: axes.vertical) }
            if sizes[0] > 0 {
                for (v, size) in zip(arranged, sizes).dropFirst() where size > 0 {
                    add(v, dimension, .equal, arranged[0], dimension, multiplier: size / sizes[0], priority: 999,
                        "\(name): fillProportionally")
                }
            }
        } else if !["fill", "equalSpacing", "equalCentering"].contains(distribution) {
            warn("stack view distribution '\(distribution.prefix(40))' is unknown: laid out as fill", nodes[s].element)
        }
    }

    /// Each arranged view across the axis, by the stack's alignment (a
    /// warning, per view, for one this importer does not know), and the
    /// stack's own fit when the views do not fill it.
    private mutating func addStackAlignment(_ s: Int, arranged: [Int], alignment: String, axes: StackAttributes) {
        let name = nodes[s].name
        let element = nodes[s].element
        let crossStart = axes.crossStart, crossEnd = axes.crossEnd
        let vCrossStart = axes.vCrossStart, vCrossEnd = axes.vCrossEnd
        for v in arranged {
            switch alignment {
            case "fill":
                add(v, vCrossStart, .equal, s, crossStart, "\(name): alignment fill")
                add(v, vCrossEnd, .equal, s, crossEnd, "\(name): alignment fill")
            case "leading", "top":
                add(v, vCrossStart, .equal, s, crossStart, "\(name): alignment \(alignment)")
                add(v, vCrossEnd, .lessThanOrEqual, s, crossEnd, "\(name): alignment \(alignment)")
            case "trailing", "bottom":
                add(v, vCrossEnd, .equal, s, crossEnd, "\(name): alignment \(alignment)")
                add(v, vCrossStart, .greaterThanOrEqual, s, crossStart, "\(name): alignment \(alignment)")
            case "firstBaseline", "lastBaseline", "baseline":
                let baseline: Attribute = alignment == "firstBaseline" ? .firstBaseline : .lastBaseline
                if v != arranged[0] { add(v, baseline, .equal, arranged[0], baseline, "\(name): alignment \(alignment)") }
                add(v, vCrossStart, .greaterThanOrEqual, s, crossStart, "\(name): alignment \(alignment)")
                add(v, vCrossEnd, .lessThanOrEqual, s, crossEnd, "\(name): alignment \(alignment)")
            default:
                if alignment != "center" { warn("stack view alignment '\(alignment.prefix(40))' is unknown: centered", element) }
                add(v, axes.vCrossCenter, .equal, s, axes.crossCenter, "\(name): alignment center")
                add(v, vCrossStart, .greaterThanOrEqual, s, crossStart, "\(name): alignment center")
                add(v, vCrossEnd, .lessThanOrEqual, s, crossEnd, "\(name): alignment center")
            }
            if alignment != "fill" {
                // UIStackView's ambiguity suppression: an arranged view with nothing else
                // sizing it across the axis settles at a size just above the fitting
                // level. UIKit asks for 0 at run time; Interface Builder's canvas, the
                // oracle here, keeps the size the view was drawn at. Why the stored size:
                // of the sample's arranged views that this row alone sizes (3 apps, 5
                // views), Xcode stored none at 0 and every one at its drawn size
                // (docs/design/real-screens.md, "Stack views").
                let drawn = nodes[v].hasFrame ? Self.frameSize(nodes[v], vertical: !axes.vertical) : 0
                add(v, axes.crossDimension, .equal, nil, nil, constant: drawn, priority: 25, "\(name): ambiguity suppression")
            }
        }
        if alignment != "fill" {
            // The stack fits its tallest arranged view across the axis.
            add(s, axes.crossDimension, .equal, nil, nil, priority: 49, "\(name): canvas fit")
        }
    }

    static func frameSize(_ node: Node, vertical: Bool) -> Double { vertical ? node.frame.height : node.frame.width }

    mutating func addGap(stack: Int, index: Int) -> Int {
        let id = nodes[stack].id + "_gap\(index)"
        if let existing = byID[id] { return existing }
        let gapIndex = nodes.count
        var node = Node(id: id, element: nodes[stack].element, parent: stack, frame: nodes[stack].frame, hasFrame: false, autoLayout: true)
        node.guide = .stackGap
        node.name = uniqueName(context.options.naming == .id ? identifierName(id, camelCase: false) : nodes[stack].name + "Gap\(index)")
        byID[id] = gapIndex
        nodes.append(node)
        return gapIndex
    }

    mutating func markNoOracle(_ index: Int, _ reason: String) {
        nodes[index].noOracle = nodes[index].noOracle ?? reason
        for i in nodes.indices where nodes[i].parent == index && nodes[i].guide == nil { markNoOracle(i, reason) }
    }

    /// Views laid out by their autoresizing mask: the constraints UIKit makes from the stored frame and the mask.
    mutating func addAutoresizing() {
        for i in nodes.indices.dropFirst() where !nodes[i].autoLayout && nodes[i].guide == nil {
            guard let p = nodes[i].parent, nodes[p].element.name != "stackView" else { continue }
            let mask = nodes[i].element.children.first { $0.name == "autoresizingMask" && $0["key"] == "autoresizingMask" }
            func flag(_ key: String) -> Bool { mask?[key] == "YES" }
            let f = nodes[i].frame, pf = nodes[p].frame
            let why = "autoresizing \(nodes[i].name)"
            // Why: UIKit sizes a self-sizing cell's content view to fit its
            // content (`systemLayoutSizeFitting` with the height pulled
            // toward 0 at the fitting level, 50). The stored height stays the
            // input unless IB flags the content view ambiguous, which says
            // the stored height is not what its constraints give (the
            // canvas kept the cell at its old height).
            let fitsContent = root.selfSizing && nodes[i].element["key"] == "contentView" && p == 0
                && nodes[i].element["ambiguous"] == "YES"
            for vertical in [false, true] {
                if vertical && fitsContent {
                    add(i, .height, .equal, nil, nil, priority: 50, "self-sizing cell \(nodes[i].name): fitting height")
                    add(i, .top, .equal, p, .top, constant: f.y - pf.y, why)
                    continue
                }
                let (start, end, size): (Attribute, Attribute, Attribute) = vertical ? (.top, .bottom, .height) : (.left, .right, .width)
                let minFlex = flag(vertical ? "flexibleMinY" : "flexibleMinX")
                let sizeFlex = flag(vertical ? "heightSizable" : "widthSizable")
                let maxFlex = flag(vertical ? "flexibleMaxY" : "flexibleMaxX")
                let offset = vertical ? f.y - pf.y : f.x - pf.x
                let length = vertical ? f.height : f.width
                let parentLength = vertical ? pf.height : pf.width
                let endGap = parentLength - offset - length
                let flexible = [minFlex, sizeFlex, maxFlex].filter { $0 }.count
                if sizeFlex {
                    if flexible == 1 {
                        add(i, start, .equal, p, start, constant: offset, why)
                        add(i, end, .equal, p, end, constant: -endGap, why)
                        continue
                    }
                    if parentLength > 0 {
                        add(i, size, .equal, p, size, multiplier: length / parentLength, why)
                    } else {
                        add(i, size, .equal, nil, nil, constant: length, why)
                    }
                    if minFlex && !maxFlex { add(i, end, .equal, p, end, constant: -endGap, why) } else { add(i, start, .equal, p, start, constant: offset, why) }
                    if minFlex && maxFlex { notes.append("autoresizing with both margins flexible keeps the stored offset") }
                } else {
                    add(i, size, .equal, nil, nil, constant: length, why)
                    if minFlex && !maxFlex { add(i, end, .equal, p, end, constant: -endGap, why) } else { add(i, start, .equal, p, start, constant: offset, why) }
                    if minFlex && maxFlex { notes.append("autoresizing with both margins flexible keeps the stored offset") }
                }
            }
        }
    }
}
