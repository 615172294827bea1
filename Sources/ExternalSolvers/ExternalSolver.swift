import Foundation
import LayoutModel
import LayoutSolving

/// A solver in any language, run as a child process speaking the
/// line-delimited JSON protocol described in the README ("External solvers").
///
/// The container's width and height are sent as edits, so a resize is a
/// `suggest`; a variant switch reloads. Times in results are the solver's own
/// (`time_s` in its answers), so the IPC and JSON cost is not charged to it.
public final class ExternalSolver: LayoutSolver {
    public let name: String
    public let command: [String]
    public private(set) var capabilities = SolverCapabilities(incremental: false, editVariables: false,
                                                              prioritySemantics: .weighted, ambiguityAnalysis: false,
                                                              conflictExplanation: false)
    /// Seconds to wait for any one answer.
    public var timeout: Double
    public var workingDirectory: String?
    /// The solver's own time for the last operation (`time_s`), if it said.
    public private(set) var lastReportedSeconds: Double?
    /// The solver's own times summed since ``resetReportedSeconds()``.
    public private(set) var reportedSeconds = 0.0

    public func resetReportedSeconds() { reportedSeconds = 0 }
    /// What the solver said about itself in `hello`.
    public private(set) var version: String = ""

    var channel: SubprocessChannel?
    var layout: Layout?
    var system: LoweredSystem?
    var unsatisfiableRows: [Int] = []

    /// The protocol version this harness speaks.
    public static let protocolVersion = 1

    public init(name: String, command: [String], timeout: Double = 30, workingDirectory: String? = nil) {
        self.name = name
        self.command = command
        self.timeout = timeout
        self.workingDirectory = workingDirectory
    }

    /// The least time a child has to start and answer `hello`, in seconds.
    static let startupTimeout = 10.0

    deinit {
        if let channel { _ = try? channel.request("{\"op\":\"quit\"}", operation: "quit", timeout: 0.5) }
        channel?.terminate()
    }

    /// Starts the child and says hello, if not running.
    func ensureStarted() throws(SolverError) {
        if let channel, channel.isRunning { return }
        do {
            channel = try SubprocessChannel(command: command, workingDirectory: workingDirectory)
        } catch {
            throw .external("\(name): \(error)")
        }
        // Why hello gets its own, longer deadline: it includes the child's
        // start-up (an interpreter importing its solver), which on a loaded
        // machine can take seconds and says nothing about the solver's speed.
        let hello = try call(.object([("op", .string("hello")), ("protocol", .number(Double(Self.protocolVersion)))]),
                             operation: "hello", timeout: max(timeout, Self.startupTimeout))
        version = hello["version"] as? String ?? ""
        let semantics = (hello["semantics"] as? String) == "lexicographic" ? SolverCapabilities.PrioritySemantics.lexicographic : .weighted
        capabilities = SolverCapabilities(incremental: hello["incremental"] as? Bool ?? false,
                                          editVariables: hello["edits"] as? Bool ?? false,
                                          prioritySemantics: semantics, ambiguityAnalysis: false, conflictExplanation: false)
    }

    /// One request and its answer as a JSON object with `"ok": true`.
    func call(_ request: JSONValue, operation: String, timeout: Double? = nil) throws(SolverError) -> [String: Any] {
        guard let channel else { throw .notLoaded }
        let answer: Data
        do {
            answer = try channel.request(request.serialized(), operation: operation, timeout: timeout ?? self.timeout)
        } catch {
            self.channel = nil
            throw .external("\(name): \(error)")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any] else {
            channel.terminate()
            self.channel = nil
            throw .external("\(name): answered out of protocol: " + String(decoding: answer.prefix(200), as: UTF8.self))
        }
        guard object["ok"] as? Bool == true else {
            throw .external("\(name): \(operation) failed: \(object["error"] as? String ?? "no reason given")")
        }
        lastReportedSeconds = (object["time_s"] as? NSNumber)?.doubleValue
        reportedSeconds += lastReportedSeconds ?? 0
        return object
    }

    static func rowJSON(_ row: LoweredConstraint) -> JSONValue {
        .object([
            ("terms", .array(row.expression.terms.map { .array([.number(Double($0.variable.index)), .number($0.coefficient)]) })),
            ("constant", .number(row.expression.constant)),
            ("relation", .string(row.relation.symbol)),
            ("priority", .number(row.priority.rawValue)),
        ])
    }

    static func edits(_ size: ContainerSize) -> JSONValue {
        var list: [JSONValue] = [.object([("variable", .number(2)), ("value", .number(size.width))])]
        if let h = size.height { list.append(.object([("variable", .number(3)), ("value", .number(h))])) }
        return .array(list)
    }

