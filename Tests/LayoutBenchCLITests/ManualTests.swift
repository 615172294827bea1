import Foundation
import XCTest

/// README's command and exit-code tables against the binary's own help: the
/// tool is the one owner of both facts (the subcommands' abstracts and the
/// `ExitStatus` enum behind the root help), and the manual must say the same.
final class ManualTests: XCTestCase {
    struct Help: Decodable {
        struct Command: Decodable {
            var commandName: String
            var abstract: String?
            var discussion: String?
            var shouldDisplay: Bool?
            var subcommands: [Command]?
        }
        var command: Command
    }

    /// The binary's whole command tree (`--experimental-dump-help`).
    func help() throws -> Help.Command {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["--experimental-dump-help"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try JSONDecoder().decode(Help.self, from: data).command
    }

    /// The lines between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in README.md.
    func readmeSection(_ name: String) throws -> String {
        let readme = try String(contentsOf: CLITests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let begin = readme.range(of: "<!-- \(name):begin -->\n"), let end = readme.range(of: "<!-- \(name):end -->") else {
            XCTFail("README.md has no <!-- \(name):begin --> ... <!-- \(name):end --> section")
            return ""
        }
        return String(readme[begin.upperBound..<end.lowerBound])
    }

    /// Escapes a table cell's `|`.
    func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    func testReadmeCommandTableIsTheHelp() throws {
        let root = try help()
        var expected = "| command | what it does |\n| --- | --- |\n"
        for command in root.subcommands ?? [] where command.commandName != "help" && command.shouldDisplay != false {
            expected += "| `\(command.commandName)` | \(cell(command.abstract ?? "")) |\n"
        }
        XCTAssertEqual(try readmeSection("commands"), expected,
                       "README's command table differs from `layout-bench --help`; the table it should hold is:\n\(expected)")
    }

    func testReadmeExitCodeTableIsTheHelp() throws {
        let discussion = try help().discussion ?? ""
        XCTAssertTrue(discussion.hasPrefix("Exit codes: ") && discussion.hasSuffix("."), discussion)
        let items = discussion.dropFirst("Exit codes: ".count).dropLast().components(separatedBy: "; ")
        var expected = "| code | meaning |\n| --- | --- |\n"
        for item in items {
            let parts = item.split(separator: " ", maxSplits: 1)
            XCTAssertEqual(parts.count, 2, item)
            expected += "| \(parts[0]) | \(cell(String(parts.last ?? ""))) |\n"
        }
        XCTAssertEqual(items.map { $0.split(separator: " ").first.map(String.init) ?? "" },
                       ["0", "1", "2", "4", "64", "65", "66", "69", "70", "73", "130"])
        XCTAssertEqual(try readmeSection("exit-codes"), expected,
                       "README's exit-code table differs from `layout-bench --help`; the table it should hold is:\n\(expected)")
    }

    /// Every exit code a command's help names is one of the tool's codes (a
    /// help text cannot promise a code the enum does not have).
    func testEveryExitCodeInAnyHelpIsATooledCode() throws {
        let root = try help()
        let known = Set((root.discussion ?? "").dropFirst("Exit codes: ".count).components(separatedBy: "; ")
            .compactMap { $0.split(separator: " ").first.flatMap { Int($0) } })
        XCTAssertEqual(known.count, 11)
        let pattern = try NSRegularExpression(pattern: #"(?:Exit codes:|Exits?|;|,)\s+(\d+)\s+[a-z(]"#)
        var checked = 0
        func visit(_ command: Help.Command) {
            for text in [command.abstract, command.discussion].compactMap({ $0 }) where text.contains("Exit") {
                let range = NSRange(text.startIndex..., in: text)
                for match in pattern.matches(in: text, range: range) {
                    guard let r = Range(match.range(at: 1), in: text), let code = Int(text[r]) else { continue }
                    checked += 1
                    XCTAssertTrue(known.contains(code), "`\(command.commandName)` help names exit code \(code), which ExitStatus lacks")
                }
            }
            command.subcommands?.forEach(visit)
        }
        visit(root)
        XCTAssertGreaterThan(checked, 20, "the pattern found too few codes to mean anything")
    }
}
