import CassowaryLayout
import ExternalSolvers
import Foundation
import GLPKReference
import LayoutSolving

/// Where a solver comes from: built in, or a command speaking the external protocol.
public struct SolverSpec: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case cassowary
        case glpk
        case external(command: [String], workingDirectory: String?)
    }

    public var name: String
    public var kind: Kind
    /// Registered with `"default": false` (or a pinned version): run only when
    /// named, or by `--solvers all`, not by a plain `run`.
    public var optIn = false
    /// A pinned version (`kiwi@1.3.2`): the command, started once with
    /// `LAYOUT_BENCH_PREPARE=1` before the run, installs what it needs
    /// (``SolverPreparation``).
    public var needsPreparation = false
    /// The family the reports group it in (`"family"` in its registry entry:
    /// "Cassowary", "LP", "exact", ...); nil: "other".
    public var family: String?

    /// - Parameter family: nil gives a built-in solver its own family
    ///   (Cassowary, LP) and an external one none.
    public init(name: String, kind: Kind, family: String? = nil) {
        self.name = name
        self.kind = kind
        switch kind {
        case .cassowary: self.family = family ?? "Cassowary"
        case .glpk: self.family = family ?? "LP"
        case .external: self.family = family
        }
    }

    /// The reference every other solver is judged against.
    /// Whether this is the built-in GLPK reference (what `run` judges by
    /// unless told otherwise, see ``RunSettings/reference``).
    public var isGLPK: Bool { kind == .glpk }

    /// A solver run as a child process (measured, not maintained here).
    public var isExternal: Bool { if case .external = kind { return true } else { return false } }

    /// A fresh instance; `ambiguity: false` leaves the built-in solvers'
    /// ambiguity analysis out (the timing pass: the times compare solves);
    /// `ranges: true` has the reference compute each free view's range
    /// (`solve --explain`).
    public func make(timeout: Double, ambiguity: Bool = true, ranges: Bool = false) -> LayoutSolver {
        switch kind {
        case .cassowary: return FaultInjection.decorate(CassowaryLayoutSolver(analyseAmbiguity: ambiguity))
        case .glpk: return GLPKLayoutSolver(analyseAmbiguity: ambiguity, computeRanges: ranges)
        case .external(let command, let directory):
            return ExternalSolver(name: name, command: command, timeout: timeout, workingDirectory: directory)
        }
    }

    /// A fresh external solver (not started); nil for a built-in one. Why
    /// typed: the harness keeps external solvers for the whole run and asks
    /// them what only a child process has (its hello, its own seconds).
    public func makeExternal(timeout: Double) -> ExternalSolver? {
        guard case .external(let command, let directory) = kind else { return nil }
        return ExternalSolver(name: name, command: command, timeout: timeout, workingDirectory: directory)
    }
}

/// The solver instances of one session (a run, a fuzz campaign): the one
/// cache. External solvers are made once and kept, one child process each
/// (starting an interpreter per case would dominate); built-in ones are made
/// fresh for every request, since their state belongs to one load.
public final class SolverPool {
    /// Seconds an external solver may take per request.
    public let timeout: Double
    private var externals: [String: ExternalSolver] = [:]

    public init(timeout: Double = 30) { self.timeout = timeout }

    /// The session's instance of an external solver, or a fresh built-in one
    /// (`ambiguity: false` leaves the ambiguity analysis out: the built-ins'
    /// and, through `"free": false`, an external adapter's).
    public func instance(_ spec: SolverSpec, ambiguity: Bool = true) -> LayoutSolver {
        guard let external = external(spec) else { return spec.make(timeout: timeout, ambiguity: ambiguity) }
        // The one external instance serves both kinds of request, so each
        // request says which it is (`"free": false` when not wanted).
        external.listsFreeVariables = ambiguity
        return external
    }

    /// The session's instance of an external solver, made on first use; nil
    /// for a built-in one.
    public func external(_ spec: SolverSpec) -> ExternalSolver? {
        if let existing = externals[spec.name] { return existing }
        guard let made = spec.makeExternal(timeout: timeout) else { return nil }
        externals[spec.name] = made
        return made
    }

