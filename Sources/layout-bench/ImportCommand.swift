import ArgumentParser
import Foundation
import IBImport
import LayoutFormat
import LayoutModel

/// `layout-bench import FILE.storyboard|FILE.xib ...`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import Interface Builder files (.storyboard, .xib) as .layout files, Xcode's stored frames as observed expectations.",
        discussion: """
        Writes one .layout per scene root view, top-level xib view and table or collection cell \
        (size-class variations become variants), each with a provenance header. Views whose stored \
        frame is fresh (not misplaced or ambiguous) get `expect VIEW = X Y W H observed xcode within 0.5`. \
        Exit 65 when a file cannot be imported (its other files still are); warnings name the element (FILE:LINE:COL).
        """
    )

    @Argument(help: "Interface Builder files.")
    var files: [String]

    @Option(help: "Only this scene: a storyboard sceneID, or the object id of a view controller or top-level view.")
    var scene: String?

    @Option(help: "View names: 'label' (userLabel, class or element; unique) or 'id' (Interface Builder object ids).")
    var names: ImportNaming = .label

    @Option(help: "The folder to write the .layout files to (created if missing).")
    var output: String = "."

    @Option(help: "What the provenance header names as the source (default: the file's path), e.g. 'owner/repo@commit:path (MIT)'.")
    var source: String?

    @Option(help: "Prefix every written file's name (to keep apart two files with the same name).")
    var prefix: String?

    @Flag(help: "Print only errors and the summary, not each warning.")
    var quiet = false

    func run() throws {
        if source != nil, files.count > 1 { throw ToolError(message: "--source names one file; give one file with it", status: .usage) }
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw ToolError(message: "cannot create \(output): \(error.localizedDescription)", status: .cannotCreate)
        }
        var status = ExitStatus.success
        var written = 0, observed = 0, imported = 0, warningCount = 0
        for file in files {
            guard fm.fileExists(atPath: file) else {
                printError("\(file): no such file")
                status = .worst(status, .noInput)
                continue
            }
            let result: ImportResult
            do {
                result = try InterfaceBuilderImporter.importFile(atPath: file, options: ImportOptions(naming: names, scene: scene))
            } catch {
                printError(error.description)
                status = .worst(status, .dataError)
                continue
            }
            let diagnostics = result.warnings + result.screens.flatMap(\.warnings)
            warningCount += diagnostics.count
            if !quiet { for d in diagnostics { printError(d.description) } }
            if result.screens.isEmpty {
                printError("\(file): no screen with constraints\(scene.map { " (scene \($0))" } ?? "")")
                if scene != nil { status = .worst(status, .usage) }
            }
            for var screen in result.screens {
                if let prefix { screen.name = ImportedScreen.safeName(prefix + "-" + screen.name) }
                var header = screen.header
                if let source, let i = header.firstIndex(where: { $0.hasPrefix("source: ") }) { header[i] = "source: \(source)" }
                let text = header.map { "# " + $0.filter { !$0.isNewline } }.joined(separator: "\n") + "\n\n" + LayoutPrinter.print(screen.layout)
                // The printer round-trips every valid model; a file that does not read back is our bug, said as such.
                let check = LayoutParser.parse(text, fileName: screen.name + ".layout")
                if check.layout == nil {
                    printError("\(file): internal error: the import of \(screen.name) does not read back:\n" + check.renderedDiagnostics())
                    status = .worst(status, .software)
                    continue
                }
                // Why `name` is safe as a path: ``ImportedScreen/name`` is [A-Za-z0-9_-] only (no '/', no '..').
                let path = (output as NSString).appendingPathComponent(screen.name + ".layout")
                guard fm.createFile(atPath: path, contents: Data(text.utf8)) else {
                    throw ToolError(message: "cannot write \(path)", status: .cannotCreate)
                }
                written += 1
                observed += screen.observedViews
                imported += screen.importedViews
                print("wrote \(path): \(screen.importedViews) views, \(screen.observedViews) with Xcode's frame, "
                      + "\(screen.layout.constraints.count) constraints\(screen.warnings.isEmpty ? "" : ", \(screen.warnings.count) warnings")")
            }
        }
        print("imported \(written) screen(s) from \(files.count) file(s): \(imported) views, \(observed) with Xcode's frame as oracle"
              + (warningCount > 0 ? "; \(warningCount) warning(s)\(quiet ? " (not shown: --quiet)" : "")" : ""))
        if status != .success { throw status.exitCode }
    }
}

extension ImportNaming: ExpressibleByArgument {}
