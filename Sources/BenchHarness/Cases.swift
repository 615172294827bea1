import Foundation
import LayoutFormat
import LayoutGenerators
import LayoutModel

/// How large the generated families are.
public enum Scale: String, CaseIterable, Sendable {
    case small, medium, large

    /// Sizes per family: alternating grid rows, equal-row views, random views.
    var sizes: [Int] {
        switch self {
        case .small: return [10, 100]
        case .medium: return [10, 100, 1000]
        case .large: return [10, 100, 1000, 10000]
        }
    }
}

/// One layout of a run.
public struct BenchCase: Sendable {
    /// `seed/alternating-grid` (a file under Corpus/), `family/alternating-grid-r100` (generated in memory), ...
    public var name: String
    /// The file, or the generator call.
    public var source: String
    public var layout: Layout
    /// The `.layout` text (files as read, generated cases as printed), for timing the parser.
    public var text: [UInt8]
    /// Per solver, the largest number of constraints it is run on (nil: no limit).
    public var limits: [String: Int] = [:]
    /// Per reference solver, the largest number of constraints it judges the
    /// other solvers on, when that is beyond its own limit in ``limits``
    /// (none: its limit). Why apart: the reference is timed and checked
    /// incrementally (a dozen solves and more per case) only up to its limit,
    /// but one solve per variant is enough to judge every other solver at
    /// sizes where timing it would take minutes.
    public var referenceJudgeLimits: [String: Int] = [:]

    public init(name: String, source: String, layout: Layout, text: [UInt8], limits: [String: Int] = [:]) {
        self.name = name
        self.source = source
        self.layout = layout
        self.text = text
        self.limits = limits
    }

    public var constraintCount: Int { layout.constraints.count }
}

/// A case that could not be read or parsed: reported, not fatal.
public struct CaseProblem: Sendable {
    public var name: String
    public var message: String
}

/// Finding the cases of a run.
public enum CaseCollector {
    /// A fingerprint of a case list: FNV-1a (64 bits) over every name and
    /// text in order, so shards of one run can be told from shards of runs
    /// over different corpora (`merge`). Not cryptographic: it guards
    /// against mistakes, not forgery.
    /// - Complexity: O(total text size).
    public static func digest(_ cases: [BenchCase]) -> String {
        var hash = FNV1a.seed
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            hash = FNV1a.step(FNV1a.hash(bytes, from: hash), 0xFF)  // 0xFF: a separator no UTF-8 text contains
        }
        for c in cases {
            mix(c.name.utf8)
            mix(c.text)
        }
        return "fnv1a64:" + String(hash, radix: 16)
    }

    /// Which solvers run generated cases up to which size, and why: kiwi's
    /// tableau grows quadratically on chains, O(n²) for n constraints
    /// (evidence: docs/measurements.md#m-cassowary-vs-kiwi). GLPK's limit
    /// dates from when its first simplex was quadratic too (about one O(rows)
    /// pivot per frame variable); the crash plan (LexicographicLP.makeCrashPlan)
    /// has since made that solve linear, and the limit is unchanged (evidence:
    /// docs/measurements.md#m-glpk-scaling, #m-2026-11-23-glpk-crash-scale).
    /// HiGHS (an external LP reference, `run --reference highs`) is timed up
    /// to the same size as GLPK: every operation of an external rebuilding
    /// adapter is a whole solve, and the harness makes dozens per case.
    public static let generatedLimits: [String: Int] = ["kiwi": 1_000, "glpk": 10_000, "highs": 10_000]

    /// Up to which size the references judge the generated families, solved
    /// once per variant (``BenchCase/referenceJudgeLimits``): every family at
    /// `--scale large`. Why every size: GLPK's first solve starts from the
    /// crash's lifted bases (LexicographicLP.makeCrashPlan), one
    /// factorisation per level instead of a quadratic simplex, so judging
    /// grows linearly with the family (evidence:
    /// docs/measurements.md#m-2026-11-23-scale-large, #m-2026-11-23-glpk-crash-scale).
    public static let generatedJudgeLimit = 100_000

    /// Which solvers do not run the real screens (`real/`), and why: Z3's
    /// optimizer solves one priority level at a time, and a real screen has
    /// many (250, 251, 750, 999, UIStackView's 25 and 49, ...): one solve per
    /// level, times the timing repetitions, times 218 screens (evidence:
    /// docs/measurements.md#m-real-screens). It stays the arbiter of `fuzz` and of the
    /// hand-written corpus.
    public static let realLimits: [String: Int] = ["z3": 0]

    /// Files under `paths` (directories searched for `*.layout`), named
    /// relative to the `Corpus/` directory they are in.
    public static func files(_ paths: [String]) -> (cases: [BenchCase], problems: [CaseProblem]) {
        var cases: [BenchCase] = []
        var problems: [CaseProblem] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(CaseProblem(name: path, message: "no such file or directory"))
                continue
            }
            let files: [String]
            if isDirectory.boolValue {
                files = (fm.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".layout") }.sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                files = [path]
            }
            for file in files {
                let (result, _) = LayoutParser.parseFile(atPath: file)
                let name = caseName(file)
                guard let layout = result.layout else {
                    let first = result.diagnostics.first { $0.severity == .error }
                    problems.append(CaseProblem(name: name, message: first?.description ?? "invalid"))
                    continue
                }
                cases.append(BenchCase(name: name, source: file, layout: layout, text: result.sourceBytes,
                                       limits: name.hasPrefix("real/") ? realLimits : [:]))
            }
        }
        return (cases, problems)
    }

    /// `.../Corpus/seed/x.layout` -> `seed/x`; otherwise the path without `.layout`.
    static func caseName(_ file: String) -> String {
        var name = file
        if let range = name.range(of: "Corpus/", options: .backwards) { name = String(name[range.upperBound...]) }
        if name.hasSuffix(".layout") { name.removeLast(7) }
        return name
    }

    /// The generated families at a scale.
    public static func generated(_ scale: Scale) -> [BenchCase] {
        var cases: [BenchCase] = []
        func add(_ name: String, _ source: String, _ layout: Layout?, limits: [String: Int] = generatedLimits) {
            guard let layout else { return }
            let text = Array(LayoutPrinter.print(layout).utf8)
            var benchCase = BenchCase(name: name, source: source, layout: layout, text: text, limits: limits)
            benchCase.referenceJudgeLimits = ["glpk": generatedJudgeLimit, "highs": generatedJudgeLimit]
            cases.append(benchCase)
        }
        for n in scale.sizes {
            add("family/alternating-grid-r\(n)", "layout-bench generate alternating-grid --rows \(n)",
                try? AlternatingGrid.layout(rows: n))
        }
        for n in scale.sizes {
            add("family/equal-row-n\(n)", "EqualRow.layout(count: \(n))", try? EqualRow.layout(count: n))
        }
        for n in scale.sizes {
            add("family/self-sizing-rows-r\(n)", "layout-bench generate self-sizing-rows --rows \(n)",
                try? SelfSizingRows.layout(rows: n))
        }
        for n in scale.sizes {
            add("family/random-feasible-n\(n)", "RandomFeasible.layout(views: \(n), seed: \(n))",
                try? RandomFeasible.layout(views: n, seed: UInt64(n)))
        }
        return cases
    }
}
