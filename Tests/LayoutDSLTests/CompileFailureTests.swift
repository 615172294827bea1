import Foundation
import Testing

/// The DSL's promise is made at compile time: an illegal relation is a type
/// error. These tests hand snippets to the same compiler, against the
/// modules this test bundle was built with, and read its diagnostics.
@Suite("The Swift DSL rejects illegal relations at compile time")
struct CompileFailureTests {
    /// Type-checks `body` (after `import LayoutDSL` and two views `a`, `b`)
    /// and returns the source lines the compiler reported errors on, with
    /// the text of each.
    func typeCheck(_ body: [String]) throws -> (errors: [Int: String], output: String) {
        // The test bundle sits next to the `Modules` directory of its build.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let modules = bundle.deletingLastPathComponent().appendingPathComponent("Modules")
        let moduleFile = modules.appendingPathComponent("LayoutDSL.swiftmodule").path
        try #require(FileManager.default.fileExists(atPath: moduleFile), "no LayoutDSL module at \(moduleFile)")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("layout-bench-dsl-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let prologue = ["import LayoutDSL", "let a = LayoutView(\"a\"), b = LayoutView(\"b\")"]
        let file = directory.appendingPathComponent("snippet.swift")
        try (prologue + body).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

        // The package's C targets (MemoryHints, which LayoutModel imports)
        // are found through the module maps the build wrote beside them.
        let build = bundle.deletingLastPathComponent()
        let moduleMaps = ((try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [])
            .filter { $0.hasSuffix(".build") }.sorted()
            .map { build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", modules.path]
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        var errors: [Int: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix(file.path + ":") {
            let fields = line.dropFirst(file.path.count + 1).split(separator: ":", maxSplits: 3)
            guard fields.count == 4, let number = Int(fields[0]), fields[2] == " error" else { continue }
            errors[number - prologue.count, default: ""] += String(fields[3])
        }
        #expect((process.terminationStatus == 0) == errors.isEmpty, "\(output)")
        return (errors, output)
    }

    @Test("the legal forms compile (the control for the failures below)")
    func legalFormsCompile() throws {
        let result = try typeCheck([
            "_ = a.left == b.right * 2 + 10 ~ .high",
            "_ = a.top >= b.bottom - 8 ~ 750",
            "_ = a.width == 44",
            "_ = a.width <= b.height / 2 + 1",
            "_ = a.centerX == LayoutView.container.centerX",
            "_ = a.firstBaseline == b.lastBaseline + 4",
            "_ = LayoutView(\"c\").intrinsicSize(width: nil, height: 40).hugging(vertical: 251)",
        ])
        #expect(result.errors.isEmpty, "\(result.output)")
    }

    @Test("x against y, edges against sizes, and edges against numbers do not compile")
    func illegalFormsDoNotCompile() throws {
        let illegal = [
            "_ = a.left == b.top",
            "_ = a.left == b.width",
            "_ = a.leading == 10",
            "_ = a.top <= b.height * 2",
            "_ = a.width >= b.centerY",
            "_ = a.centerX == b.bottom + 4 ~ .high",
            "_ = a.bottom >= 20",
            "_ = a.firstBaseline == b.centerX",
            "_ = a.lastBaseline >= b.height",
        ]
        let result = try typeCheck(illegal)
        // Every line must fail on its own: one error per line, none elsewhere.
        #expect(Set(result.errors.keys) == Set(1...illegal.count), "\(result.output)")
    }
}
