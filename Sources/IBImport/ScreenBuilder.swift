import LayoutModel

/// Builds one screen: the views of a root, flattened, and their constraints.
struct ScreenBuilder {
    let context: DocumentContext
    let root: DocumentContext.Root

    /// One imported view (or layout guide) and what the file says of it.
    struct Node {
        var id: String
        var element: XMLElement
        var parent: Int?
        /// The frame in the container's coordinates (accumulated from the superviews' stored frames).
        var frame: Frame
        var hasFrame: Bool
        var autoLayout: Bool
        var name = ""
        /// Why its stored frame is no oracle (nil: it is one).
        var noOracle: String?
        var guide: GuideKind?
        var margins = EdgeInsets.standard
        var content = ViewContent.none
    }

    enum GuideKind: Equatable { case safeArea, topLegacy, bottomLegacy, content, frameGuide, stackGap }

    var nodes: [Node] = []
    var byID: [String: Int] = [:]
    var constraints: [LayoutConstraint] = []
    var warnings: [ImportDiagnostic] = []
    var notes: [String] = []
    /// Constraint elements to convert, with the index of the view owning the list.
    var constraintElements: [(element: XMLElement, owner: Int)] = []
    /// Per owner, the `<variation>` elements (their masks decide where constraints are installed).
    var variations: [Int: [XMLElement]] = [:]
    var hasVariations = false
    var anonymous = 0
    var deviceClass = SizeClass(width: .compact, height: .regular)
    var metrics = DeviceMetrics(screen: EdgeInsets(top: 20, left: 0, bottom: 0, right: 0), size: (375, 667))
    var usedNames: Set<String> = []
    /// The root's frame as stored (a root below an opaque bar starts at y > 0).
    var storedRoot = Frame(x: 0, y: 0, width: 600, height: 600)

    init(context: DocumentContext, root: DocumentContext.Root) {
        self.context = context
        self.root = root
    }

    mutating func warn(_ message: String, _ element: XMLElement) {
        warnings.append(context.diagnostic(.warning, message, element))
    }

    static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func frame(of element: XMLElement) -> Frame? {
        guard let rect = element.child("rect", key: "frame") else { return nil }
        return Frame(x: number(rect["x"]) ?? 0, y: number(rect["y"]) ?? 0,
                     width: number(rect["width"]) ?? 0, height: number(rect["height"]) ?? 0)
    }

    // MARK: Build

    mutating func build() -> ImportedScreen? {
        let rootFrame = Self.frame(of: root.element) ?? Frame(x: 0, y: 0, width: 600, height: 600)
        if Self.frame(of: root.element) == nil { warn("the root view has no stored frame: a 600 x 600 canvas is assumed", root.element) }
        storedRoot = rootFrame
        let size = (width: rootFrame.width, height: rootFrame.height)
        guard size.width > 0, size.height >= 0 else {
            warn("the root view's frame is empty: skipped", root.element)
            return nil
        }
        deviceClass = DeviceMetrics.sizeClass(width: size.width, height: size.height)
        metrics = screenMetrics(rootFrame: rootFrame)

        collect(root.element, parent: nil, origin: (-rootFrame.x, -rootFrame.y), depth: 0)
        guard !constraintElements.isEmpty else { return nil }
        addGuides(rootFrame: rootFrame)
        assignNames()
        for index in nodes.indices { nodes[index].margins = margins(of: index, rootFrame: rootFrame) }
        for item in constraintElements { convert(item.element, owner: item.owner) }
        fixUnconstrainedViews()
        addGuideConstraints()
        addStackViews()
        addAutoresizing()
        addContent()

        var layout = Layout(container: ContainerSize(width: size.width, height: size.height), containerTraits: deviceClass.traits)
        layout.containerMargins = nodes[0].margins == .standard ? nil : nodes[0].margins
        layout.views = nodes.indices.dropFirst().map { i in
            ViewDeclaration(name: nodes[i].name, margins: nodes[i].margins == .standard ? nil : nodes[i].margins,
                            content: nodes[i].content)
        }
        layout.constraints = constraints
        // Variants for the other size classes when anything reads differently there
        // (view masks, constraint masks or per-class numbers).
        if hasVariations || constraints.contains(where: { !$0.traits.isEmpty }) {
            layout.variants = SizeClass.all.filter { $0 != deviceClass }.map { sc in
                Variant(name: sc.variant.name, size: sc.variant.size, traits: sc.traits)
            }
        }
        layout = dropInvalid(layout)
        var observed = 0
        for node in nodes.dropFirst() where node.guide == nil && node.noOracle == nil && node.hasFrame {
            layout.expectations.append(Expectation(.frame(view: node.name, round(node.frame)),
                                                   observedBy: InterfaceBuilderImporter.xcodeSource,
                                                   tolerance: InterfaceBuilderImporter.xcodeTolerance))
            observed += 1
        }
        let imported = nodes.dropFirst().filter { $0.guide == nil }.count
        return ImportedScreen(name: "", rootID: root.controller?["id"] ?? root.element["id"] ?? "", header: header(observed, imported),
                              layout: layout, observedViews: observed, importedViews: imported, warnings: warnings)
    }

