// Metamorphic testing (`run --metamorphic`): transformations of a case whose
// effect on the answer is known without solving — the constraints in another
// order, the views renamed, every length doubled, the layout mirrored, a
// required constraint written twice, the priorities relabelled in the same
// order — each solved by the same solver and compared with its own answer to
// the original. SMT-COMP scrambles its benchmarks for the same reason: a
// solver must not depend on how a problem is written, and kiwi's bug reports
// include answers that depend on the order constraints are added.

import BenchSchema
import LayoutModel
import LayoutSolving
import SeededRandom

/// A transformation with a known effect on the answer.
struct MetamorphicTransform {
    /// The property a changed answer breaks, as the verdict's reason names it.
    enum Relation: String, CaseIterable {
        case order = "order-dependent"
        case rename = "not rename-invariant"
        case scale = "not scale-invariant"
        case mirror = "not mirror-invariant"
        case duplicate = "changed by a duplicated required constraint"
        case relabel = "changed by relabelled priorities"
    }

    /// The variant's name in reports (`metamorphic/order-1`).
    var name: String
    var relation: Relation
    var layout: Layout
    /// The transformed name of each original view.
    var renamed: [String: String] = [:]
    /// The frame the transformed layout must give where the original gave `frame`.
    var expected: (Frame) -> Frame = { $0 }

    /// The views' names in the transformed layout.
    func name(of view: String) -> String { renamed[view] ?? view }
}

enum Metamorphic {
    /// The transformations of `layout`'s default variant, deterministic for a
    /// seed. Why the default variant only: the relations hold per variant, and
    /// one variant keeps `--metamorphic` within a small multiple of a run.
    /// Why scale by 2: doubling is exact in binary floating point, so an exact
    /// solver's answer doubles exactly and any difference is the solver's.
    /// - Complexity: O(views + constraints) per transformation.
    static func transforms(of layout: Layout, seed: UInt64 = 1) -> [MetamorphicTransform] {
        var base = layout
        // Expectations name views and are the run's business, not the relations'.
        base.expectations = []
        var out: [MetamorphicTransform] = []
        var random = SplitMix(seed: seed)
        for k in 1...2 {
            var shuffled = base
            shuffled.constraints.shuffle(using: &random)
            shuffled.views.shuffle(using: &random)
            out.append(MetamorphicTransform(name: "metamorphic/order-\(k)", relation: .order, layout: shuffled))
        }
        out.append(renamed(base, random: &random))
        out.append(scaled(base))
        if let mirrored = mirrored(base) { out.append(mirrored) }
        if let duplicated = duplicated(base) { out.append(duplicated) }
        if let relabelled = relabelled(base) { out.append(relabelled) }
        return out
    }

    /// Every view renamed (`renamed1`, ...) in a shuffled order.
    static func renamed(_ layout: Layout, random: inout SplitMix) -> MetamorphicTransform {
        var t = layout
        var order = layout.views.map(\.name)
        order.shuffle(using: &random)
        let taken = Set(order)
        var map: [String: String] = [:]
        var next = 1
        for name in order {
            while taken.contains("renamed\(next)") { next += 1 }
            map[name] = "renamed\(next)"
            next += 1
        }
        for i in t.views.indices { t.views[i].name = map[t.views[i].name] ?? t.views[i].name }
        func rename(_ a: ItemAttribute) -> ItemAttribute {
            var a = a
            a.item = map[a.item] ?? a.item
            return a
        }
        for i in t.constraints.indices {
            t.constraints[i].first = rename(t.constraints[i].first)
            t.constraints[i].second = t.constraints[i].second.map(rename)
        }
        return MetamorphicTransform(name: "metamorphic/rename", relation: .rename, layout: t, renamed: map)
    }

    /// Every length doubled: constants, container sizes, margins, intrinsic sizes, baselines.
    static func scaled(_ layout: Layout) -> MetamorphicTransform {
        let f = 2.0
        var t = layout
        // Why a missing margin becomes the standard one doubled: nil means
        // the standard margins, a length like any other.
        func scale(_ e: EdgeInsets?) -> EdgeInsets? {
            let e = e ?? .standard
            return EdgeInsets(top: e.top * f, left: e.left * f, bottom: e.bottom * f, right: e.right * f)
        }
        func scale(_ s: ContainerSize) -> ContainerSize { ContainerSize(width: s.width * f, height: s.height.map { $0 * f }) }
        t.container = scale(t.container)
        for i in t.variants.indices { t.variants[i].size = scale(t.variants[i].size) }
        t.containerMargins = scale(t.containerMargins)
        for i in t.metrics.indices { t.metrics[i].value *= f }
        for i in t.constraints.indices { t.constraints[i].constant *= f }
        for i in t.views.indices {
            t.views[i].margins = scale(t.views[i].margins)
            var content = t.views[i].content
            content.intrinsicSize = content.intrinsicSize.map { IntrinsicSize(width: $0.width.map { $0 * f }, height: $0.height.map { $0 * f }) }
            content.baselines = content.baselines.map { Baselines(first: $0.first * f, last: $0.last * f) }
            t.views[i].content = content
        }
        return MetamorphicTransform(name: "metamorphic/scale-2", relation: .scale, layout: t) {
            Frame(x: $0.x * f, y: $0.y * f, width: $0.width * f, height: $0.height * f)
        }
    }

