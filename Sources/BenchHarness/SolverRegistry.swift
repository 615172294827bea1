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

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The reference every other solver is judged against.
    public var isReference: Bool { kind == .glpk }

    /// A solver run as a child process (measured, not maintained here).
    public var isExternal: Bool { if case .external = kind { return true } else { return false } }

    /// A fresh instance; `ambiguity: false` leaves the built-in solvers'
    /// ambiguity analysis out (the timing pass: the times compare solves).
    public func make(timeout: Double, ambiguity: Bool = true) -> LayoutSolver {
        switch kind {
        case .cassowary: return CassowaryLayoutSolver(analyseAmbiguity: ambiguity)
        case .glpk: return GLPKLayoutSolver(analyseAmbiguity: ambiguity)
        case .external(let command, let directory):
            return ExternalSolver(name: name, command: command, timeout: timeout, workingDirectory: directory)
        }
    }
}

/// Why a solver list could not be read.
public struct RegistryError: Error, CustomStringConvertible {
    public var description: String
}

/// The solvers a run can use: the built-in ones, those of a `solvers.json`
/// registry, and `--solver NAME=COMMAND` on the command line.
///
/// `solvers.json`: `{"solvers": [{"name": "kiwi", "command": ["python3", "solvers/kiwi.py"]}]}`;
/// commands run in the registry file's directory.
public struct SolverRegistry: Sendable {
    public private(set) var solvers: [SolverSpec] = [
        SolverSpec(name: "cassowary", kind: .cassowary),
        SolverSpec(name: "glpk", kind: .glpk),
    ]

    public init() {}

    /// Adds the solvers of a registry file.
    /// - Throws: ``RegistryError`` for unreadable or malformed files.
    public mutating func load(registry path: String) throws(RegistryError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RegistryError(description: "\(path): cannot read")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let list = object["solvers"] as? [[String: Any]] else {
            throw RegistryError(description: "\(path): expected {\"solvers\": [{\"name\": ..., \"command\": [...]}]}")
        }
        let directory = (path as NSString).deletingLastPathComponent
        for entry in list {
            guard let name = entry["name"] as? String, !name.isEmpty,
                  let command = entry["command"] as? [String], !command.isEmpty else {
                throw RegistryError(description: "\(path): every solver needs a name and a non-empty command array")
            }
            try add(SolverSpec(name: name, kind: .external(command: command, workingDirectory: directory.isEmpty ? nil : directory)))
        }
    }

    /// Adds `NAME=COMMAND` (the command split on spaces, run in the working directory).
    public mutating func add(commandLine: String) throws(RegistryError) {
        guard let equals = commandLine.firstIndex(of: "="), equals != commandLine.startIndex else {
            throw RegistryError(description: "--solver expects NAME=COMMAND, got '\(commandLine)'")
        }
        let name = String(commandLine[..<equals])
        let command = commandLine[commandLine.index(after: equals)...].split(separator: " ").map(String.init)
        guard !command.isEmpty else { throw RegistryError(description: "--solver \(name)= has no command") }
        try add(SolverSpec(name: name, kind: .external(command: command, workingDirectory: nil)), replacing: true)
    }

    mutating func add(_ spec: SolverSpec, replacing: Bool = false) throws(RegistryError) {
        if let i = solvers.firstIndex(where: { $0.name == spec.name }) {
            guard replacing, !solvers[i].isReference, solvers[i].kind != .cassowary else {
                if replacing { throw RegistryError(description: "'\(spec.name)' is a built-in solver") }
                return  // the first definition wins (working directory before corpus)
            }
            solvers[i] = spec
        } else {
            solvers.append(spec)
        }
    }

    /// The named solvers, in the order given.
    /// - Throws: ``RegistryError`` naming the unknown ones and the known ones.
    public func select(_ names: [String]) throws(RegistryError) -> [SolverSpec] {
        var chosen: [SolverSpec] = []
        for name in names {
            guard let spec = solvers.first(where: { $0.name == name }) else {
                throw RegistryError(description: "unknown solver '\(name)'; known: " + solvers.map(\.name).joined(separator: ", "))
            }
            if !chosen.contains(spec) { chosen.append(spec) }
        }
        return chosen
    }
}
