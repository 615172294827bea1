import LayoutModel

extension ScreenBuilder {
    /// Intrinsic content sizes, hugging, compression resistance and baselines.
    ///
    /// The file stores no intrinsic sizes. In order: `placeholderIntrinsicWidth/Height`
    /// (exact); the fixed-size controls' table; else, for views sized by
    /// their content (labels, buttons, text fields, images), the stored
    /// frame's size on each axis the required constraints leave open.
    mutating func addContent() {
        let determined = determinedAxes()
        let baselineViews = Set(constraints.flatMap { c in
            [c.first, c.second].compactMap { $0 }.filter { $0.attribute == .firstBaseline || $0.attribute == .lastBaseline }.map(\.item)
        })
        let device = context.device?["id"] ?? ""
        let notchedPhone = !device.isEmpty && !device.hasPrefix("ipad") && !DeviceMetrics.homeButtonPhones.contains(device)
        for i in nodes.indices.dropFirst() where nodes[i].guide == nil {
            let element = nodes[i].element
            var width: Double?, height: Double?
            var fromFrame = false
            if let fixed = FixedControls.intrinsicSize(of: element, toolsBuild: context.toolsBuild, notchedPhone: notchedPhone) {
                width = fixed.width
                height = fixed.height
            } else if (FixedControls.contentSized.contains(element.name) && contentSizedByFrame(element)) || isDesignable(element) {
                let stored = nodes[i].frame
                // Sliders, search bars, text views and pickers take their width from constraints.
                width = ["slider", "searchBar", "textView", "pickerView"].contains(element.name) ? nil : stored.width
                height = stored.height
                fromFrame = true
            }
            // Exact sizes IB was told to assume.
            if let w = element["placeholderIntrinsicWidth"] { width = w == "infinite" ? nil : Self.number(w) ?? width }
            if let h = element["placeholderIntrinsicHeight"] { height = h == "infinite" ? nil : Self.number(h) ?? height }
            if fromFrame {
                if determined[i]?.horizontal == true, element["placeholderIntrinsicWidth"] == nil { width = nil }
                if determined[i]?.vertical == true, element["placeholderIntrinsicHeight"] == nil { height = nil }
            }
            var content = ViewContent()
            if width != nil || height != nil {
                content.intrinsicSize = IntrinsicSize(width: width.map { max(0, $0) }, height: height.map { max(0, $0) })
            }
            func priority(_ key: String, _ fallback: Priority) -> Priority {
                guard let v = Self.number(element[key]), (1...1000).contains(v) else { return fallback }
                return Priority(v)
            }
            let hugging = AxisPriorities(horizontal: priority("horizontalHuggingPriority", .low),
                                         vertical: priority("verticalHuggingPriority", .low))
            let compression = AxisPriorities(horizontal: priority("horizontalCompressionResistancePriority", .high),
                                             vertical: priority("verticalCompressionResistancePriority", .high))
            if content.intrinsicSize != nil {
                if hugging != .defaultHugging { content.hugging = hugging }
                if compression != .defaultCompression { content.compression = compression }
            }
            if baselineViews.contains(nodes[i].name) { content.baselines = baselines(of: i) }
            nodes[i].content = content
        }
    }

    /// A leaf view of a custom class: IB renders designables and stores the
    /// size they draw at, so the stored frame stands for its content size.
    func isDesignable(_ element: XMLElement) -> Bool {
        element.name == "view" && element["customClass"] != nil && element["key"] == nil
            && (element.child("subviews")?.children.isEmpty ?? true)
    }

    /// Whether the stored frame stands for the view's content size: images only with an image,
    /// text views only when they do not scroll.
    func contentSizedByFrame(_ element: XMLElement) -> Bool {
        switch element.name {
        case "imageView": return element["image"] != nil
        case "textView": return element["scrollEnabled"] == "NO"
        default: return true
        }
    }

