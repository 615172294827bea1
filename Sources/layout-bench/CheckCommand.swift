import ArgumentParser
import Foundation
import LayoutFormat
import LayoutModel

/// `layout-bench check FILE|DIR...`
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse and validate .layout files.",
        discussion: """
            Prints one line per valid file (views, constraints, variants, expectations) and the \
            diagnostics of the others. Directories are searched recursively for *.layout. \
            Exits 0 when every file is valid, 65 when any has errors, 66 when any cannot be read.
            """
    )

    @Argument(help: "Files or directories to check ('-' reads standard input).")
    var paths: [String]

    func run() throws {
        let status = Self.check(paths)
        if status != .success { throw status.exitCode }
    }

    /// Checks `paths` and prints the results; returns the exit status.
    static func check(_ paths: [String]) -> ExitStatus {
        let (files, missing) = Inputs.collect(paths)
        var status = ExitStatus.success
        for path in missing {
            print("\(path): error: no such file, or a directory with no .layout files")
            status = .worst(status, .noInput)
        }
        var valid = 0
        for (position, file) in files.enumerated() {
            let (result, readable) = Inputs.parse(file)
            if let layout = result.layout {
                valid += 1
                print("\(file): ok: " + summary(layout))
            } else {
                status = .worst(status, readable ? .dataError : .noInput)
            }
            let rendered = result.renderedDiagnostics()
            if !rendered.isEmpty { print(rendered, terminator: "") }
            // The last file's layout is freed by the exit, not one constraint
            // at a time, O(constraints) of releases for nothing (evidence:
            // docs/measurements.md#m-front-end-costs). Only the last:
            // earlier ones are released as the loop goes, so memory stays that
            // of one file.
            if position == files.count - 1 { KeepUntilExit.keep(result) }
        }
        if files.count + missing.count > 1 {
            let invalid = files.count - valid
            print("checked \(files.count) file\(files.count == 1 ? "" : "s"): \(valid) valid, \(invalid) invalid"
                  + (missing.isEmpty ? "" : ", \(missing.count) missing"))
        }
        return status
    }

    static func summary(_ layout: Layout) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [count(layout.views.count, "view"), count(layout.constraints.count, "constraint"),
                count(layout.variants.count, "variant"), count(layout.expectations.count, "expectation")]
            .joined(separator: ", ")
    }
}
