import ArgumentParser
import LayoutFormat
import LayoutSolving

/// `layout-bench print FILE`
struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a .layout file in normalised form (metrics resolved, one constraint per line)."
    )

    @Argument(help: "The .layout file ('-' reads standard input).")
    var file: String

    @Flag(help: "Print the lowered linear rows (what solvers see) instead of the text.")
    var lowered = false

    @Option(help: "With --lowered: the variant to lower (default: the container line).")
    var variant: String?

    enum Format: String, CaseIterable, ExpressibleByArgument { case text, json }

    @Option(help: "With --lowered: text or json.")
    var format: Format = .text

    func run() throws {
        let (result, readable) = Inputs.parse(file)
        let rendered = result.renderedDiagnostics()
        if !rendered.isEmpty { printError(rendered) }
        guard let layout = result.layout else {
            throw (readable ? ExitStatus.dataError : .noInput).exitCode
        }
        guard lowered else {
            print(LayoutPrinter.print(layout), terminator: "")
            return
        }
        do {
            let system = try layout.lowered(variant: variant)
            switch format {
            case .text: print(LayoutPrinter.print(system, layout: layout), terminator: "")
            case .json: print(system.json(layout: layout).serialized())
            }
        } catch {
            throw ToolError(message: "\(error)", status: .usage)
        }
    }
}