    public func prepare(_ layout: Layout, variant: String?) throws(SolverError) {
        let system: LoweredSystem
        do { system = try layout.lowered(variant: variant) } catch { throw SolverError(error) }
        try send(system, of: layout)
    }

    public func prepare(_ system: LoweredSystem, of layout: Layout) throws(SolverError) {
        guard system.isWellFormed(for: layout) else { throw .mismatchedSystem(variant: system.variant) }
        try send(system, of: layout)
    }

    /// Loads a lowered system (well formed for `layout`) into the process.
    func send(_ system: LoweredSystem, of layout: Layout) throws(SolverError) {
        try ensureStarted()
        self.layout = layout
        self.system = system
        load = LoadID.next()
        added = [:]
        // The container's width and height go as edits, not rows.
        // The lowered row behind each row sent, so that answers map back in O(1).
        let sent = system.constraints.indices.filter {
            system.constraints[$0].origin != .container(.width) && system.constraints[$0].origin != .container(.height)
        }
        let rows = sent.map { system.constraints[$0] }
        let problem = JSONValue.object([
            ("variables", .array(system.variables.map { .string(system.name(of: $0)) })),
            ("rows", .array(rows.map(Self.rowJSON))),
            ("edits", Self.edits(system.size)),
        ])
        let answer = try call(.object([("op", .string("load")), ("problem", problem)]), operation: "load")
        // Indices into the rows sent; map back to lowered rows.
        let failed = (answer["unsatisfiable"] as? [NSNumber])?.map(\.intValue) ?? []
        unsatisfiableRows = failed.compactMap { sent.indices.contains($0) ? sent[$0] : nil }
    }

    func solution(_ answer: [String: Any]) throws(SolverError) -> Solution {
        guard let layout, let system else { throw .notLoaded }
        guard let raw = answer["values"] as? [NSNumber], raw.count == system.variableCount else {
            throw .external("\(name): expected \(system.variableCount) values")
        }
        let values = raw.map(\.doubleValue)
        guard values.allSatisfy(\.isFinite) else { throw .external("\(name): non-finite values") }
        let status: Solution.Status = (answer["status"] as? String) == "unsatisfiable" ? .unsatisfiable : .solved
        let conflict = unsatisfiableRows.map { ConflictMember(origin: system.constraints[$0].origin, in: layout, size: system.size) }
        return Solution(variant: system.variant, status: status, viewNames: system.viewNames, frames: system.frames(values),
                        levels: system.levelErrors(values), ambiguous: nil, conflict: conflict)
    }

    public func solve() throws(SolverError) -> Solution {
        try solution(try call(.object([("op", .string("solve"))]), operation: "solve"))
    }

    public func resize(to size: ContainerSize) throws(SolverError) -> Solution {
        guard let layout, let system else { throw .notLoaded }
        try size.validatedForResize()
        // A change between a fixed and an `auto` height changes the edits: reload.
        if (size.height == nil) != (system.size.height == nil) || !capabilities.editVariables {
            var resized = layout
            resized.container = size
            resized.variants = resized.variants.map { var v = $0; if v.name == system.variant { v.size = size }; return v }
            try prepare(resized, variant: system.variant == Layout.defaultVariantName ? nil : system.variant)
            self.layout = layout
            return try solve()
        }
        self.system = system.withContainerSize(size)
        return try solution(try call(.object([("op", .string("suggest")), ("edits", Self.edits(size))]), operation: "suggest"))
    }

    public func switchVariant(to variant: String?) throws(SolverError) -> Solution {
        guard let layout else { throw .notLoaded }
        try prepare(layout, variant: variant)
        return try solve()
    }

    /// The current load, and the adapter's handle of each constraint added in it.
    var load = LoadID.next()
    var added: [ConstraintHandle: Int] = [:]
    var nextIndex = 0

    public func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> ConstraintHandle {
        guard capabilities.incremental else { throw .unsupported("\(name) does not add constraints incrementally") }
        guard let layout, let system else { throw .notLoaded }
        let row = try layout.loweredRow(of: constraint, variant: system.variant)
        let answer = try call(.object([("op", .string("add")), ("row", Self.rowJSON(row))]), operation: "add")
        guard let theirs = (answer["handle"] as? NSNumber)?.intValue else { throw .external("\(name): add without a handle") }
        nextIndex += 1
        let handle = ConstraintHandle(load: load, index: nextIndex)
        added[handle] = theirs
        return handle
    }

    public func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) {
        guard capabilities.incremental else { throw .unsupported("\(name) does not remove constraints incrementally") }
        guard handle.load == load, let theirs = added.removeValue(forKey: handle) else { throw .staleHandle(handle) }
        _ = try call(.object([("op", .string("remove")), ("handle", .number(Double(theirs)))]), operation: "remove")
    }
}
