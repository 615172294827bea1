import Foundation
import XCTest

/// End-to-end tests of the built `layout-bench` binary: exit codes and output.
final class CLITests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The debug binary next to the test bundle.
    static var binary: URL {
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("layout-bench")
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, in directory: URL = CLITests.repository,
             environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read before waiting so a full pipe cannot deadlock the child.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    func temporaryFile(_ contents: String, name: String = "case.layout") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url
    }

    /// Issue 13's inputs and every later hostile finding (the fixtures the
    /// Hardening suite replays): `solve` with each built-in solver and `run`
    /// end with 0, 1 or 65, never a signal (`Process` reports a signal as
    /// an uncaught-signal termination).
    func testHostileFixturesNeverKillTheProcess() throws {
        let directory = Self.repository.appendingPathComponent("Tests/BenchHarnessTests/Fixtures/hostile")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".layout") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-hostile-\(UUID().uuidString)")
        for file in files {
            let path = directory.appendingPathComponent(file).path
            for arguments in [["solve", path, "--solver", "cassowary", "--all-variants"],
                              ["solve", path, "--solver", "glpk", "--all-variants", "--explain"],
                              ["run", path, "--solvers", "cassowary,glpk", "--scale", "none", "--repetitions", "1",
                               "--no-progress", "--quiet", "--output", output.path]] {
                let result = try run(arguments)
                XCTAssertTrue([0, 1, 65].contains(result.status), "\(arguments.joined(separator: " ")): status \(result.status)\n\(result.stderr)")
            }
        }
    }

    /// `solve --profile`: every stage timed once, to standard error; standard
    /// output is the same as without the flag; the expectation verdicts too.
    func testSolveProfilePrintsEveryStage() throws {
        let file = "Corpus/seed/alternating-grid.layout"
        let plain = try run(["solve", file, "--format", "json"])
        let profiled = try run(["solve", file, "--format", "json", "--profile"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(profiled.status, 0, profiled.stderr)
        XCTAssertEqual(plain.stdout, profiled.stdout)
        let lines = profiled.stderr.split(separator: "\n").map(String.init)
        // Lowering is part of the load: the native solver lowers a row at a time.
        for stage in ["read", "parse", "validate", "load", "solve", "check", "write", "total"] {
            XCTAssertEqual(lines.filter { $0.hasPrefix(stage + " ") }.count, 1, "stage \(stage) in:\n\(profiled.stderr)")
        }
        XCTAssertTrue(profiled.stderr.contains("MB/s"), profiled.stderr)
        XCTAssertTrue(profiled.stderr.contains("peak"), profiled.stderr)
        // Processor time beside wall time (a parse on several threads uses more).
        let header = lines.first { $0.hasPrefix("stage ") } ?? ""
        XCTAssertEqual(header.split(separator: " ", omittingEmptySubsequences: true).prefix(3), ["stage", "seconds", "CPU"], profiled.stderr)
        // --all-variants: the later variants are switches, each timed.
        let all = try run(["solve", file, "--all-variants", "--profile"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.stderr.split(separator: "\n").filter { $0.hasPrefix("switch variant ") }.count, 2, all.stderr)
        // A missing file: the located error, exit 66, and still the profile of what ran.
        let missing = try run(["solve", "no/such.layout", "--profile"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("no/such.layout:1:1: error: cannot read file: no such file"), missing.stderr)
    }

    func testCheckCorpusSucceeds() throws {
        let output = try run(["check", "Corpus"])
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        XCTAssertTrue(output.stdout.contains("Corpus/seed/alternating-grid.layout: ok: 7 views, 28 constraints, 2 variants, 24 expectations"),
                      output.stdout)
        XCTAssertTrue(output.stdout.contains("0 invalid"), output.stdout)
    }

    func testCheckInvalidFileExits65WithLocatedDiagnostics() throws {
        let file = try temporaryFile("container 10 x 10\nviews a\na.left = a.top\na.wdth = 3\n")
        let output = try run(["check", file.path])
        XCTAssertEqual(output.status, 65)
        XCTAssertTrue(output.stdout.contains("\(file.path):3:10: error: cannot relate horizontal 'left' to vertical 'top'"),
                      output.stdout)
        XCTAssertTrue(output.stdout.contains("\(file.path):4:3: error: unknown attribute 'wdth'; did you mean 'width'?"),
                      output.stdout)
        XCTAssertTrue(output.stdout.contains("    a.wdth = 3\n      ^"), output.stdout)
    }

    func testCheckMissingFileExits66() throws {
        let output = try run(["check", "/nonexistent/file.layout"])
        XCTAssertEqual(output.status, 66)
        XCTAssertTrue(output.stdout.contains("/nonexistent/file.layout: error: no such file"), output.stdout)
    }

    func testCheckNonUTF8AndBinaryInputs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lb-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data([0x63, 0xFF, 0x00, 0x01]).write(to: directory.appendingPathComponent("binary.layout"))
        try Data(repeating: 0, count: 100_000).write(to: directory.appendingPathComponent("zeros.layout"))
        let output = try run(["check", directory.path])
        XCTAssertEqual(output.status, 65)
        XCTAssertTrue(output.stdout.contains("binary.layout:1:2: error: file is not valid UTF-8"), output.stdout)
        XCTAssertTrue(output.stdout.contains("zeros.layout:1:1: error: unexpected character U+0000"), output.stdout)
        XCTAssertTrue(output.stdout.contains("checked 2 files: 0 valid, 2 invalid"), output.stdout)
    }

    func testCheckReadsStandardInput() throws {
        let output = try run(["check", "-"], stdin: "container 1 x 1\nviews a\na.width = 1\n")
        XCTAssertEqual(output.status, 0, output.stdout)
        XCTAssertEqual(output.stdout, "-: ok: 1 view, 1 constraint, 0 variants, 0 expectations\n")
    }

    func testPrintNormalises() throws {
        let file = try temporaryFile("metric m = 8\ncontainer 375x812\nviews a b\na.left == b.right / 2 + m @ high\n")
        let output = try run(["print", file.path])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout, "container 375 x 812\nmetric m = 8\nviews a b\n\na.left = b.right * 0.5 + 8 @ 750\n")
    }

    func testPrintLowered() throws {
        let file = try temporaryFile("container 100 x auto\nviews a\na.width = a.height * 2 @ 500\n")
        let output = try run(["print", "--lowered", file.path])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout, """
            # variant default: container 100 x auto, 8 variables, 4 rows
            super.x = 0 @ 1000   # container x
            super.y = 0 @ 1000   # container y
            super.width - 100 = 0 @ 1000   # container width
            a.width - 2 * a.height = 0 @ 500   # \(file.path):3

            """)
        let unknown = try run(["print", "--lowered", "--variant", "nope", file.path])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown variant 'nope'"), unknown.stderr)
    }

    func testPrintInvalidFileExits65OnStderr() throws {
        let file = try temporaryFile("container 1 x 1\nviews a\na.left = 5\n")
        let output = try run(["print", file.path])
        XCTAssertEqual(output.status, 65)
        XCTAssertEqual(output.stdout, "")
        XCTAssertTrue(output.stderr.contains(":3:10: error: location 'left' cannot equal a constant"), output.stderr)
    }

    func testGenerateMatchesCommittedCorpus() throws {
        let output = try run(["generate", "alternating-grid", "--rows", "3"])
        XCTAssertEqual(output.status, 0, output.stderr)
        let committed = try String(contentsOf: Self.repository.appendingPathComponent("Corpus/generated/alternating-grid-r3.layout"),
                                   encoding: .utf8)
        XCTAssertEqual(output.stdout, committed, "Corpus/generated is stale: run scripts/generate-corpus")
    }

    /// `--order` permutes the constraint lines alone, and the layout it
    /// writes has the same answer (issue 41 measures growth in any order).
    func testGenerateInAnotherOrderHasTheSameAnswer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lb-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines: [String: [String]] = [:]
        var frames: [String: [String: [Double]]] = [:]
        for order in ["file", "reversed", "shuffled"] {
            let path = directory.appendingPathComponent("\(order).layout").path
            let generated = try run(["generate", "self-sizing-rows", "--rows", "4", "--order", order, "--output", path])
            XCTAssertEqual(generated.status, 0, generated.stderr)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            lines[order] = text.split(separator: "\n").map(String.init).filter { line in
                !line.hasPrefix("expect") && [" = ", " >= ", " <= "].contains { line.contains($0) }
            }
            let solved = try run(["solve", path, "--solver", "cassowary", "--format", "json"])
            XCTAssertEqual(solved.status, 0, solved.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(solved.stdout.utf8)) as? [String: Any]
            let result = (json?["results"] as? [[String: Any]])?.first
            frames[order] = (result?["frames"] as? [String: [Double]]) ?? [:]
        }
        let file = try XCTUnwrap(lines["file"])
        XCTAssertGreaterThan(file.count, 10)
        XCTAssertEqual(lines["reversed"], file.reversed())
        XCTAssertNotEqual(lines["shuffled"], file)
        XCTAssertEqual(lines["shuffled"]?.sorted(), file.sorted())
        let reference = try XCTUnwrap(frames["file"])
        XCTAssertEqual(reference.count, 9)  // super and two views a row
        for order in ["reversed", "shuffled"] {
            XCTAssertEqual(frames[order]?.keys.sorted(), reference.keys.sorted(), order)
            for (view, frame) in reference {
                let other = frames[order]?[view] ?? []
                XCTAssertEqual(other.count, 4, "\(order) \(view)")
                for (a, b) in zip(frame, other) { XCTAssertEqual(a, b, accuracy: 1e-9, "\(order) \(view)") }
            }
        }
        let refused = try run(["generate", "alternating-grid", "--rows", "2", "--order", "sideways"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        // The grid's depth mode has its own orders: an --order there is refused, not ignored.
        let ignored = try run(["scaling", "--rows", "10", "--order", "shuffled"])
        XCTAssertEqual(ignored.status, 64, ignored.stderr)
        XCTAssertTrue(ignored.stderr.contains("--order applies to --family"), ignored.stderr)
    }

    func testGenerateRejectsBadArgumentsWithUsageExit() throws {
        for arguments in [["generate", "alternating-grid", "--rows", "0"],
                          ["generate", "alternating-grid", "--rows", "2", "--width", "nan"],
                          ["generate", "no-such-family", "--rows", "2"]] {
            let output = try run(arguments)
            XCTAssertEqual(output.status, 64, "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("Error:"), output.stderr)
        }
    }

    /// A width the generator once accepted gave a file that `check` and
    /// `solve` refuse (exit 65): a generated family is now always valid.
    func testGenerateRefusesSizesWhoseLayoutIsOutOfRange() throws {
        for family in ["alternating-grid", "decorated-grid"] {
            let output = try run(["generate", family, "--rows", "1000", "--width", "1e9"])
            XCTAssertEqual(output.status, 64, "\(family): \(output.stderr)")
            XCTAssertTrue(output.stdout.isEmpty, "no layout written")
            XCTAssertTrue(output.stderr.contains("outside the range the solvers accept"), output.stderr)
        }
        // The largest width in range still generates, and the file checks.
        let accepted = try run(["generate", "decorated-grid", "--rows", "100", "--width", "1e6"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
    }

    /// Every family `scaling --family` measures can be generated, and the
    /// equal row's frames are the closed form it states.
    func testGenerateEqualRowAndRandomFeasible() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lb-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (family, views) in [("equal-row", "40"), ("random-feasible", "30")] {
            let file = directory.appendingPathComponent("\(family).layout").path
            let generated = try run(["generate", family, "--views", views, "--output", file])
            XCTAssertEqual(generated.status, 0, generated.stderr)
            let solved = try run(["solve", file, "--solver", "cassowary"])
            XCTAssertEqual(solved.status, 0, "\(family): \(solved.stderr)")
        }
        let refused = try run(["generate", "equal-row", "--views", "0"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("must be in 1...1000000"), refused.stderr)
    }

    func testGenerateToUnwritablePathExits73() throws {
        let output = try run(["generate", "alternating-grid", "--rows", "1", "--output", "/proc/nope/x.layout"])
        XCTAssertEqual(output.status, 73, output.stderr)
        XCTAssertTrue(output.stderr.contains("cannot write /proc/nope/x.layout"), output.stderr)
    }

    func testRunJudgesAndTimesFromAnyDirectory() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lb-run-\(UUID().uuidString)")
        let result = try run(["run", "--filter", "seed/emoji*", "--filter", "conformance/kiwi-unsat*", "--scale", "none",
                              "--solvers", "cassowary,glpk", "--repetitions", "2", "--no-progress",
                              "--output", output.path], in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("layout-bench run: 2 cases, 2 solvers, all pass"), result.stdout)
        XCTAssertTrue(result.stdout.contains("cassowary     2     0            0      0                    0"), result.stdout)
        let data = try Data(contentsOf: output.appendingPathComponent("results.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual(object?["schema"] as? String, "layout-bench/results")
        XCTAssertEqual((object?["cases"] as? [[String: Any]])?.map { $0["name"] as? String }, ["conformance/kiwi-unsatisfiable", "seed/emoji-playground"])
    }

    func testRunUsageErrors() throws {
        XCTAssertEqual(try run(["run", "--solvers", "nope"]).status, 64)
        XCTAssertEqual(try run(["run", "--shard", "3/2"]).status, 64)
        XCTAssertEqual(try run(["run", "--scale", "huge"]).status, 64)
        XCTAssertEqual(try run(["run", "--solver", "bad"]).status, 64)
        let none = try run(["run", "--filter", "nothing-matches-this", "--scale", "none", "--no-progress"])
        XCTAssertEqual(none.status, 66, none.stderr)
    }

    func testShardsMerge() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-shards-\(UUID().uuidString)")
        for k in 1...2 {
            let r = try run(["run", "--filter", "seed/*", "--scale", "none", "--solvers", "cassowary", "--repetitions", "1",
                             "--shard", "\(k)/2", "--no-progress", "--output", dir.appendingPathComponent("s\(k)").path])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        }
        let merged = dir.appendingPathComponent("merged.json")
        let m = try run(["merge", dir.appendingPathComponent("s1/results.json").path, dir.appendingPathComponent("s2/results.json").path,
                         "-o", merged.path])
        XCTAssertEqual(m.status, 0, m.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: merged)) as? [String: Any]
        XCTAssertEqual((object?["cases"] as? [Any])?.count, 5)
        // In corpus order (shards interleave: 1/2 has cases 0, 2, 4), the order of an unsharded run.
        let whole = try run(["run", "--filter", "seed/*", "--scale", "none", "--solvers", "cassowary", "--repetitions", "1",
                             "--no-progress", "--output", dir.appendingPathComponent("whole").path])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let wholeObject = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("whole/results.json"))) as? [String: Any]
        let names = { (o: [String: Any]?) in (o?["cases"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? [] }
        XCTAssertEqual(names(object), names(wholeObject))
        XCTAssertEqual(names(object).count, 5)
        let twice = try run(["merge", merged.path, merged.path, "-o", dir.appendingPathComponent("x.json").path])
        XCTAssertEqual(twice.status, 65)
        XCTAssertTrue(twice.stderr.contains("is not a shard"), twice.stderr)
        // Shards that do not belong together.
        let s1 = dir.appendingPathComponent("s1/results.json").path
        let missing = try run(["merge", s1, "-o", dir.appendingPathComponent("y.json").path])
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.stderr.contains("shard(s) 2/2 missing"), missing.stderr)
        XCTAssertEqual(try run(["merge", s1, "--partial", "-o", dir.appendingPathComponent("y.json").path]).status, 0)
        let other = try run(["run", "--filter", "seed/*", "--scale", "none", "--solvers", "cassowary", "--repetitions", "2",
                             "--shard", "2/2", "--no-progress", "--output", dir.appendingPathComponent("other").path])
        XCTAssertEqual(other.status, 0, other.stderr)
        let mixed = try run(["merge", s1, dir.appendingPathComponent("other/results.json").path, "-o", dir.appendingPathComponent("z.json").path])
        XCTAssertEqual(mixed.status, 65)
        XCTAssertTrue(mixed.stderr.contains("differs from \(s1) in repetitions: 2 vs 1"), mixed.stderr)
        let corpus = try run(["run", "--filter", "seed/*", "--skip", "seed/emoji*", "--scale", "none", "--solvers", "cassowary", "--repetitions", "1",
                              "--shard", "2/2", "--no-progress", "--output", dir.appendingPathComponent("corpus").path])
        XCTAssertEqual(corpus.status, 0, corpus.stderr)
        let foreign = try run(["merge", s1, dir.appendingPathComponent("corpus/results.json").path, "-o", dir.appendingPathComponent("w.json").path])
        XCTAssertEqual(foreign.status, 65)
        XCTAssertTrue(foreign.stderr.contains("the shards ran over different corpora"), foreign.stderr)
    }

    func testCheckSolverWithAPathContainingASpace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb check \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BenchHarnessTests/Fixtures")
        let script = dir.appendingPathComponent("minimal adapter.py")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("minimal_adapter.py"), to: script)
        let good = try run(["check-solver", "--", "python3", script.path])
        XCTAssertEqual(good.status, 0, good.stdout + good.stderr)
        XCTAssertTrue(good.stdout.contains("checks: in spec"), good.stdout)
        let bad = try run(["check-solver", "--", "python3", fixtures.appendingPathComponent("offspec.py").path, "optimal"])
        XCTAssertEqual(bad.status, 1, bad.stdout)
        XCTAssertTrue(bad.stdout.contains("FAIL   load + solve: offspec.py: protocol error: 'status' in the answer to 'solve'"), bad.stdout)
        XCTAssertEqual(try run(["check-solver"]).status, 64)
        // A wrong answer in protocol: reported, out of spec only with --strict.
        let highs = CLITests.repository.appendingPathComponent("scripts/solvers/highs.py").path
        let wrong = ["--", "python3", fixtures.appendingPathComponent("wrong_answers.py").path, "frames-off", "python3", highs]
        let lenient = try run(["check-solver"] + wrong)
        XCTAssertEqual(lenient.status, 0, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("WRONG  load + solve: disagrees with the reference"), lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("(out of spec with --strict)"), lenient.stdout)
        let strict = try run(["check-solver", "--strict"] + wrong)
        XCTAssertEqual(strict.status, 1, strict.stdout)
    }

    func testUsageErrorExits64() throws {
        XCTAssertEqual(try run(["check"]).status, 64)
        XCTAssertEqual(try run(["frobnicate"]).status, 64)
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Exit codes"), help.stdout)
    }

    func testSolvePrintsFramesAndChecksExpectations() throws {
        let output = try run(["solve", "Corpus/seed/emoji-playground.layout"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stdout.contains("  blue          50       110        60       100\n"), output.stdout)
        XCTAssertTrue(output.stdout.contains("levels: 900: 0, 800: 90"), output.stdout)
        XCTAssertTrue(output.stdout.contains("expectations: 5 passed, 0 failed\n"), output.stdout)  // the ambiguity line too (cassowary answers it)
    }

    func testSolveTextKeepsWideNumbersApart() throws {
        // Numbers of ten characters and more filled their column and ran into the next one.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString).layout")
        defer { try? FileManager.default.removeItem(at: file) }
        try "container 999999999 x 500\nviews a\na.left = super.left + 123456789.5\na.width = 100000000.25\na.top = super.top\na.height = 10\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let output = try run(["solve", file.path])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stdout.contains("  a     123456789.5         0 100000000.25        10\n"), output.stdout)
    }

    func testSolveJSONAllVariants() throws {
        let output = try run(["solve", "--all-variants", "--format", "json", "Corpus/seed/readable-constraints.layout"])
        XCTAssertEqual(output.status, 0, output.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.map { $0["variant"] as? String }, ["default", "landscape", "ipad", "ipadLandscape"])
        XCTAssertEqual(results.map { $0["status"] as? String }, Array(repeating: "solved", count: 4))
        let frames = results.last?["frames"] as? [String: [Double]]
        XCTAssertEqual(frames?["control2"], [240, 362, 200, 44])
        // The native solver answers ambiguity: every view is determined here.
        XCTAssertTrue(results.allSatisfy { ($0["ambiguous"] as? [String]) == [] }, output.stdout)
        // Keys in a stable order: frames follow the declaration order.
        XCTAssertTrue(output.stdout.contains("\"super\": [0, 0, 375, 667],\n        \"panel\""), output.stdout)
    }

    func testSolveFailedExpectationExits1() throws {
        let file = try temporaryFile("container 100 x 100\nviews a\na.left = super.left\na.top = super.top\na.width = 10\na.height = 10\nexpect a = 0 0 11 10\n")
        let output = try run(["solve", file.path])
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stdout.contains("FAILED expect a = 0 0 11 10: a: expected 0 0 11 10, got 0 0 10 10"), output.stdout)
    }

    func testSolveUnsatisfiableNamesTheConflict() throws {
        let file = try temporaryFile("container 100 x 100\nviews a\na.width = 50 # fifty\na.width >= 60 # sixty\nexpect unsatisfiable\n")
        let output = try run(["solve", "--format", "json", file.path])
        XCTAssertEqual(output.status, 0, output.stdout)
        XCTAssertTrue(output.stdout.contains("\"status\": \"unsatisfiable\""), output.stdout)
        XCTAssertTrue(output.stdout.contains("\"conflict\": [\n        \"fifty\",\n        \"sixty\"\n      ]"), output.stdout)
    }

    /// `solve` reads the same registry as `run` and `fuzz` (issue 20: it knew
    /// only the built-in solvers, so `solve --solver highs` was refused).
    func testSolveUsesTheRegistryAndExternalSolvers() throws {
        let adapter = Self.repository.appendingPathComponent("Tests/BenchHarnessTests/Fixtures/minimal_adapter.py").path
        let file = try temporaryFile("container 300 x 200\nviews a\na.left = super.left + 10\na.top = super.top\na.width = 100\na.height = 50\nexpect a = 10 0 100 50\n")
        let external = try run(["solve", file.path, "--solver", "mini=python3 \(adapter)", "--format", "json"])
        XCTAssertEqual(external.status, 0, external.stdout + external.stderr)
        XCTAssertTrue(external.stdout.contains("\"solver\": \"mini\""), external.stdout)
        XCTAssertTrue(external.stdout.contains("\"a\": [10, 0, 100, 50]"), external.stdout)
        XCTAssertTrue(external.stdout.contains("\"passed\": 1,\n        \"failed\": 0"), external.stdout)
        let unknown = try run(["solve", file.path, "--solver", "nope"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown solver 'nope'; known: cassowary, glpk"), unknown.stderr)
    }

    func testSolveUnknownVariantExits64() throws {
        let output = try run(["solve", "--variant", "nope", "Corpus/seed/alternating-grid.layout"])
        XCTAssertEqual(output.status, 64)
        XCTAssertTrue(output.stderr.contains("unknown variant 'nope'; the file has: default, landscape, ipad"), output.stderr)
    }

    func testSolveWithTheReferenceExplainsAmbiguity() throws {
        let file = try temporaryFile("container 300 x 200\nviews a b\na.left = super.left\na.top = super.top\na.width = 100\na.height = 50\nb.left >= a.right + 10\nb.right <= super.right\nb.top = a.top\nb.width = 50\nb.height = 50\nexpect ambiguous b\n")
        let output = try run(["solve", "--solver", "glpk", "--explain", file.path])
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        XCTAssertTrue(output.stdout.contains("  ambiguous: b\n"), output.stdout)
        XCTAssertTrue(output.stdout.contains("  b: x in [110, 250]\n"), output.stdout)
        XCTAssertTrue(output.stdout.contains("expectations: 1 passed, 0 failed"), output.stdout)
    }

    func testSolveWithTheReferenceExplainsConflicts() throws {
        let file = try temporaryFile("container 100 x 100\nviews a\na.width = 50 # fifty\na.height = 5 # unrelated\na.width >= 60 # sixty\n")
        let output = try run(["solve", "--solver", "glpk", "--explain", file.path])
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stdout.contains("these required constraints cannot all hold:\n  fifty: a.width = 50\n  sixty: a.width >= 60\n"),
                      output.stdout)
    }

    func testReportBaselineAndGate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-gate-\(UUID().uuidString)")
        let results = dir.appendingPathComponent("run/results.json").path
        let r = try run(["run", "--filter", "seed/emoji*", "--scale", "none", "--solvers", "cassowary,glpk", "--repetitions", "2",
                         "--no-progress", "--quiet", "--output", dir.appendingPathComponent("run").path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        for name in ["report.html", "results.csv", "summary.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/\(name)").path), name)
        }
        let report = try run(["report", results, "--format", "csv,md", "--output", dir.appendingPathComponent("again").path])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertTrue(report.stdout.contains("results.csv") && report.stdout.contains("summary.md"), report.stdout)
        let baseline = dir.appendingPathComponent("base.json").path
        let save = try run(["baseline", "save", "local-test", results])
        XCTAssertEqual(save.status, 0, save.stderr)
        let stored = CLITests.repository.appendingPathComponent("Reports/baselines/local-test.json")
        defer {
            try? FileManager.default.removeItem(at: stored)
        }
        try FileManager.default.copyItem(at: stored, to: URL(fileURLWithPath: baseline))
        let same = try run(["gate", "--baseline", baseline, results])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.hasPrefix("gate against"), same.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/gate.md").path))
        // package-benchmark's codes: 66 a file that cannot be read, 65 one that is not a baseline.
        XCTAssertEqual(try run(["gate", "--baseline", dir.appendingPathComponent("missing.json").path, results]).status, 66)
        XCTAssertEqual(try run(["gate", "--baseline", baseline, "/nonexistent/results.json"]).status, 66)
        let notBaseline = dir.appendingPathComponent("not-a-baseline.json")
        try Data("{\"schema\": \"something else\"}".utf8).write(to: notBaseline)
        XCTAssertEqual(try run(["gate", "--baseline", notBaseline.path, results]).status, 65)
        // A run gated against itself as a subset: --only-common passes.
        XCTAssertEqual(try run(["gate", "--baseline", baseline, "--only-common", results]).status, 0)
        XCTAssertEqual(try run(["gate", "--baseline", baseline, "--threshold", "lots", results]).status, 64)
        // A baseline recorded here: no note. One that does not say where it was recorded (ci.json): its time
        // verdicts are called indicative only.
        XCTAssertFalse(same.stderr.contains("indicative only"), same.stderr)
        let foreign = try run(["gate", "--baseline", "ci", "--only-common", results])
        XCTAssertTrue(foreign.stderr.contains("does not say which machine recorded it") && foreign.stderr.contains("indicative only")
                      && foreign.stderr.contains("gate --against REV"), foreign.stderr)
        XCTAssertEqual(try run(["report", "/nonexistent/results.json"]).status, 66)
    }

    /// The A/B gate's comparison of stored rounds (`gate --replay`), its
    /// errors, and a solver lost between base and head.
    func testGateABReplayAndErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-ab-\(UUID().uuidString)")
        func runInto(_ name: String, solvers: String) throws {
            let r = try run(["run", "--filter", "seed/emoji*", "--scale", "none", "--solvers", solvers, "--repetitions", "2",
                             "--no-progress", "--quiet", "--output", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        }
        try runInto("a", solvers: "cassowary,glpk")
        try runInto("b", solvers: "cassowary,glpk")
        try runInto("c", solvers: "cassowary")
        func rounds(_ name: String, base: String, head: String) throws -> String {
            let folder = dir.appendingPathComponent(name)
            for k in 1...2 {
                let round = folder.appendingPathComponent("round-\(k)")
                try FileManager.default.createDirectory(at: round, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: round.appendingPathComponent("base"), withDestinationURL: dir.appendingPathComponent(k == 1 ? base : head))
                try FileManager.default.createSymbolicLink(at: round.appendingPathComponent("head"), withDestinationURL: dir.appendingPathComponent(k == 1 ? head : base))
            }
            return folder.path
        }
        let same = try run(["gate", "--replay", try rounds("aa", base: "a", head: "b")])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.hasPrefix("gate A/B, head against the rounds in"), same.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("aa/gate.md").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("aa/gate.html").path))
        // The head lost glpk: a regression, unless allowed.
        let lostFolder = dir.appendingPathComponent("lost")
        for k in 1...2 {
            let round = lostFolder.appendingPathComponent("round-\(k)")
            try FileManager.default.createDirectory(at: round, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: round.appendingPathComponent("base"), withDestinationURL: dir.appendingPathComponent("a"))
            try FileManager.default.createSymbolicLink(at: round.appendingPathComponent("head"), withDestinationURL: dir.appendingPathComponent("c"))
        }
        let lost = try run(["gate", "--replay", lostFolder.path])
        XCTAssertEqual(lost.status, 2, lost.stdout + lost.stderr)
        XCTAssertTrue(lost.stdout.contains("solver missing") && lost.stdout.contains("glpk"), lost.stdout)
        XCTAssertEqual(try run(["gate", "--replay", lostFolder.path, "--allow-missing"]).status, 0)
        // Errors: no rounds, an unknown revision, a base binary that is not one, modes mixed.
        XCTAssertEqual(try run(["gate", "--replay", dir.appendingPathComponent("a").path]).status, 65)
        let unknown = try run(["gate", "--against", "no-such-revision-\(UUID().uuidString.prefix(6))"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("cannot be resolved"), unknown.stderr)
        XCTAssertEqual(try run(["gate", "--against-binary", "/nonexistent/layout-bench"]).status, 66)
        XCTAssertEqual(try run(["gate", "--against", "HEAD", "--baseline", "ci"]).status, 64)
        XCTAssertEqual(try run(["gate", "--replay", lostFolder.path, "--rounds", "0"]).status, 64)
    }

    /// Issue 43: a corpus is data. A solvers.json inside a folder given as
    /// cases is not read (its command is not started) and the run says so;
    /// `--solvers-file` uses it on purpose.
    func testRunDoesNotStartACorpusFoldersSolvers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let marker = dir.appendingPathComponent("PWNED")
        try Data("container 10 x 10\nviews a\na.left = super.left\na.top = super.top\na.width = 1\na.height = 1\n".utf8)
            .write(to: dir.appendingPathComponent("one.layout"))
        let registry = dir.appendingPathComponent("solvers.json")
        try Data(#"{"solvers": [{"name": "evil", "command": ["sh", "-c", "touch \#(marker.path); exit 1"]}]}"#.utf8).write(to: registry)
        let r = try run(["run", dir.path, "--scale", "none", "--repetitions", "1", "--no-progress", "--output", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "a corpus folder's solver was started")
        XCTAssertTrue(r.stderr.contains("solvers.json was not read") && r.stderr.contains("--solvers-file"), r.stderr)
        XCTAssertTrue(r.stderr.contains("layout-bench run: solvers: ") && r.stderr.contains("cassowary, glpk (built in)"), r.stderr)
        XCTAssertTrue(r.stdout.contains("1 cases"), r.stdout)
        XCTAssertFalse(r.stderr.contains("evil"), r.stderr)
        // A chosen registry's solver runs, and results.json and the report name the file it came from.
        let adapter = Self.repository.appendingPathComponent("Tests/BenchHarnessTests/Fixtures/minimal_adapter.py").path
        let mine = dir.appendingPathComponent("mine.json")
        try Data(#"{"solvers": [{"name": "mini", "command": ["python3", "\#(adapter)"]}]}"#.utf8).write(to: mine)
        let withMine = try run(["run", dir.path, "--scale", "none", "--repetitions", "1", "--no-progress", "--quiet",
                                "--solvers-file", mine.path, "--solvers", "cassowary,glpk,mini", "--output", dir.appendingPathComponent("out3").path])
        XCTAssertEqual(withMine.status, 0, withMine.stdout + withMine.stderr)
        let document = try String(contentsOf: dir.appendingPathComponent("out3/results.json"), encoding: .utf8)
        XCTAssertTrue(document.contains("\"registry\" : \"\(mine.path)\"") || document.contains("\"registry\":\"\(mine.path)\""), document)
        let page = try String(contentsOf: dir.appendingPathComponent("out3/report.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("from \(mine.path)"))
        // Chosen on purpose: read, and its solver is started (and left out, since it exits).
        let chosen = try run(["run", dir.path, "--scale", "none", "--repetitions", "1", "--no-progress", "--solvers-file", registry.path,
                              "--solvers", "cassowary,glpk,evil", "--output", dir.appendingPathComponent("out2").path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker.path), chosen.stdout + chosen.stderr)
    }

    /// `run --record`, `history add` from two processes at once (WAL: nothing
    /// lost), the dashboard, bisect, and a file that is not a history.
    func testHistoryRecordsAndReports() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-history-\(UUID().uuidString)")
        let history = dir.appendingPathComponent("h.sqlite").path
        var files: [String] = []
        for k in 1...3 {
            let out = dir.appendingPathComponent("run\(k)")
            let r = try run(["run", "Corpus/seed/emoji-playground.layout", "--solvers", "cassowary,glpk", "--repetitions", "2",
                             "--no-progress", "--output", out.path] + (k == 1 ? ["--record", "--history", history] : []))
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            if k == 1 { XCTAssertTrue(r.stderr.contains("as run 1 in \(history)"), r.stderr) }
            files.append(out.appendingPathComponent("results.json").path)
        }
        // Two writers at once.
        let processes = try files.dropFirst().map { file -> Process in
            let p = Process()
            p.executableURL = Self.binary
            p.arguments = ["history", "add", file, "--history", history]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0) }
        let again = try run(["history", "add", files[0], "--history", history])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("recorded before; skipped"), again.stdout)
        let page = dir.appendingPathComponent("history.html").path
        let report = try run(["history", "report", "--history", history, "--output", page, "--case", "seed/*"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertTrue(report.stdout.contains("3 run(s)"), report.stdout)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("<svg") && html.contains("cassowary load") && html.contains("seed/emoji-playground"))
        let bisect = try run(["history", "bisect", "--history", history, "--case", "seed/emoji-playground", "--solver", "cassowary", "--phase", "load"])
        XCTAssertEqual(bisect.status, 0, bisect.stderr)
        XCTAssertTrue(bisect.stdout.contains("no step in 3 recorded run(s)"), bisect.stdout)
        XCTAssertEqual(try run(["history", "bisect", "--history", history, "--case", "nope", "--solver", "cassowary", "--phase", "load"]).status, 66)
        XCTAssertEqual(try run(["history", "bisect", "--history", history, "--case", "x", "--solver", "cassowary", "--phase", "lunch"]).status, 64)
        // Not a history: refused, untouched.
        let notes = dir.appendingPathComponent("notes.sqlite")
        try Data("not a database".utf8).write(to: notes)
        let refused = try run(["history", "add", files[0], "--history", notes.path])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not an SQLite database"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: notes), Data("not a database".utf8))
    }

    /// Issue 40: the shards of a run, merged, equal the unsharded run:
    /// the same cases in order, verdicts, frames, machine-independent counters
    /// (allocations within the gate's 2%-and-4 rule: they move by a few between
    /// processes), and every case timed once. Merge refuses shards of two commits.
    func testShardsMergedEqualTheUnshardedRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-shards-\(UUID().uuidString)")
        let common = ["--filter", "seed/*", "--filter", "content/*", "--scale", "none", "--solvers", "cassowary,glpk",
                      "--repetitions", "2", "--no-progress", "--quiet"]
        func runInto(_ name: String, _ extra: [String]) throws -> String {
            let r = try run(["run", "Corpus"] + common + extra + ["--output", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            return dir.appendingPathComponent(name).appendingPathComponent("results.json").path
        }
        let whole = try runInto("whole", [])
        let shards = try (1...3).map { try runInto("shard\($0)", ["--shard", "\($0)/3"]) }
        let merged = dir.appendingPathComponent("merged.json").path
        let m = try run(["merge"] + shards + ["-o", merged])
        XCTAssertEqual(m.status, 0, m.stderr)
        func load(_ path: String) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        }
        let a = try XCTUnwrap(try load(whole)["cases"] as? [[String: Any]])
        let b = try XCTUnwrap(try load(merged)["cases"] as? [[String: Any]])
        XCTAssertEqual(a.map { $0["name"] as? String }, b.map { $0["name"] as? String })
        XCTAssertGreaterThan(a.count, 10)
        for (x, y) in zip(a, b) {
            let name = x["name"] as? String ?? "?"
            let rx = try XCTUnwrap(x["results"] as? [[String: Any]]), ry = try XCTUnwrap(y["results"] as? [[String: Any]])
            XCTAssertEqual(rx.count, ry.count, name)
            for (p, q) in zip(rx, ry) {
                XCTAssertEqual(p["verdict"] as? String, q["verdict"] as? String, name)
                XCTAssertEqual(p["frames"] as? NSDictionary, q["frames"] as? NSDictionary, name)
            }
            let cx = x["counters"] as? [String: [String: Double]] ?? [:], cy = y["counters"] as? [String: [String: Double]] ?? [:]
            XCTAssertEqual(Set(cx.keys), Set(cy.keys), name)
            for (solver, values) in cx {
                for (counter, value) in values {
                    let other = try XCTUnwrap(cy[solver]?[counter], "\(name) \(solver) \(counter)")
                    if counter.hasPrefix("allocations/") {
                        XCTAssertLessThanOrEqual(abs(other - value), max(4, 0.02 * value), "\(name) \(solver) \(counter)")
                    } else {
                        XCTAssertEqual(other, value, "\(name) \(solver) \(counter)")
                    }
                }
            }
            let tx = (x["timings"] as? [[String: Any]] ?? []).map { "\($0["solver"] ?? "")/\($0["phase"] ?? "")" }
            let ty = (y["timings"] as? [[String: Any]] ?? []).map { "\($0["solver"] ?? "")/\($0["phase"] ?? "")" }
            XCTAssertEqual(tx.sorted(), ty.sorted(), name)
            XCTAssertEqual(Set(ty).count, ty.count, name)
        }
        // Shards of another commit are refused.
        var edited = try load(shards[1])
        var machine = try XCTUnwrap(edited["machine"] as? [String: Any])
        machine["commit"] = "0000000000000000000000000000000000000000"
        edited["machine"] = machine
        let other = dir.appendingPathComponent("other-commit.json")
        try JSONSerialization.data(withJSONObject: edited).write(to: other)
        let refused = try run(["merge", shards[0], other.path, shards[2], "-o", dir.appendingPathComponent("x.json").path])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("shards of one run come from one commit"), refused.stderr)
    }

    func testReportLoadsInABrowserWhenChromiumIsInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw XCTSkip("chromium is not installed (.ci/run runs scripts/check-report, which installs it)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-browser-\(UUID().uuidString)")
        let r = try run(["run", "--filter", "seed/alternating-grid", "--scale", "none", "--solvers", "cassowary,glpk",
                         "--repetitions", "1", "--no-progress", "--quiet", "--output", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let check = Process()
        check.executableURL = CLITests.repository.appendingPathComponent("scripts/check-report")
        check.arguments = [dir.appendingPathComponent("report.html").path]
        let pipe = Pipe()
        check.standardOutput = pipe
        check.standardError = pipe
        try check.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("loaded without errors"), output)
    }

    func testRunInterruptedLeavesEarlierResultsIntact() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-int-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["run", "--scale", "medium", "--solvers", "cassowary,glpk", "--output", dir.path]
        process.currentDirectoryURL = CLITests.repository
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once the run is under way (its first progress line), not
        // after a fixed sleep: on a loaded machine a sleep can fire before the
        // handler is installed, or after a fast run has finished.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("[2/") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        kill(process.processIdentifier, SIGINT)
        seen.append(err.fileHandleForReading.readDataToEndOfFile())
        let message = String(decoding: seen, as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, message)
        XCTAssertTrue(message.contains("interrupted; this run wrote no results"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("results.json").path))
    }

    /// Allocation counts are figures of the code path. With hash seeds fixed
    /// (SWIFT_DETERMINISTIC_HASHING: per-instance seeds change iteration order
    /// and with it copy-on-write copies, most in this debug build's invariant
    /// checks), two runs give the same count for every phase but load, which
    /// moves by a few allocations at most; the gate's 2% covers both effects.
    /// Each solver is run on its own: the counter counts every thread, and
    /// with glpk interleaved one cassowary add+remove counted 622 instead of
    /// 621 in 3 or 4 of 7 samples (GLPK's thread allocating during it), so
    /// the median flipped between runs; alone, 621 in every sample of four
    /// runs beside two busy loops. Under the whole test suite's load a run
    /// still gave 622 once (as did the code before this change, in 1 of 8
    /// runs beside a busy loop), so cassowary's counts must repeat within
    /// one allocation: a repeatability check, not the gate (which compares
    /// revisions with 2%).
    func testAllocationCountsRepeatAcrossRuns() throws {
        func counts(_ solver: String) throws -> [String: Double] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-alloc-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try run(["run", "--filter", "seed/*", "--scale", "none", "--solvers", solver, "--repetitions", "3",
                             "--no-progress", "--quiet", "--output", dir.path],
                            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("results.json")))
            var found: [String: Double] = [:]
            for c in (object as? [String: Any])?["cases"] as? [[String: Any]] ?? [] {
                for (solver, values) in c["counters"] as? [String: [String: Double]] ?? [:] {
                    for (name, value) in values where name.hasPrefix("allocations/") {
                        found["\(c["name"] ?? "?") \(solver) \(name)"] = value
                    }
                }
            }
            return found
        }
        for solver in ["cassowary", "glpk"] {
            let first = try counts(solver), second = try counts(solver)
            XCTAssertEqual(Set(first.keys), Set(second.keys))
            XCTAssertGreaterThanOrEqual(first.count, 5 * 3, "\(first.keys.sorted())")  // 5 seeds x at least 3 phases
            for (key, value) in first.sorted(by: { $0.key < $1.key }) {
                let other = second[key] ?? -1
                // Loads, and every glpk phase (its count includes GLPK's own thread,
                // whose asynchronous frees can overlap the next measured operation:
                // 694 vs 695 on a solve), move by a few between processes;
                // cassowary's other phases repeat exactly.
                if key.hasSuffix("/load") || solver == "glpk" {
                    XCTAssertLessThanOrEqual(abs(other - value), max(4, 0.01 * value), key)
                } else {
                    XCTAssertLessThanOrEqual(abs(other - value), 1, key)
                }
            }
        }
    }

    func testRunToAnUnwritableDirectoryIsAClearError() throws {
        let r = try run(["run", "--filter", "seed/emoji*", "--scale", "none", "--solvers", "cassowary", "--repetitions", "1",
                         "--no-progress", "--output", "/proc/layout-bench-cannot-write"])
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot write /proc/layout-bench-cannot-write/results.json"), r.stderr)
    }

    func testFuzzReportsAgreement() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-fuzz-\(UUID().uuidString)")
        let r = try run(["fuzz", "--seconds", "2", "--views", "4", "--output", dir.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("0 disagreement(s)"), r.stdout)
    }

    func testCheckBoundsHugeAndManyFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lb-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<2000 {
            try Data("container 1 x 1\nviews a\na.width = \(i)\n".utf8).write(to: dir.appendingPathComponent("f\(i).layout"))
        }
        // A sparse 1 GB file: refused by size before it is read.
        let big = dir.appendingPathComponent("big.layout")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let r = try run(["check", dir.path])
        XCTAssertEqual(r.status, 66, String(r.stdout.suffix(400)))
        XCTAssertTrue(r.stdout.contains("big.layout:1:1: error: cannot read file: file is 1024 MiB; the limit is 256 MiB"), String(r.stdout.prefix(300)))
        XCTAssertTrue(r.stdout.contains("checked 2001 files: 2000 valid, 1 invalid"), String(r.stdout.suffix(300)))
    }
}
