import AllocationCounter
import ArgumentParser
import BenchHarness
import Foundation
import LayoutFormat
import LayoutModel
import LayoutSolving

/// `layout-bench solve FILE [--solver cassowary] [--variant NAME | --all-variants] [--format text|json]`
struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Solve a .layout file and check its expect lines.",
        discussion: """
            Prints every view's frame per variant and checks the file's expect lines. \
            --solver names a built-in solver (cassowary, glpk), one registered in a \
            solvers.json (each --solvers-file, then ./solvers.json, then the tool's own \
            Corpus/solvers.json: the registry `run` and `fuzz` read), or NAME=COMMAND for an \
            external solver. Exits 0 when every expectation holds, 1 when one fails, 65 for an invalid \
            file, 66 for an unreadable one, 64 for an unknown variant or solver.
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @Argument(help: "The .layout file ('-' reads standard input).")
    var file: String

    @Option(help: "The solver: cassowary, glpk, a registered name, or NAME=COMMAND.")
    var solver = "cassowary"

    @Option(name: .customLong("solvers-file"), help: "A solvers.json registry to use (repeatable); besides ./solvers.json and the tool's Corpus/solvers.json.")
    var solversFiles: [String] = []

    @Option(help: "Seconds an external solver may take per call.")
    var timeout = 30.0

    @Option(help: "Solve this variant only (default: the container line).")
    var variant: String?

    @Flag(help: "Solve every variant (the default one first), switching incrementally.")
    var allVariants = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Flag(help: "Explain: the conflict of an unsatisfiable variant, and each free view's range (glpk).")
    var explain = false

    @Flag(help: "Print the time and memory of each stage (read, parse, validate, load (lowering included), solve, check, write) to standard error.")
    var profile = false

    func validate() throws {
        if variant != nil && allVariants { throw ValidationError("--variant and --all-variants exclude each other") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
    }

    /// The solver `--solver` names: NAME=COMMAND, or a name from the registry
    /// `run` and `fuzz` read (``SolverRegistry/discover(solversFiles:workingDirectory:tool:commandLine:)``:
    /// each `--solvers-file`, `./solvers.json`, the tool's own
    /// `Corpus/solvers.json`; the `.layout` file's directory is not searched).
    /// - Throws: exit 64 (as `run` and `fuzz`) for an unknown name or a malformed entry.
    func chosenSolver() throws -> SolverSpec {
        do throws(RegistryError) {
            var registry = SolverRegistry()
            // A built-in name or a command needs no registry file (a file
            // cannot redefine the built-in solvers), so these skip reading and
            // decoding solvers.json, a cost that shows on small solves
            // (evidence: docs/measurements.md#m-front-end-costs).
            if solver.contains("=") {
                let name = try registry.add(commandLine: solver)
                return try registry.solver(named: name)
            }
            if let builtIn = try? registry.solver(named: solver) { return builtIn }
            return try SolverRegistry.discover(solversFiles: solversFiles, tool: Inputs.toolRegistry(), commandLine: [])
                .solver(named: solver)
        } catch {
            throw ToolError(message: "\(error)", status: .usage)
        }
    }

    /// The file read, parsed and validated, its diagnostics printed.
    /// Why a function of its own: the file's bytes and the parse's syntax
    /// tree die with it, so they are not held through the solve (49 MB of
    /// text at 10^5 grid rows).
    /// - Throws: exit 66 for an unreadable file, 65 for one with errors.
    func readAndValidate(_ profile: inout StageProfile) throws -> ValidatedLayout {
        let read = profile.measure("read") { LayoutParser.readFile(atPath: file) }
        let bytes: [UInt8]
        switch read {
        case .success(let b):
            bytes = b
            profile.setBytes(b.count)
        case .failure(let error):
            printError(LayoutParser.unreadable(file, error).renderedDiagnostics())
            throw ExitStatus.noInput.exitCode
        }
        let syntax = profile.measure("parse", bytes: bytes.count) {
            LayoutParser.parseSyntax(bytes: bytes, fileName: file)
        }
        let result = profile.measure("validate") { syntax.validated() }
        let rendered = result.renderedDiagnostics()
        if !rendered.isEmpty { printError(rendered) }
        guard let validated = result.validated else { throw ExitStatus.dataError.exitCode }
        return validated
    }

    func run() throws {
        var profile = StageProfile(enabled: self.profile)
        defer { if self.profile { printError(profile.table()) } }
        let validated = try readAndValidate(&profile)
        let layout = validated.layout

        let names = try variantNames(of: layout)

        let spec = try chosenSolver()
        Inputs.prepare([spec])
        let engine = spec.make(timeout: timeout, ranges: explain)
        var outcomes: [(Solution, [ExpectationResult])] = []
        var observations: [String: [ExpectationResult]] = [:]
        var explanations: [String] = []
        do {
            for (i, name) in names.enumerated() {
                let solution: Solution
                if i == 0 {
                    // The engine lowers the validated layout itself: the native
                    // solver a row at a time, so that the whole lowered system
                    // never sits beside the solver's own copy (hence one stage).
                    try profile.measure("load") { () throws(SolverError) in
                        try engine.prepare(validated, variant: name)
                        // Why: a large layout is lowered on a thread of its
                        // own (LayoutModel's PipelinedLowering.swift), and the
                        // memory it freed stays in that thread's malloc arena,
                        // which the solve's allocations on this thread never
                        // reuse (peak at 10^5 grid rows 400.9 MB without,
                        // 397.0 MB with; docs/measurements.md#m-2026-11-27-pipelined-lowering).
                        if validated.layout.constraints.count >= Layout.pipelinedLoweringThreshold {
                            _ = lb_release_free_memory()
                        }
                    }
                    solution = try profile.measure("solve") { () throws(SolverError) in try engine.solve() }
                } else {
                    solution = try profile.measure("switch variant") { () throws(SolverError) in try engine.switchVariant(to: name) }
                }
                let checks = profile.measure("check") { solution.check(layout.expectations(for: name)) }
                outcomes.append((solution, checks))
                // Another engine's frames (`observed xcode`): reported apart, never a failure.
                let observed = layout.observations(for: name)
                if !observed.isEmpty { observations[solution.variant] = solution.check(observed) }
                if explain {
                    // Ranges only for an ambiguous answer: each is a pair of LPs.
                    let ranges = solution.ambiguous?.isEmpty == false ? engine.frameRanges() : nil
                    explanations.append(Self.explanation(solution, solver: engine.name, levels: engine.levelStatistics, ranges: ranges))
                }
            }
        } catch {
            throw ToolError(message: "\(error)", status: .failure)
        }

        profile.measure("write") {
            switch format {
            case .json:
                Self.writeJSON(file: file, solver: engine.name, outcomes) { FileHandle.standardOutput.write(Data($0)) }
            case .text:
                writeStandardOutput(Self.text(file: file, solver: engine.name, layout: layout, outcomes, observations: observations))
                for text in explanations where !text.isEmpty { writeStandardOutput(text) }
            }
        }
        // The process exits next: freeing the solver's and the layout's object
        // graphs would only cost time, O(objects) (evidence:
        // docs/measurements.md#m-front-end-costs), as compilers skip freeing
        // before exit.
        KeepUntilExit.keep(engine, layout, validated, outcomes)
        if outcomes.contains(where: { $0.1.contains { $0.verdict == .failed } }) { throw ExitStatus.failure.exitCode }
    }

    /// The variants to solve: every one (`--all-variants`), the one named, or the default.
    /// - Throws: exit 64 for a variant the file does not have.
    func variantNames(of layout: Layout) throws -> [String?] {
        if allVariants { return layout.allVariants.map(\.name) }
        if let variant, layout.variant(named: variant) == nil {
            throw ToolError(message: "unknown variant '\(variant)'; the file has: "
                       + layout.allVariants.map(\.name).joined(separator: ", "), status: .usage)
        }
        return [variant ?? Layout.defaultVariantName]
    }

    /// `{"file", "solver", "results": [each Solution.json]}` indented by 2,
    /// and a newline, streamed: the frames go straight into the output bytes.
    /// Why: the tree (five values per frame), its String and that String's
    /// Data were three copies of a 10^5-row answer (docs/measurements.md).
    /// The answers as JSON, handed to `sink` a megabyte at a time.
    static func writeJSON(file: String, solver: String, _ outcomes: [(Solution, [ExpectationResult])],
                          to sink: @escaping ([UInt8]) -> Void) {
        var writer = JSONStreamWriter(indent: 2, flushingEvery: 1 << 20, to: sink)
        writer.beginObject()
        writer.key("file")
        writer.value(.string(file))
        writer.key("solver")
        writer.value(.string(solver))
        writer.key("results")
        writer.beginArray()
        for (solution, checks) in outcomes {
            writer.element()
            solution.writeJSON(checks: checks, to: &writer)
        }
        writer.endArray()
        writer.endObject()
        writer.endLine()
        writer.finish()
    }

    /// `--explain`: the conflict, one constraint a line, and each free view's ranges.
    static func explanation(_ solution: Solution, solver: String, levels: [LevelStatistics], ranges: [FrameRange]?) -> String {
        var out = ""
        if solution.status == .unsatisfiable {
            out += "variant \(solution.variant) is unsatisfiable; these required constraints cannot all hold:\n"
            for member in solution.conflict { out += "  \(member.name): \(member.text)\n" }
        } else if let ambiguous = solution.ambiguous {
            if ambiguous.isEmpty {
                out += "variant \(solution.variant): every view's frame is determined\n"
            } else {
                out += "variant \(solution.variant): these views are not determined:\n"
                for view in ambiguous {
                    let parts = (ranges ?? []).filter { $0.view == view }.map {
                        "\($0.component) in [\(formatNumber($0.minimum, maxFractionDigits: 4)), \(formatNumber($0.maximum, maxFractionDigits: 4))]"
                    }
                    out += "  \(view): " + (parts.isEmpty ? "free" : parts.joined(separator: ", ")) + "\n"
                }
            }
        } else {
            out += "variant \(solution.variant): this solver cannot tell which views are ambiguous (use --solver glpk)\n"
        }
        if solution.status == .solved, !levels.isEmpty {
            out += "  levels (\(solver)): " + levels.map {
                "\($0.priority): optimum \(formatNumber($0.optimum, maxFractionDigits: 6)), \($0.iterations) iterations"
            }.joined(separator: "; ") + "\n"
        }
        return out
    }

    static func text(file: String, solver: String, layout: Layout, _ outcomes: [(Solution, [ExpectationResult])],
                     observations: [String: [ExpectationResult]] = [:]) -> String {
        var out = ""
        for (solution, checks) in outcomes {
            let size = layout.variant(named: solution.variant)?.size.description ?? ""
            out += "\(file): variant \(solution.variant) (\(size)), \(solver): \(solution.status.rawValue)\n"
            let width = solution.viewNames.map(\.count).max() ?? 0
            // An unsatisfiable variant's answer is its status and conflict:
            // its frames are a best effort with some conflicting row left out.
            if solution.status == .unsatisfiable {
                out += "  no frames: the required constraints cannot all hold; a minimal conflict:\n"
                for member in solution.conflict { out += "    \(member.description)\n" }
            }
            if solution.status == .solved {
                // Why bytes: four Strings and an array a view made the frame
                // table a tenth of a whole text `solve` of the grid.
                var lines: [UInt8] = []
                lines.reserveCapacity(solution.frames.count * (width + 44))
                var number: [UInt8] = []
                number.reserveCapacity(32)
                for (name, frame) in zip(solution.viewNames, solution.frames) {
                    lines.append(contentsOf: "  ".utf8)
                    lines.append(contentsOf: name.utf8)
                    lines.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - name.count))
                    for value in [frame.x, frame.y, frame.width, frame.height] {
                        number.removeAll(keepingCapacity: true)
                        appendNumber(value, maxFractionDigits: 4, to: &number)
                        // At least one space: numbers of ten characters and more
                        // (-593999999.9997) ran into their neighbours.
                        lines.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(1, 10 - number.count)))
                        lines.append(contentsOf: number)
                    }
                    lines.append(0x0A)
                }
                out += String(decoding: lines, as: UTF8.self)
            }
            if !solution.levels.isEmpty && solution.status == .solved {
                out += "  levels: " + solution.levels.map { "\($0.priority): \(formatNumber($0.error, maxFractionDigits: 6))" }
                    .joined(separator: ", ") + "\n"
            }
            if let ambiguous = solution.ambiguous, !ambiguous.isEmpty {
                out += "  ambiguous: " + ambiguous.joined(separator: " ") + "\n"
            }

            // Counted, not filtered: a filter of the passed checks copied them all.
            var passed = 0, unsupported = 0
            for check in checks {
                if check.verdict == .passed { passed += 1 } else if check.verdict == .unsupported { unsupported += 1 }
            }
            let failed = checks.filter { $0.verdict == .failed }
            out += "  expectations: \(passed) passed, \(failed.count) failed"
                + (unsupported > 0 ? ", \(unsupported) unsupported (ambiguity: this solver cannot tell)" : "") + "\n"
            for check in failed {
                let where_ = check.expectation.location.map { "\($0): " } ?? ""
                out += "    \(where_)FAILED \(LayoutPrinter.line(for: check.expectation)): \(check.reason ?? "")\n"
            }
            if let observed = observations[solution.variant] {
                let misses = observed.filter { $0.verdict != .passed }
                let sources = Set(observed.compactMap(\.expectation.observedBy)).sorted().joined(separator: ", ")
                out += "  observed by \(sources): \(observed.count - misses.count) of \(observed.count) views match"
                    + " (reported, not checked)\n"
                for check in misses.prefix(10) {
                    out += "    differs: \(check.reason ?? LayoutPrinter.line(for: check.expectation))\n"
                }
                if misses.count > 10 { out += "    ... \(misses.count - 10) more\n" }
            }
        }
        let solved = Set(outcomes.map(\.0.variant))
        let others = ([Layout.defaultVariantName] + layout.variants.map(\.name)).filter { !solved.contains($0) }
        let unchecked = others.map { layout.expectations(for: $0).count }.reduce(0, +)
        if unchecked > 0 {
            out += "(\(unchecked) expectation(s) of other variants (\(others.joined(separator: ", "))) not checked: --all-variants checks every variant)\n"
        }
        return out
    }
}
