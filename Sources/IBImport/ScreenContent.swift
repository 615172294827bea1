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
            if let fixed = FixedControls.intrinsicSize(of: element, toolsMajor: context.toolsMajor, notchedPhone: notchedPhone) {
                width = fixed.width
                height = fixed.height
            } else if FixedControls.contentSized.contains(element.name) && contentSizedByFrame(element) {
                let stored = nodes[i].frame
                width = element.name == "slider" || element.name == "searchBar" || element.name == "textView" ? nil : stored.width
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

    /// Whether the stored frame stands for the view's content size: images only with an image,
    /// text views only when they do not scroll.
    func contentSizedByFrame(_ element: XMLElement) -> Bool {
        switch element.name {
        case "imageView": return element["image"] != nil
        case "textView": return element["scrollEnabled"] == "NO"
        default: return true
        }
    }

    /// Per view, whether its size on an axis is not its content's: a required
    /// equality sets the dimension to a number, or pins both of its edges on
    /// that axis to one other item (a label stretched between its superview's
    /// edges). Why so narrow: edges chained through other views (a stack's
    /// spacing) do not fix a size, and the content constraints are soft, so
    /// giving a size that required constraints override changes nothing.
    func determinedAxes() -> [Int: (horizontal: Bool, vertical: Bool)] {
        var index: [String: Int] = [:]
        for i in nodes.indices { index[nodes[i].name] = i }
        var fixed: [Int: (Bool, Bool)] = [:]
        var edges: [Int: [String: Set<String>]] = [:]  // view -> "h-start" -> other items
        for c in constraints where c.priority.rawValue >= 1000 && c.relation == .equal && c.traits.isEmpty {
            if c.second == nil || c.multiplier == 0, let i = index[c.first.item], c.first.attribute.isDimension {
                var d = fixed[i] ?? (false, false)
                if c.first.attribute == .width { d.0 = true } else { d.1 = true }
                fixed[i] = d
                continue
            }
            guard let second = c.second else { continue }
            for (item, other) in [(c.first, second), (second, c.first)] {
                guard let i = index[item.item] else { continue }
                let family: String? = switch item.attribute {
                case .left, .leading, .leftMargin, .leadingMargin: "h-start"
                case .right, .trailing, .rightMargin, .trailingMargin: "h-end"
                case .top, .topMargin: "v-start"
                case .bottom, .bottomMargin: "v-end"
                default: nil
                }
                guard let family else { continue }
                edges[i, default: [:]][family, default: []].insert(other.item)
            }
        }
        var result: [Int: (horizontal: Bool, vertical: Bool)] = [:]
        for i in nodes.indices {
            let d = fixed[i] ?? (false, false)
            let e = edges[i] ?? [:]
            let h = !(e["h-start"] ?? []).isDisjoint(with: e["h-end"] ?? [])
            let v = !(e["v-start"] ?? []).isDisjoint(with: e["v-end"] ?? [])
            result[i] = (d.0 || h, d.1 || v)
        }
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