    /// Left to right mirrored, for layouts whose horizontal constraints use
    /// only leading/trailing and widths (then toggling the `rtl` trait
    /// mirrors every frame in the container); nil for any other.
    static func mirrored(_ layout: Layout) -> MetamorphicTransform? {
        let absolute: Set<Attribute> = [.left, .right, .leftMargin, .rightMargin, .centerX, .centerXWithinMargins]
        let usesDirection = layout.constraints.contains { c in [c.first.attribute, c.second?.attribute].contains { $0.map { [.leading, .trailing, .leadingMargin, .trailingMargin].contains($0) } ?? false } }
        guard usesDirection,
              !layout.constraints.contains(where: { c in !c.traits.isEmpty || absolute.contains(c.first.attribute) || c.second.map { absolute.contains($0.attribute) } ?? false })
        else { return nil }
        var t = layout
        func swap(_ e: EdgeInsets?) -> EdgeInsets? { e.map { EdgeInsets(top: $0.top, left: $0.right, bottom: $0.bottom, right: $0.left) } }
        if let i = t.containerTraits.firstIndex(of: Layout.rightToLeftTrait) { t.containerTraits.remove(at: i) } else { t.containerTraits.append(Layout.rightToLeftTrait) }
        t.containerMargins = swap(t.containerMargins)
        for i in t.views.indices { t.views[i].margins = swap(t.views[i].margins) }
        let width = layout.container.width
        return MetamorphicTransform(name: "metamorphic/mirror", relation: .mirror, layout: t) {
            Frame(x: width - $0.x - $0.width, y: $0.y, width: $0.width, height: $0.height)
        }
    }

    /// The first required constraint written twice (a required duplicate
    /// changes nothing; a soft one would double its error's weight, which
    /// may rightly move the optimum). Nil without a required constraint.
    static func duplicated(_ layout: Layout) -> MetamorphicTransform? {
        guard let first = layout.constraints.first(where: { $0.priority.isRequired && $0.traits.isEmpty }) else { return nil }
        var t = layout
        var copy = first
        copy.identifier = first.identifier.map { $0 + "-duplicate" }
        t.constraints.append(copy)
        return MetamorphicTransform(name: "metamorphic/duplicate", relation: .duplicate, layout: t)
    }

    /// The non-required priorities (constraints', hugging's and compression
    /// resistance's, defaults included where a view has content) mapped to
    /// other values in the same order; nil when there is nothing to relabel.
    /// A lexicographic solver must not change: only the order of levels
    /// means anything. A weighted one may, and is reported as diverging.
    static func relabelled(_ layout: Layout) -> MetamorphicTransform? {
        var used = Set(layout.constraints.map(\.priority).filter { !$0.isRequired })
        for view in layout.views where view.content.intrinsicSize != nil {
            let c = view.content
            for p in [c.hugging ?? .defaultHugging, c.compression ?? .defaultCompression] { used.formUnion([p.horizontal, p.vertical].filter { !$0.isRequired }) }
        }
        let sorted = used.sorted()
        guard !sorted.isEmpty else { return nil }
        // Spread over 1...999 in the same order (distinct: at most 999 values),
        // the opposite end of the range from where they were when possible.
        var map: [Priority: Priority] = [:]
        for (i, p) in sorted.enumerated() {
            let spread = sorted.count == 1 ? (p.rawValue < 500 ? 900 : 100) : 1 + (998 * Double(i) / Double(sorted.count - 1)).rounded(.down)
            map[p] = Priority(spread)
        }
        func relabel(_ p: Priority) -> Priority { map[p] ?? p }
        var t = layout
        for i in t.constraints.indices { t.constraints[i].priority = relabel(t.constraints[i].priority) }
        for i in t.views.indices where t.views[i].content.intrinsicSize != nil {
            var c = t.views[i].content
            let h = c.hugging ?? .defaultHugging, r = c.compression ?? .defaultCompression
            c.hugging = AxisPriorities(horizontal: relabel(h.horizontal), vertical: relabel(h.vertical))
            c.compression = AxisPriorities(horizontal: relabel(r.horizontal), vertical: relabel(r.vertical))
            t.views[i].content = c
        }
        guard t != layout else { return nil }
        return MetamorphicTransform(name: "metamorphic/relabel", relation: .relabel, layout: t)
    }