    /// Per view, whether its size on an axis is not its content's: required
    /// equalities fix it, to a fixpoint, by a constant size, by a size equal
    /// to a fixed size, or by both of its edges on that axis pinned to one
    /// item whose size on that axis is fixed (the root's is). Why not "both
    /// edges to any one item": a stack's or a scroll view's content size comes
    /// from its children, so pinning a view to both edges of one fixes
    /// nothing; and the content constraints are soft, so giving a size that
    /// required constraints override changes nothing.
    /// - Complexity: O(*c* + *v*) for *c* constraints and *v* views: the
    ///   fixed sizes spread along a worklist, each (view, axis) once.
    func determinedAxes() -> [Int: (horizontal: Bool, vertical: Bool)] {
        var index: [String: Int] = [:]
        for i in nodes.indices { index[nodes[i].name] = i }
        func axis(_ a: Attribute) -> Int? {
            switch a {
            case .width, .left, .right, .leading, .trailing, .leftMargin, .rightMargin, .leadingMargin, .trailingMargin: 0
            case .height, .top, .bottom, .topMargin, .bottomMargin: 1
            default: nil
            }
        }
        // A (view, axis) pair is the key view * 2 + axis. `follows[k]`: the
        // pairs fixed once k is (an equal size, or a view with both edges pinned to k's view).
        var fixed = [Bool](repeating: false, count: nodes.count * 2)
        var follows: [Int: [Int]] = [:]
        var worklist: [Int] = []
        func fix(_ key: Int) {
            guard !fixed[key] else { return }
            fixed[key] = true
            worklist.append(key)
        }
        fix(0)
        fix(1)
        var edges: [Int: [Set<Int>]] = [:]  // view -> [axis * 2 + side]: the items its edges are pinned to
        for c in constraints where c.priority.rawValue >= 1000 && c.relation == .equal && c.traits.isEmpty {
            guard let i = index[c.first.item] else { continue }
            if c.first.attribute.isDimension, let a = axis(c.first.attribute) {
                if c.second == nil || c.multiplier == 0 {
                    fix(i * 2 + a)
                } else if let second = c.second, second.attribute.isDimension, let j = index[second.item], let b = axis(second.attribute) {
                    follows[i * 2 + a, default: []].append(j * 2 + b)
                    follows[j * 2 + b, default: []].append(i * 2 + a)
                }
                continue
            }
            guard let second = c.second, let j = index[second.item] else { continue }
            for (item, other) in [(c.first, j), (second, i)] {
                guard let k = index[item.item], let a = axis(item.attribute) else { continue }
                let side: Int? = switch item.attribute {
                case .left, .leading, .leftMargin, .leadingMargin, .top, .topMargin: 0
                case .right, .trailing, .rightMargin, .trailingMargin, .bottom, .bottomMargin: 1
                default: nil
                }
                guard let side else { continue }
                edges[k, default: [Set<Int>](repeating: [], count: 4)][a * 2 + side].insert(other)
            }
        }
        for (k, e) in edges {
            for a in 0..<2 {
                for item in e[a * 2].intersection(e[a * 2 + 1]) { follows[item * 2 + a, default: []].append(k * 2 + a) }
            }
        }
        while let key = worklist.popLast() {
            for next in follows[key] ?? [] { fix(next) }
        }
        var result: [Int: (horizontal: Bool, vertical: Bool)] = [:]
        for i in nodes.indices { result[i] = (fixed[i * 2], fixed[i * 2 + 1]) }
        return result
    }

    /// Text baselines from the font size (system font metrics: ascender
    /// 0.952, descender 0.241, line height 1.193 of the point size), the
    /// text centred vertically in the stored frame as labels, buttons and fields draw it.
    func baselines(of index: Int) -> Baselines? {
        let element = nodes[index].element
        let font = element.child("fontDescription", key: "fontDescription")
            ?? element.children.first(where: { $0.name == "buttonConfiguration" })?.child("fontDescription")
            ?? element.child("state")?.child("fontDescription")
        let size = Self.number(font?["pointSize"]) ?? 17
        let line = 1.193 * size, ascender = 0.952 * size, descender = 0.241 * size
        let height = nodes[index].frame.height
        let lines = max(1, (height / line + 0.01).rounded(.down))
        let pad = max(0, (height - lines * line) / 2)
        return Baselines(first: pad + ascender, last: pad + descender)
    }

    /// Validates the screen and leaves out each constraint the model refuses,
    /// with the model's reason located at the `<constraint>` element.
    mutating func dropInvalid(_ input: Layout) -> Layout {
        var layout = input
        for _ in 0..<4 {
            let diagnostics = layout.validate().filter { $0.severity == .error }
            guard !diagnostics.isEmpty else { return layout }
            var removed = false
            for diagnostic in diagnostics {
                guard let location = diagnostic.location else { continue }
                let before = layout.constraints.count
                layout.constraints.removeAll { $0.location == location }
                if layout.constraints.count < before {
                    removed = true
                    warnings.append(ImportDiagnostic(.warning, file: location.file, line: location.line, column: location.column,
                                                     message: "constraint left out: \(diagnostic.message)"))
                }
            }
            if !removed {
                for diagnostic in diagnostics.prefix(3) {
                    warnings.append(ImportDiagnostic(.warning, file: context.fileName, line: root.element.line, column: root.element.column,
                                                     message: "the imported screen does not validate: \(diagnostic.message)"))
                }
                return layout
            }
        }
        return layout
    }
}