    /// Drops an external solver (it could not start); the next request makes a new one.
    public func forget(_ spec: SolverSpec) { externals[spec.name] = nil }
}

/// Why a solver list could not be read.
public struct RegistryError: Error, CustomStringConvertible {
    public var description: String
}

/// The solvers a run can use: the built-in ones, those of a `solvers.json`
/// registry, and `--solver NAME=COMMAND` on the command line.
///
/// `solvers.json`: `{"solvers": [{"name": "kiwi", "command": ["python3", "solvers/kiwi.py"]}]}`;
/// commands run in the registry file's directory. An entry may add
/// `"default": false` (opt-in: not run unless named or `--solvers all`) and
/// `"versioned": [words with {version}]`, the command of `NAME@VERSION`, and
/// `"family": NAME`, the group the reports show it in.
public struct SolverRegistry: Sendable {
    public private(set) var solvers: [SolverSpec] = [
        SolverSpec(name: "cassowary", kind: .cassowary),
        SolverSpec(name: "glpk", kind: .glpk),
    ]

    public init() {}

    /// The one registry rule, for every command: solver commands come only
    /// from places the user chose. In order (a name defined in two of the
    /// files is an error naming both): each `--solvers-file PATH`; `solvers.json` in the working
    /// directory (the user's own project); the tool's own
    /// `Corpus/solvers.json` (the checkout the binary was built in); then
    /// `NAME=COMMAND` entries (which replace). A `solvers.json` inside a
    /// folder given as a case path is never read: a corpus holds tests, not
    /// programs to run (see ``ignoredRegistries(in:)``).
    /// - Throws: ``RegistryError`` for a malformed or unreadable file or entry
    ///   (a `--solvers-file` that does not exist included), or a name two
    ///   files (or one file twice) define.
    public static func discover(solversFiles: [String] = [], workingDirectory: String = "solvers.json", tool: String?,
                                commandLine: [String]) throws(RegistryError) -> SolverRegistry {
        var registry = SolverRegistry()
        for file in solversFiles {
            guard FileManager.default.fileExists(atPath: file) else { throw RegistryError(description: "--solvers-file \(file): no such file") }
            try registry.load(registry: file)
        }
        var files = [workingDirectory]
        if let tool { files.append(tool) }
        var seen = Set(solversFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        for file in files where FileManager.default.fileExists(atPath: file) {
            guard seen.insert(URL(fileURLWithPath: file).standardizedFileURL.path).inserted else { continue }
            try registry.load(registry: file)
        }
        for entry in commandLine { _ = try registry.add(commandLine: entry) }
        return registry
    }

    /// The `solvers.json` files inside the given case folders that the rule
    /// of ``discover(solversFiles:workingDirectory:tool:commandLine:)`` did
    /// not read (and which are not one of `read`), for a one-line notice.
    public static func ignoredRegistries(in targets: [String], read: [String]) -> [String] {
        let known = Set(read.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        return targets.compactMap { target in
            let file = (target as NSString).appendingPathComponent("solvers.json")
            guard FileManager.default.fileExists(atPath: file), !known.contains(URL(fileURLWithPath: file).standardizedFileURL.path) else { return nil }
            return file
        }
    }

    /// The `"versioned"` command of each solver that has one, and its directory.
    private var versioned: [String: (command: [String], directory: String?)] = [:]

    /// Where each solver was defined: "built in", a registry file, or "--solver".
    public private(set) var origins: [String: String] = ["cassowary": "built in", "glpk": "built in"]

    /// Adds the solvers of a registry file.
    /// - Throws: ``RegistryError`` for unreadable or malformed files.
    public mutating func load(registry path: String) throws(RegistryError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RegistryError(description: "\(path): cannot read")
        }
        /// The file's shape; other keys are the user's (comments, notes) and are ignored.
        struct File: Decodable {
            struct Entry: Decodable {
                var name: String?
                var command: [String]?
                var `default`: Bool?
                var versioned: [String]?
                var family: String?
            }
            var solvers: [Entry]
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw RegistryError(description: "\(path): expected {\"solvers\": [{\"name\": ..., \"command\": [...]}]}")
        }
        let directory = (path as NSString).deletingLastPathComponent
        for entry in file.solvers {
            guard let name = entry.name, !name.isEmpty, let command = entry.command, !command.isEmpty else {
                throw RegistryError(description: "\(path): every solver needs a name and a non-empty command array")
            }
            guard !name.contains("@") && name != "all" else {
                throw RegistryError(description: "\(path): '\(name)' cannot name a solver ('@' selects a version, 'all' every solver)")
            }
            if let versioned = entry.versioned, versioned.isEmpty || !versioned.contains(where: { $0.contains("{version}") }) {
                throw RegistryError(description: "\(path): \(name)'s \"versioned\" must be a command with {version} in a word")
            }
            if let family = entry.family, family.isEmpty || family.count > 40 || family.contains(where: \.isNewline) {
                throw RegistryError(description: "\(path): \(name)'s \"family\" must be a short name (1 to 40 characters, one line)")
            }
            var spec = SolverSpec(name: name, kind: .external(command: command, workingDirectory: directory.isEmpty ? nil : directory),
                                  family: entry.family)
            spec.optIn = entry.default == false
            // Why a clash is an error, not "the first wins": two files that
            // both define a name leave the user unsure which command runs;
            // naming both lets them remove one (built-ins stay unredefinable).
            if let earlier = origins[name], earlier != "built in" {
                throw RegistryError(description: earlier == path ? "\(path): '\(name)' is defined twice"
                                    : "'\(name)' is defined in both \(earlier) and \(path); remove or rename one")
            }
            if try add(spec) {
                origins[name] = path
                versioned[name] = entry.versioned.map { ($0, directory.isEmpty ? nil : directory) }
            }
        }
    }

    /// Adds `NAME=COMMAND`, COMMAND split into words by the shell's quoting
    /// rules (``ShellWords``), run in the working directory.
    /// - Returns: the solver's name.
    @discardableResult
    public mutating func add(commandLine: String) throws(RegistryError) -> String {
        guard let equals = commandLine.firstIndex(of: "="), equals != commandLine.startIndex else {
            throw RegistryError(description: "--solver expects NAME=COMMAND, got '\(commandLine)'")
        }
        let name = String(commandLine[..<equals])
        let command: [String]
        do { command = try ShellWords.split(String(commandLine[commandLine.index(after: equals)...])) } catch {
            throw RegistryError(description: "--solver \(name)=...: \(error)")
        }
        guard !command.isEmpty else { throw RegistryError(description: "--solver \(name)= has no command") }
        try add(SolverSpec(name: name, kind: .external(command: command, workingDirectory: nil)), replacing: true)
        origins[name] = "--solver"
        versioned[name] = nil
        return name
    }

    /// - Returns: whether `spec` was added (false: an earlier definition of its name wins).
    @discardableResult
    mutating func add(_ spec: SolverSpec, replacing: Bool = false) throws(RegistryError) -> Bool {
        if let i = solvers.firstIndex(where: { $0.name == spec.name }) {
            guard replacing, !solvers[i].isGLPK, solvers[i].kind != .cassowary else {
                if replacing { throw RegistryError(description: "'\(spec.name)' is a built-in solver") }
                return false  // the first definition wins (the user's files before the tool's)
            }
            solvers[i] = spec
        } else {
            solvers.append(spec)
        }
        return true
    }

    /// The solvers a plain `run` uses: every one not registered as opt-in.
    public var defaults: [SolverSpec] { solvers.filter { !$0.optIn } }

    /// The named solvers, in the order given; `all` stands for every
    /// registered solver (opt-in ones included), `NAME@VERSION` for a pinned
    /// version of a solver registered with `"versioned"`.
    /// - Throws: ``RegistryError`` naming the unknown ones and the known ones.
    public func select(_ names: [String]) throws(RegistryError) -> [SolverSpec] {
        var chosen: [SolverSpec] = []
        for name in names {
            for spec in name == "all" ? solvers : [try solver(named: name)] where !chosen.contains(spec) { chosen.append(spec) }
        }
        return chosen
    }

    /// The solver of that name, or a pinned version of one (`kiwi@1.3.2`).
    /// - Throws: ``RegistryError`` naming it and the known ones.
    public func solver(named name: String) throws(RegistryError) -> SolverSpec {
        if let at = name.firstIndex(of: "@") { return try pinned(String(name[..<at]), version: String(name[name.index(after: at)...])) }
        guard let spec = solvers.first(where: { $0.name == name }) else {
            throw RegistryError(description: "unknown solver '\(name)'; known: " + solvers.map(\.name).joined(separator: ", ")
                                + " (solvers are registered in the tool's Corpus/solvers.json, ./solvers.json, "
                                + "--solvers-file PATH, or --solver NAME=COMMAND)")
        }
        return spec
    }

    /// `NAME@VERSION`: the entry's `"versioned"` command with `{version}`
    /// replaced. Why the version's characters are limited: it becomes part
    /// of a package requirement and a cache folder's name, where a `/`, a
    /// blank or a `;` would mean something else.
    /// - Throws: ``RegistryError`` for an unknown name, one without
    ///   `"versioned"`, or a malformed version.
    func pinned(_ base: String, version: String) throws(RegistryError) -> SolverSpec {
        _ = try solver(named: base)
        guard let template = versioned[base] else {
            throw RegistryError(description: "'\(base)@\(version)': \(base) has no \"versioned\" command in its registry, so no version can be chosen; "
                                + "versioned: " + (versioned.keys.sorted().joined(separator: ", ").nonEmpty ?? "none"))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_!")
        guard let first = version.first, first.isNumber || first.isLetter, version.allSatisfy(allowed.contains) else {
            throw RegistryError(description: "'\(base)@\(version)': a version is letters, digits and . + - _ ! (e.g. \(base)@1.3.2)")
        }
        var spec = SolverSpec(name: "\(base)@\(version)",
                              kind: .external(command: template.command.map { $0.replacingOccurrences(of: "{version}", with: version) },
                                              workingDirectory: template.directory),
                              family: solvers.first { $0.name == base }?.family)
        spec.optIn = true
        spec.needsPreparation = true
        return spec
    }
}

extension String {
    /// nil for the empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// Splits a command line into words as a POSIX shell does, without any
/// expansion: blanks separate words; `'...'` keeps everything literally;
/// `"..."` keeps everything but `\` before `"`, `\`, `$` or `` ` ``; a `\`
/// outside quotes keeps the next character. So `python3 "/my solvers/x.py"`
/// is two words, as typed in a terminal.
public enum ShellWords {
    /// Why a command could not be split.
    public struct SplitError: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Throws: ``SplitError`` for an unterminated quote or a trailing backslash.
    /// - Complexity: O(n) in the length of the text.
    public static func split(_ text: String) throws(SplitError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                guard let close = chars.firstIndex(of: "'") else {
                    throw SplitError(description: "unterminated single quote in '\(text)'")
                }
                word.unicodeScalars.append(contentsOf: chars[chars.startIndex..<close])
                chars = chars[(close + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" { closed = true; break }
                    if d == "\\", let next = chars.first, "\"\\$`".unicodeScalars.contains(next) {
                        word.unicodeScalars.append(next)
                        chars = chars.dropFirst()
                    } else {
                        word.unicodeScalars.append(d)
                    }
                }
                guard closed else { throw SplitError(description: "unterminated double quote in '\(text)'") }
            case "\\":
                inWord = true
                guard let next = chars.popFirst() else { throw SplitError(description: "a trailing backslash in '\(text)'") }
                word.unicodeScalars.append(next)
            default:
                inWord = true
                word.unicodeScalars.append(c)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
