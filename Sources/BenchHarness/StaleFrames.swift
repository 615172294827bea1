import LayoutModel

/// Whether observed frames (Xcode's, stored in an Interface Builder file)
/// can be an oracle at all: frames that break a required constraint of the
/// file itself were stored before that constraint changed (whether or not
/// Interface Builder flagged the views `misplaced`), or Xcode broke the
/// constraint to resolve a conflict. Either way a solver that keeps it
/// cannot match them. One case is an import rule after all: a standard
/// spacing stored without its number (`symbolic`) is imported as 8 or 20,
/// and a stored gap of another size then reads as a broken constraint.
///
/// Why only the file's own constraints: the importer generates others (stack
/// views, autoresizing, guides, content sizes) from rules read off the
/// sample, and a frame that breaks one of those says the rule is wrong, not
/// the frame. The file's constraints keep their Interface Builder ids as
/// identifiers (`xxx-xx-xxx`), which is how they are told apart. Margin and
/// baseline attributes are left out for the same reason: their values come
/// from imported margins and measured fonts.
public enum StaleFrames {
    /// A broken constraint: its identifier and by how many points.
    public struct Evidence: Equatable, Sendable, CustomStringConvertible {
        public var identifier: String
        public var violation: Double

        public var description: String {
            "the stored frames break constraint \(identifier) by \(formatNumber(violation, maxFractionDigits: 2)) pt"
        }
    }

    /// More than two half-point roundings (one per frame): not rounding.
    public static let threshold = 1.0

    /// The first of the layout's own required constraints (default variant)
    /// that the observed frames break by more than ``threshold``, with both
    /// ends observed (or the container); nil when there is none.
    /// - Complexity: O(constraints + observations).
    public static func evidence(_ layout: Layout, _ observations: [Expectation]) -> Evidence? {
        var frames: [String: Frame] = [:]
        for e in observations {
            if case .frame(let view, let frame) = e.kind { frames[view] = frame }
        }
        guard !frames.isEmpty, let variant = layout.variant(named: nil), !Layout.isRightToLeft(variant) else { return nil }
        if let height = variant.size.height {
            frames[Layout.containerName] = Frame(x: 0, y: 0, width: variant.size.width, height: height)
        }
        func plain(_ a: Attribute) -> Bool {
            switch a {
            case .left, .right, .top, .bottom, .leading, .trailing, .width, .height, .centerX, .centerY: return true
            default: return false
            }
        }
        for c in layout.activeConstraints(in: variant) where c.priority.isRequired {
            guard let id = c.identifier, isInterfaceBuilderID(id), plain(c.first.attribute),
                  let a = frames[c.first.item] else { continue }
            var rhs = c.constant
            if let second = c.second {
                guard plain(second.attribute), let b = frames[second.item] else { continue }
                rhs += b.value(of: second.attribute) * c.multiplier
            }
            let violation = c.relation.violation(a.value(of: c.first.attribute) - rhs)
            if violation > threshold { return Evidence(identifier: id, violation: violation) }
        }
        return nil
    }

    /// Interface Builder's object ids: three, two and three letters or digits joined by hyphens.
    static func isInterfaceBuilderID(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [3, 2, 3] else { return false }
        return parts.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