    /// Why the transformed answer breaks the relation, or nil if it holds.
    /// Views in `undetermined` (the reference's or either answer's ambiguous
    /// views) are skipped: an undetermined frame may rightly be anywhere on its range.
    static func difference(original: Solution, transformed: Solution, _ t: MetamorphicTransform,
                           undetermined: Set<String>) -> String? {
        guard original.status == transformed.status else {
            return "\(t.relation.rawValue): \(Layout.defaultVariantName) is \(original.status), \(t.name) is \(transformed.status)"
        }
        guard original.status == .solved else { return nil }
        let skip = undetermined.union(original.ambiguous ?? [])
        let theirs = NameIndex(transformed.viewNames)
        let transformedAmbiguous = Set(transformed.ambiguous ?? [])
        let tolerance = Tolerance.crossCheck
        for (i, view) in original.viewNames.enumerated() where i < original.frames.count && !skip.contains(view) {
            let name = t.name(of: view)
            guard !transformedAmbiguous.contains(name), let j = theirs[name], j < transformed.frames.count else { continue }
            let want = t.expected(original.frames[i]), got = transformed.frames[j]
            for c in FrameComponent.allCases where !tolerance.isClose(want[c], got[c]) {
                return "\(t.relation.rawValue): \(view).\(c) is \(format(want[c])) by \(Layout.defaultVariantName)"
                    + (t.relation == .scale ? " (doubled)" : t.relation == .mirror ? " (mirrored)" : "")
                    + ", \(format(got[c])) in \(t.name)" + (name == view ? "" : " (as \(name))")
            }
        }
        return nil
    }

    static func format(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
}

extension Runner {
    /// Cases larger than this are left out of the metamorphic pass: each
    /// transformation is another solve of every solver, and the relations
    /// are about how a problem is written, which small cases show as well.
    static let metamorphicConstraintLimit = 5_000

    /// The metamorphic result of `spec` on a case: one per solver and case,
    /// variant `metamorphic`, `pass` when every relation holds, else
    /// ``Verdict/metamorphic`` with each broken relation and its pair of
    /// variants (a weighted solver whose answer moves only under relabelled
    /// priorities is a ``Verdict/weightedDivergence``, as in the check).
    /// Nil when there is no original answer to compare with.
    /// - Complexity: one load and solve of each transformation (at most 7).
    func metamorphicResult(_ spec: SolverSpec, _ benchCase: BenchCase, original: VariantResult, reference: Solution?) -> VariantResult? {
        guard let status = original.status, benchCase.constraintCount <= Self.metamorphicConstraintLimit else { return nil }
        let solution = Solution(variant: Layout.defaultVariantName, status: status, viewNames: original.viewNames, frames: original.frames,
                                levels: original.levels, ambiguous: original.ambiguous, conflict: [])
        let undetermined = Set(reference?.ambiguous ?? [])
        var broken: [String] = [], diverging: [String] = [], errors: [String] = []
        for t in Metamorphic.transforms(of: benchCase.layout) {
            // A transformation the model refuses (doubling past the accepted
            // numeric range) says nothing about the solver.
            guard let validated = try? t.layout.validated() else { continue }
            let solver = instance(spec, ambiguity: false)
            do {
                let answer = try solver.load(t.layout, validated: validated, variant: nil)
                guard let difference = Metamorphic.difference(original: solution, transformed: answer, t, undetermined: undetermined) else { continue }
                if t.relation == .relabel && solver.capabilities.prioritySemantics == .weighted { diverging.append(difference) } else { broken.append(difference) }
            } catch SolverError.unsupported {
                continue
            } catch {
                errors.append("\(t.name): \(error)")
            }
        }
        let verdict: Verdict = !broken.isEmpty ? .metamorphic : !errors.isEmpty ? .error : !diverging.isEmpty ? .weightedDivergence : .pass
        return VariantResult(variant: "metamorphic", solver: spec.name, verdict: verdict, reasons: broken + errors + diverging, status: status,
                             levels: [], ambiguous: nil, conflict: [], frames: [], viewNames: [])
    }
}
