// `layout-bench fuzz`: random layouts through several solvers, each judged
// against the first with the run's cross-check rules, disagreements
// explained by an exact arbiter when one is given.

import Foundation
import LayoutGenerators
import LayoutModel

/// A fuzzing campaign: seeds `seed`, `seed + 1`, ... until `seconds` pass or
/// `count` layouts are done.
public struct FuzzCampaign {
    /// The solvers; the first is the reference (at least two).
    public var solvers: [SolverSpec]
    /// An exact solver that explains each disagreement.
    public var arbiter: SolverSpec?
    public var seed: UInt64 = 1
    public var views = 6
    /// Only hostile layouts (the whole accepted numeric range) instead of the seed's kind.
    public var hostile = false
    public var seconds = 60.0
    public var count: Int?

    public init(solvers: [SolverSpec]) { self.solvers = solvers }

    /// What a campaign found so far.
    public struct Tally: Sendable {
        /// Layouts per kind.
        public var tried: [RandomLayoutGenerator.Kind: Int] = [:]
        /// Layouts with at least one disagreement.
        public var disagreements = 0
        public var illConditioned = 0
        /// Ill-conditioned comparisons whose ambiguity lists differ.
        public var illAmbiguity = 0
        /// Solver × variant comparisons made.
        public var comparisons = 0
        /// Layouts that validation refuses (not solved): counted so that "solved" is honest.
        public var refused = 0
        /// Disagreements the arbiter blamed on a solver, on both, or could not decide.
        public var unexplained = 0
        /// The arbiter's explanations and their counts.
        public var explanations: [String: Int] = [:]
        /// The slowest layout (every solver, every variant), so that a campaign
        /// shows it had no hang, not only that it ended.
        public var slowest: (seconds: Double, seed: UInt64)
        /// The next seed (one past the last layout tried).
        public var next: UInt64
        /// Layouts tried.
        public var layouts: UInt64
    }

    /// A disagreement: its seed and a `.layout` text that reproduces it.
    public struct Disagreement: Sendable {
        public var seed: UInt64
        public var reproduction: String
    }

    /// Runs the campaign.
    /// - Parameters:
    ///   - heartbeat: called about every 10 s with the tally so far.
    ///   - disagreement: called with each disagreement (to save it); an error it throws ends the campaign.
    /// - Throws: what `disagreement` throws.
    /// - Complexity: one `Agreement.check` (every solver, every variant) per layout.
    public func run(heartbeat: (Tally) -> Void = { _ in }, disagreement: (Disagreement) throws -> Void) rethrows -> Tally {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var tally = Tally(slowest: (0, seed), next: seed, layouts: 0)
        let pool = SolverPool()
        var lastBeat = Date()
        while Date() < deadline && count.map({ tally.next - seed < UInt64($0) }) ?? true {
            if Date().timeIntervalSince(lastBeat) >= 10 {
                lastBeat = Date()
                heartbeat(tally)
            }
            let current = tally.next
            let kind: RandomLayoutGenerator.Kind = hostile ? .hostile : RandomLayoutGenerator.kind(forSeed: current)
            let layout = RandomLayoutGenerator.layout(seed: current, views: views, kind: kind)
            tally.tried[kind, default: 0] += 1
            if layout.validate().containsErrors { tally.refused += 1 }
            let layoutStart = Date()
            let findings = Agreement.check(layout, solvers: solvers, pool: pool)
            let took = Date().timeIntervalSince(layoutStart)
            if took > tally.slowest.seconds { tally.slowest = (took, current) }
            tally.comparisons += findings.count
            let ill = findings.filter { $0.outcome == .illConditioned }
            tally.illConditioned += ill.count
            tally.illAmbiguity += ill.filter { $0.reasons.contains { $0.hasPrefix("ambiguous views differ") } }.count
            if findings.contains(where: { $0.outcome == .disagree }) {
                tally.disagreements += 1
                let explained = explain(layout, findings, pool: pool, into: &tally)
                try disagreement(Disagreement(seed: current, reproduction: Agreement.reproduction(
                    layout, seed: current, kind: kind, findings: findings, explanations: explained)))
            }
            tally.next += 1
            tally.layouts += 1
        }
        return tally
    }

    /// The arbiter's explanation of each disagreement of a layout, counted in `tally`.
    func explain(_ layout: Layout, _ findings: [Agreement.Finding], pool: SolverPool, into tally: inout Tally) -> [Agreement.Explained] {
        guard let arbiter else { return [] }
        let explained = Agreement.explain(layout, findings: findings, solvers: solvers, arbiter: arbiter, pool: pool)
        for e in explained {
            tally.explanations[e.explanation.label + (e.precise ? " [precise range]" : " [imprecise numbers]"), default: 0] += 1
            switch e.explanation {
            case .exactBeyondRange, .feasibleWithinTolerance, .bothWithinTolerance, .referenceWrong, .referenceDeclined: break
            case .solverWrong, .bothDiffer, .unarbitrated: tally.unexplained += 1
            }
        }
        return explained
    }
}
