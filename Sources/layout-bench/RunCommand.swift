import ArgumentParser

/// `layout-bench run [PATHS...]`: the main job.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Cross-check and time the solvers over the corpus.",
        discussion: """
            The solvers and the timing harness are not built yet: for now `run` checks that every \
            corpus file parses and validates (the same as `check`), and exits like `check`.
            """
    )

    @Argument(help: "Files or directories (default: the repository's Corpus/).")
    var paths: [String] = []

    func run() throws {
        var targets = paths
        if targets.isEmpty {
            guard let corpus = Inputs.defaultCorpus() else {
                printError("error: no Corpus/ directory here or next to the binary; pass PATHS")
                throw ExitStatus.noInput.exitCode
            }
            targets = [corpus]
        }
        printError("layout-bench run: no solvers are registered yet (they arrive with the solver issues); "
                   + "checking the corpus instead.")
        let status = CheckCommand.check(targets)
        if status != .success { throw status.exitCode }
    }
}
