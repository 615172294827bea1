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
        Inputs.prepare(chosen + (arbiterSpec.map { [$0] } ?? []))

        var campaign = FuzzCampaign(solvers: chosen)
        campaign.arbiter = arbiterSpec
        campaign.seed = seed
        campaign.views = views
        campaign.hostile = kind == .hostile
        campaign.seconds = seconds
        campaign.count = count
        let started = Date()
        let tally = try campaign.run(heartbeat: { tally in
            guard quiet else { return }
            printError("fuzz: \(tally.layouts) layouts in \(Int(Date().timeIntervalSince(started))) s, "
                       + "\(tally.disagreements) with a disagreement")
        }, disagreement: { found in
            let path = (output as NSString).appendingPathComponent("disagreement-seed\(found.seed).layout")
            try Inputs.write(found.reproduction, to: path)
            if !quiet { printError("seed \(found.seed): disagreement, saved \(path)") }
        })
        let kinds = RandomLayoutGenerator.Kind.allCases.filter { tally.tried[$0] != nil }.map { "\($0.rawValue) \(tally.tried[$0] ?? 0)" }
            .joined(separator: ", ")
        print("fuzz: \(tally.layouts) layouts (\(kinds)), seeds \(tally.layouts > 0 ? "\(seed)...\(tally.next - 1)" : "none"), \(views) views each, "
              + "\(tally.comparisons) solver x variant comparisons against \(chosen[0].name): "
              + "\(tally.disagreements) disagreement(s), \(tally.illConditioned) ill-conditioned"
              + (tally.illAmbiguity > 0 ? " (\(tally.illAmbiguity) with different ambiguity lists)" : ""))
        print("solved: \(tally.layouts - UInt64(tally.refused)) layouts; \(tally.refused) refused by validation (numbers beyond the accepted range), not solved")
        print("slowest layout: seed \(tally.slowest.seed), \(String(format: "%.3f", tally.slowest.seconds)) s (all solvers, every variant)")
        if let arbiterSpec {
            print("explained by \(arbiterSpec.name) (exact), per solver x variant disagreement:")
            for (label, n) in tally.explanations.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                print("  \(n)  \(label)")
            }
            if tally.unexplained > 0 { throw ExitStatus.failure.exitCode }
            return
        }
        if tally.disagreements > 0 { throw ExitStatus.failure.exitCode }
    }
}
