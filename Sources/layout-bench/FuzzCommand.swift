import ArgumentParser
import BenchHarness
import Foundation
import LayoutGenerators
import LayoutModel

/// `layout-bench fuzz`: random layouts through several solvers until time runs out.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Cross-check solvers on random layouts (feasible, infeasible, ambiguous, numeric).",
        discussion: """
            Seeds --seed, --seed + 1, ... give the layouts (RandomLayoutGenerator). The first solver is the \
            reference; the others are judged with the run's cross-check rules in every variant. Each \
            disagreement is saved as a .layout file that reproduces it (seed and reasons in comments). \
            Exits 1 when any solver disagrees. With --arbiter (an exact solver, e.g. z3), each \
            disagreement is solved exactly and explained: the exact optimum lies beyond the accepted \
            numeric range, or the reference is wrong, or the solver is wrong, or both; then only the last \
            two (and a disagreement the arbiter could not decide) make the exit status 1.
            """
    )

    @Option(help: "Comma-separated solvers; the first is the reference.")
    var solvers = SolverNames(["glpk", "cassowary"])

    @Option(name: .customLong("solvers-file"), help: "A solvers.json registry to use (repeatable); besides ./solvers.json and the tool's Corpus/solvers.json.")
    var solversFiles: [String] = []

    @Option(name: .customLong("solver"), help: "An external solver NAME=COMMAND (repeatable).")
    var externalSolvers: [String] = []

    @Option(help: "Seconds to run.")
    var seconds = 60.0

    @Option(help: "Stop after this many layouts (before --seconds if it comes first).")
    var count: Int?

    @Option(help: "An exact solver that explains each disagreement (a registered name, e.g. z3).")
    var arbiter: String?

    @Flag(help: "Print no line per disagreement (the files are still saved); progress every 10 s.")
    var quiet = false

    @Option(help: "The first seed.")
    var seed: UInt64 = 1

    @Option(help: "Views per layout.")
    var views = 6

    @Option(help: "Layout kind: cycle (feasible, infeasible, ambiguous, numeric by seed) or hostile (the whole accepted numeric range, for crash hunting).")
    var kind: LayoutKindOption = .cycle

    @Option(help: "Where to save the layouts that reproduce disagreements.")
    var output = "Reports/fuzz"

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be positive") }
        guard (1...500).contains(views) else { throw ValidationError("--views must be in 1...500") }
        if let count { guard count > 0 else { throw ValidationError("--count must be positive") } }
    }

    func run() throws {
        let chosen: [SolverSpec]
        var arbiterSpec: SolverSpec?
        do {
            // The same registry as `run` reads (one discovery rule).
            let registry = try Inputs.registry(solversFiles: solversFiles, commandLine: externalSolvers)
            chosen = try registry.select(solvers.names)
            if let arbiter { arbiterSpec = try registry.select([arbiter]).first }
        } catch {
            throw ToolError(message: "\(error)", status: .usage)
        }
        guard chosen.count >= 2 else { throw ValidationError("name a reference and at least one other solver") }

        let deadline = Date(timeIntervalSinceNow: seconds)
        var tried: [RandomLayoutGenerator.Kind: Int] = [:]
        var disagreements = 0, illConditioned = 0, illAmbiguity = 0, comparisons = 0
        var current = seed
        let pool = SolverPool()
        var explanations: [String: Int] = [:]
        var slowest: (seconds: Double, seed: UInt64) = (0, seed)
        // Layouts that validation refuses are not solved (hostile ones reach
        // past the accepted range); counted so that "solved" is honest.
        var refused = 0
        var unexplained = 0
        let started = Date()
        var lastProgress = started
        while Date() < deadline && count.map({ current - seed < UInt64($0) }) ?? true {
            if quiet && Date().timeIntervalSince(lastProgress) >= 10 {
                lastProgress = Date()
                printError("fuzz: \(current - seed) layouts in \(Int(lastProgress.timeIntervalSince(started))) s, "
                           + "\(disagreements) with a disagreement")
            }
            let chosenKind: RandomLayoutGenerator.Kind = kind == .hostile ? .hostile : RandomLayoutGenerator.kind(forSeed: current)
            let layout = RandomLayoutGenerator.layout(seed: current, views: views, kind: chosenKind)
            tried[chosenKind, default: 0] += 1
            if layout.validate().containsErrors { refused += 1 }
            // The slowest layout (every solver, every variant), so that a
            // campaign shows it had no hang, not only that it ended.
            let layoutStart = Date()
            let findings = Agreement.check(layout, solvers: chosen, pool: pool)
            let took = Date().timeIntervalSince(layoutStart)
            if took > slowest.seconds { slowest = (took, current) }
            comparisons += findings.count
            let ill = findings.filter { $0.outcome == .illConditioned }
            illConditioned += ill.count
            illAmbiguity += ill.filter { $0.reasons.contains { $0.hasPrefix("ambiguous views differ") } }.count
            if findings.contains(where: { $0.outcome == .disagree }) {
                disagreements += 1
                let path = (output as NSString).appendingPathComponent("disagreement-seed\(current).layout")
                var explained: [Agreement.Explained] = []
                if let arbiterSpec {
                    explained = Agreement.explain(layout, findings: findings, solvers: chosen, arbiter: arbiterSpec, pool: pool)
                    for e in explained {
                        explanations[e.explanation.label + (e.precise ? " [precise range]" : " [imprecise numbers]"), default: 0] += 1
                        switch e.explanation {
                        case .exactBeyondRange, .feasibleWithinTolerance, .bothWithinTolerance, .referenceWrong, .referenceDeclined: break
                        case .solverWrong, .bothDiffer, .unarbitrated: unexplained += 1
                        }
                    }
                }
                try Inputs.write(Agreement.reproduction(layout, seed: current, kind: chosenKind, findings: findings,
                                                        explanations: explained), to: path)
                if !quiet { printError("seed \(current): disagreement, saved \(path)") }
            }
            current += 1
        }
        let kinds = RandomLayoutGenerator.Kind.allCases.filter { tried[$0] != nil }.map { "\($0.rawValue) \(tried[$0] ?? 0)" }
            .joined(separator: ", ")
        print("fuzz: \(current - seed) layouts (\(kinds)), seeds \(seed)...\(current - 1), \(views) views each, "
              + "\(comparisons) solver x variant comparisons against \(chosen[0].name): "
              + "\(disagreements) disagreement(s), \(illConditioned) ill-conditioned"
              + (illAmbiguity > 0 ? " (\(illAmbiguity) with different ambiguity lists)" : ""))
        print("solved: \(current - seed - UInt64(refused)) layouts; \(refused) refused by validation (numbers beyond the accepted range), not solved")
        print("slowest layout: seed \(slowest.seed), \(String(format: "%.3f", slowest.seconds)) s (all solvers, every variant)")
        if let arbiterSpec {
            print("explained by \(arbiterSpec.name) (exact), per solver x variant disagreement:")
            for (label, n) in explanations.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                print("  \(n)  \(label)")
            }
            if unexplained > 0 { throw ExitStatus.failure.exitCode }
            return
        }
        if disagreements > 0 { throw ExitStatus.failure.exitCode }
    }
}