    /// Frames to 1/1000 point: accumulation adds float noise to values IB stored with few digits.
    func round(_ f: Frame) -> Frame {
        func r(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return Frame(x: r(f.x), y: r(f.y), width: r(f.width), height: r(f.height))
    }

    func header(_ observed: Int, _ imported: Int) -> [String] {
        var lines = ["Imported by `layout-bench import` from an Interface Builder file; the expect lines are the frames Xcode stored."]
        lines.append("source: \(context.fileName)")
        var scene = root.sceneID.map { "scene \($0)" } ?? "top-level object"
        scene += " (\(root.title)); root \(root.element.name) \(root.element["id"] ?? "(no id)")"
        lines.append(scene)
        let device = context.device.map { "\($0["id"] ?? "?") \($0["orientation"] ?? "portrait")" } ?? "none stored"
        lines.append("device: \(device); container \(nodes.first.map { "\(formatNumber($0.frame.width)) x \(formatNumber($0.frame.height))" } ?? "?"); "
                     + "size class \(deviceClass.traits.joined(separator: " "))")
        lines.append("Interface Builder toolsVersion \(context.toolsVersion ?? "unknown")")
        lines.append("views: \(imported); with Xcode's frame as oracle: \(observed)")
        for note in notes.sorted() where !note.isEmpty { lines.append("approximated: \(note)") }
        return lines
    }

    // MARK: Views

    mutating func newID(for element: XMLElement) -> String {
        if let id = element["id"], byID[id] == nil { return id }
        anonymous += 1
        return "anon\(anonymous)"
    }

    /// Records a view and, depth first, its subviews; `origin` is the
    /// superview's top-left corner in the container's coordinates.
    mutating func collect(_ element: XMLElement, parent: Int?, origin: (x: Double, y: Double), depth: Int) {
        let stored = Self.frame(of: element)
        var frame = stored ?? Frame(x: 0, y: 0, width: 0, height: 0)
        frame.x += origin.x
        frame.y += origin.y
        let childOrigin = (x: frame.x, y: frame.y)
        // The model's view is what constraints act on: the alignment rectangle.
        if stored != nil, let inset = FixedControls.alignmentInsets[element.name] {
            frame = Frame(x: frame.x + inset.left, y: frame.y + inset.top, width: frame.width - inset.left - inset.right,
                          height: frame.height - inset.top - inset.bottom)
        }
        let index = nodes.count
        // A stack view's arranged views are Auto Layout views whatever the file says (the stack sets the flag).
        // `fixedFrame="YES"`: IB keeps the view at its frame (it makes frame
        // constraints at build time), whatever the flag says.
        let inStack = parent.map { nodes[$0].element.name == "stackView" } ?? false
        let autoLayout = inStack || (element["translatesAutoresizingMaskIntoConstraints"] == "NO" && element["fixedFrame"] != "YES")
        var node = Node(id: newID(for: element), element: element, parent: parent, frame: frame, hasFrame: stored != nil,
                        autoLayout: autoLayout)
        if element["misplaced"] == "YES" { node.noOracle = "misplaced" }
        if element["ambiguous"] == "YES" { node.noOracle = "ambiguous" }
        if let parent, let reason = nodes[parent].noOracle, reason.hasPrefix("misplaced") || reason.hasPrefix("inside") {
            node.noOracle = node.noOracle ?? "inside a misplaced view"
        }
        if parent != nil, !autoLayout { node.noOracle = node.noOracle ?? "autoresizing (its frame is an input)" }
        if stored == nil, parent != nil { warn("\(element.name) \(node.id) has no stored frame: no oracle for it", element) }
        byID[node.id] = index
        nodes.append(node)

        if let list = element.child("constraints") {
            for constraint in list.children("constraint") { constraintElements.append((constraint, index)) }
        }
        let elementVariations = element.children("variation")
        if !elementVariations.isEmpty {
            variations[index] = elementVariations
            hasVariations = true
        }
        // Subviews left out of the default size class are not on the stored screen.
        var excluded: Set<String> = []
        for variation in elementVariations where variation["key"] == "default" {
            for mask in variation.children("mask") where mask["key"] == "subviews" {
                for exclude in mask.children("exclude") { if let r = exclude["reference"] { excluded.insert(r) } }
            }
        }
        for guide in element.children("viewLayoutGuide") {
            let kind: GuideKind? = switch guide["key"] {
            case "safeArea": .safeArea
            case "contentLayoutGuide": .content
            case "frameLayoutGuide": .frameGuide
            default: nil
            }
            guard let kind, let id = guide["id"] else {
                warn("layout guide '\(guide["key"] ?? "?")' is not supported: constraints to it are left out", guide)
                continue
            }
            addGuide(id: id, element: guide, owner: index, kind: kind)
        }
        guard depth < 200 else { return }
        var children: [XMLElement] = []
        if let subviews = element.child("subviews") { children += subviews.children }
        // A cell's content view is a keyed child, not a subview.
        for keyed in element.children where keyed["key"] == "contentView" { children.append(keyed) }
        for child in children {
            if DocumentContext.cellElements.contains(child.name) { continue }  // its own screen
            if let id = child["id"], excluded.contains(id) {
                notes.append("views installed only in other size classes are left out")
                continue
            }
            if child.name == "placeholder" { continue }
            collect(child, parent: index, origin: childOrigin, depth: depth + 1)
        }
    }

    /// An Auto Layout view that no constraint names (and no stack arranges):
    /// IB gives it constraints from its frame at build time, so its frame is
    /// an input, laid out as an autoresizing view's.
    mutating func fixUnconstrainedViews() {
        var named: Set<String> = []
        for c in constraints {
            named.insert(c.first.item)
            if let second = c.second { named.insert(second.item) }
        }
        for i in nodes.indices.dropFirst() where nodes[i].autoLayout && nodes[i].guide == nil && !named.contains(nodes[i].name) {
            guard let p = nodes[i].parent, nodes[p].element.name != "stackView", nodes[i].hasFrame else { continue }
            nodes[i].autoLayout = false
            nodes[i].noOracle = nodes[i].noOracle ?? "no constraints: IB fixes its frame at build time"
        }
    }

    mutating func addGuide(id: String, element: XMLElement, owner: Int, kind: GuideKind) {
        guard byID[id] == nil else { return }
        let index = nodes.count
        var node = Node(id: id, element: element, parent: owner, frame: nodes[owner].frame, hasFrame: false, autoLayout: true)
        node.guide = kind
        byID[id] = index
        nodes.append(node)
    }

    /// The legacy top and bottom layout guides of the controller (`<layoutGuides>`).
    mutating func addGuides(rootFrame: Frame) {
        guard let guides = root.controller?.child("layoutGuides") else { return }
        for guide in guides.children("viewControllerLayoutGuide") {
            guard let id = guide["id"] else { continue }
            addGuide(id: id, element: guide, owner: 0, kind: guide["type"] == "bottom" ? .bottomLegacy : .topLegacy)
        }
    }

    /// Names every node: the container is `super`; the rest by label or id.
    mutating func assignNames() {
        usedNames = [Layout.containerName]
        nodes[0].name = Layout.containerName
        for i in nodes.indices.dropFirst() {
            let node = nodes[i]
            var base: String
            switch context.options.naming {
            case .id:
                base = identifierName(node.id, camelCase: false)
            case .label:
                switch node.guide {
                case .safeArea?: base = (node.parent == 0 ? "" : nodes[node.parent ?? 0].name + "_") + "safeArea"
                case .topLegacy?: base = "topLayoutGuide"
                case .bottomLegacy?: base = "bottomLayoutGuide"
                case .content?: base = nodes[node.parent ?? 0].name + "_content"
                case .frameGuide?: base = nodes[node.parent ?? 0].name + "_frame"
                case .stackGap?: base = node.id
                case nil:
                    let label = node.element["userLabel"].map { identifierName($0, camelCase: true) } ?? ""
                    let custom = node.element["customClass"].map { identifierName($0, camelCase: true) } ?? ""
                    base = !label.isEmpty ? label : (!custom.isEmpty ? custom : identifierName(node.element.name, camelCase: true))
                }
            }
            nodes[i].name = uniqueName(base)
        }
    }

    mutating func uniqueName(_ raw: String) -> String {
        var base = raw.isEmpty ? "view" : raw
        if base == Layout.containerName || Self.reserved.contains(base) { base += "_" }
        var name = base
        var k = 2
        while usedNames.contains(name) {
            name = "\(base)\(k)"
            k += 1
        }
        usedNames.insert(name)
        return name
    }

    /// Words a `.layout` line starts with: a view of that name would read as the keyword.
    static let reserved: Set<String> = ["container", "views", "metric", "margins", "variant", "when", "expect", "intrinsic",
                                        "hugging", "compression", "baselines", "default", "ambiguous", "unsatisfiable"]

    // MARK: Margins and guides

    /// A view's layout margins: explicit `layoutMargins`, the root's system
    /// minimum plus its safe area, 11 (15 from Xcode 26) / 16 in a table cell's content view, 8 elsewhere;
    /// `preservesSuperviewLayoutMargins` widens them to the superview's where they overlap.
    mutating func margins(of index: Int, rootFrame: Frame) -> EdgeInsets {
        let node = nodes[index]
        guard node.guide == nil else { return .standard }
        var m = EdgeInsets.standard
        // A xib's top-level view is laid out as a controller's root would be (IB
        // simulates it full screen): its margins are the system minimum plus the safe area.
        let build = context.toolsBuild ?? 0
        if index == 0, root.controller != nil || (!root.isCell && node.element.name == "view") {
            let side = DeviceMetrics.rootSideMargin(width: rootFrame.width)
            let safe = safeAreaInsets(ofRoot: rootFrame)
            if node.element["insetsLayoutMarginsFromSafeArea"] == "NO" || build < 13000 {
                // Without the safe area (the flag, or a file from before iOS 11 had one): the system minimum only.
                m = EdgeInsets(top: 0, left: side, bottom: 0, right: side)
            } else {
                m = EdgeInsets(top: safe.top, left: side + safe.left, bottom: safe.bottom, right: side + safe.right)
            }
        } else if index == 0, root.isCell, build >= 13000,
                  node.element.name == "tableViewCell" || (!context.isStoryboard && node.element["preservesSuperviewLayoutMargins"] == "YES") {
            // A table cell's own margins (and a xib cell's that takes its
            // collection's; a storyboard's collection cells keep 8, measured)
            // are the list's system minimum on the sides.
            let side = DeviceMetrics.cellSideMargin(width: rootFrame.width)
            m = EdgeInsets(top: 8, left: side, bottom: 8, right: side)
        } else if node.element["key"] == "contentView", let parent = node.parent, nodes[parent].element.name == "tableViewCell" {
            // Files saved before Xcode 9 (builds below 13000) laid cells out with UIView's 8 all round.
            if (context.toolsBuild ?? 0) >= 13000 {
                let side = DeviceMetrics.cellSideMargin(width: node.frame.width)
                let vertical = DeviceMetrics.cellVerticalMargin(toolsBuild: build)
                m = EdgeInsets(top: vertical, left: side, bottom: vertical, right: side)
            }
        }
        if let insets = node.element.children.first(where: { $0.name == "edgeInsets" && $0["key"] == "layoutMargins" }) {
            m = EdgeInsets(top: Self.number(insets["top"]) ?? 0, left: Self.number(insets["left"]) ?? 0,
                           bottom: Self.number(insets["bottom"]) ?? 0, right: Self.number(insets["right"]) ?? 0)
        } else if let insets = node.element.children.first(where: { $0.name == "directionalEdgeInsets" && $0["key"] == "directionalLayoutMargins" }) {
            m = EdgeInsets(top: Self.number(insets["top"]) ?? 0, left: Self.number(insets["leading"]) ?? 0,
                           bottom: Self.number(insets["bottom"]) ?? 0, right: Self.number(insets["trailing"]) ?? 0)
        }
        // UIKit adds to a view's margins the part of the safe area's insets it
        // overlaps, unless `insetsLayoutMarginsFromSafeArea` is NO (the root's are added above).
        if index > 0, node.element["insetsLayoutMarginsFromSafeArea"] != "NO", build >= 13000 {
            let safe = safeAreaInsets(ofRoot: storedRoot), f = node.frame
            let width = rootFrame.width, height = rootFrame.height
            m.top += max(0, min(f.y + f.height, safe.top) - max(f.y, 0))
            m.bottom += max(0, min(f.y + f.height, height) - max(f.y, height - safe.bottom))
            m.left += max(0, min(f.x + f.width, safe.left) - max(f.x, 0))
            m.right += max(0, min(f.x + f.width, width) - max(f.x, width - safe.right))
        }
        if node.element["preservesSuperviewLayoutMargins"] == "YES", let parent = node.parent, parent < index {
            let p = nodes[parent].margins, pf = nodes[parent].frame, f = node.frame
            m.left = max(m.left, p.left - (f.x - pf.x))
            m.top = max(m.top, p.top - (f.y - pf.y))
            m.right = max(m.right, p.right - ((pf.x + pf.width) - (f.x + f.width)))
            m.bottom = max(m.bottom, p.bottom - ((pf.y + pf.height) - (f.y + f.height)))
        }
        return m
    }

    /// The screen the root was drawn on in IB's canvas and what the screen
    /// itself takes from it: the controller's `freeformSize` if it has one,
    /// else the file's device (or the home-button phone the root fills), else
    /// the root down to its bottom edge.
    func screenMetrics(rootFrame: Frame) -> DeviceMetrics {
        let device = context.device?["id"] ?? DeviceMetrics.inferredDevice(root: rootFrame)
        let landscape = context.device?["orientation"] == "landscape"
        let portrait = device.flatMap { DeviceMetrics.portraitScreen(device: $0, rootWidth: landscape ? rootFrame.height : rootFrame.width) }
        var size = (width: rootFrame.width, height: rootFrame.y + rootFrame.height)
        if let portrait { size = landscape ? (portrait.height, portrait.width) : portrait }
        if let freeform = root.controller?.child("size", key: "freeformSize"),
           let width = Self.number(freeform["width"]), let height = Self.number(freeform["height"]), width > 0, height > 0 {
            size = (width, height)
        }
        let insets = DeviceMetrics.screenInsets(device: device, toolsBuild: context.toolsBuild, landscape: landscape,
                                                screenHeight: portrait?.height ?? max(size.width, size.height))
        return DeviceMetrics(screen: insets, size: size)
    }

    /// The root's safe area insets: the screen's, plus the bars, less what the
    /// root's stored frame already leaves out (a root below an opaque bar
    /// starts at y > 0, one above a tab bar ends short of the screen).
    /// A xib's top-level view (not a cell) gets the screen's insets: IB
    /// simulates it full screen on the file's device.
    func safeAreaInsets(ofRoot rootFrame: Frame) -> EdgeInsets {
        guard !root.isCell else { return EdgeInsets(all: 0) }
        // A top-level xib view at a freeform size was drawn on no screen
        // before Xcode 10.1 (build 14460): no status bar. From then on IB
        // gives it the device's insets like any other top-level view. Read
        // off the four freeform views of the sample pinned to the top inset:
        // builds 14113 and 14313 store them at 0, 14460 and 17506 below the
        // status bar or sensor housing.
        if root.controller == nil && root.bars.freeformDestination && (context.toolsBuild ?? 0) < 14460 {
            return EdgeInsets(all: 0)
        }
        // Xcode 9 and 10 (builds 13000-14799) drew the status bar of a
        // device-sized controller even when its metrics said none (measured).
        let freeform = root.controller?.child("size", key: "freeformSize") != nil
        let honoursHiddenStatusBar = !(13000..<14800).contains(context.toolsBuild ?? 0) || freeform || root.controller == nil
        var top = root.bars.statusBarHidden && honoursHiddenStatusBar && metrics.screen.top == 20 ? 0 : metrics.screen.top
        var bottom = metrics.screen.bottom
        guard root.controller != nil else {
            return EdgeInsets(top: top, left: metrics.screen.left, bottom: bottom, right: metrics.screen.right)
        }
        let statusTop = top
        let landscapePhone = deviceClass.height == .compact
        if root.bars.navigation {
            // The navigation controller's own stored bar says where it ends
            // (below the status bar where an old file stored it at 0; only a bar
            // as wide as the root was laid out with it); else a standard bar.
            if let bar = root.bars.navigationBar, bar.width == rootFrame.width {
                top = max(bar.y, statusTop) + bar.height
            } else {
                top += landscapePhone ? 32 : 44
            }
        }
        var bottomBars = 0.0
        if root.bars.tab { bottomBars += landscapePhone ? 32 : 49 }
        if root.bars.toolbar { bottomBars += landscapePhone ? 32 : 44 }
        bottom += bottomBars
        top = max(0, top - rootFrame.y)
        // A root shorter than the screen sits clear of opaque bars: the height
        // it lacks is its bottom bars' when it lacks at least that much, and
        // the rest is taken off the top inset only. Why not the bottom's
        // too: such a root is a sheet (or sits below a bar), short at its
        // top; its bottom is the screen's, above the home indicator. Read
        // off the sample: the only roots it changes are four susi_iOS sheets
        // (Xcode 11, 758 of 812 points); the two of them with views pinned
        // to the bottom guide store those views 34 above the bottom. One
        // that runs past the screen's bottom has that much more bottom inset.
        if rootFrame.width == metrics.size.width {
            var missing = metrics.size.height - rootFrame.y - rootFrame.height
            if missing > 0, bottomBars > 0, missing >= bottomBars {
                // A root short by its bottom bars ends above them (a tab
                // bar controller's child stored 618 of 667 tall keeps its
                // status bar: XLPagerTabStrip's ReloadExampleViewController).
                missing -= bottomBars
                bottom -= bottomBars
            }
            if missing > 0 {
                let fromTop = min(missing, top)
                top -= fromTop
                missing -= fromTop
            } else if missing < 0 {
                bottom -= missing
            }
        }
        return EdgeInsets(top: top, left: metrics.screen.left, bottom: bottom, right: metrics.screen.right)
    }

    /// The insets of a guide relative to its owner: the root's safe area where the owner overlaps it.
    func guideInsets(owner: Int) -> EdgeInsets {
        let rootFrame = nodes[0].frame
        let safe = safeAreaInsets(ofRoot: storedRoot)
        let f = nodes[owner].frame
        return EdgeInsets(top: max(0, safe.top - f.y), left: max(0, safe.left - f.x),
                          bottom: max(0, safe.bottom - (rootFrame.height - (f.y + f.height))),
                          right: max(0, safe.right - (rootFrame.width - (f.x + f.width))))
    }
}
