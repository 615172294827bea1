import Foundation
import LayoutModel
import LayoutSolving

/// A solver in any language, run as a child process speaking the
/// line-delimited JSON protocol of docs/solver-protocol.md; every answer is
/// validated against it (``WireProtocol``).
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
    /// Whether an answer since ``resetReportedSeconds()`` came without
    /// `time_s`: the span is then not timed (never counted as 0 s).
    public private(set) var missedTime = false

    /// Whether `solve` and `suggest` ask for the free list (`"free": false`
    /// when not). Why a switch: the timing pass does not read the list, and
    /// an adapter's ambiguity search (two LPs per undecided variable in the LP
    /// adapters) would otherwise be charged to every timed solve, where the
    /// built-in solvers are timed without theirs (protocol §3.3 and §7).
    public var listsFreeVariables = true

    public func resetReportedSeconds() {
        reportedSeconds = 0
        missedTime = false
    }
    /// What the solver said about itself in `hello` (nil before it started).
    public private(set) var hello: SolverHello?
    /// The solver's version from `hello`.
    public var version: String { hello?.version ?? "" }

    var channel: SubprocessChannel?
    var layout: Layout?
    var system: LoweredSystem?
    var unsatisfiableRows: [Int] = []

    /// The protocol version this harness speaks.
    public static let protocolVersion = WireProtocol.version

    public init(name: String, command: [String], timeout: Double = 30, workingDirectory: String? = nil) {
        self.name = name
        self.command = command
        self.timeout = timeout
        self.workingDirectory = workingDirectory
    }

    /// The least time a child has to start and answer `hello`, in seconds.
    static let startupTimeout = 10.0

    deinit {
        // `quit` has no answer: send it, close the input, give the child half a second.
        _ = channel?.quit(within: 0.5)
    }

    /// Starts the child and says hello, if not running.
    /// - Throws: ``SolverError`` when it cannot start or its hello is out of protocol.
    public func start() throws(SolverError) {
        if let channel, channel.isRunning, hello != nil { return }
        try launch()
        // Why hello gets its own, longer deadline: it includes the child's
        // start-up (an interpreter importing its solver), which on a loaded
        // machine can take seconds and says nothing about the solver's speed.
        let answer = try call(.object([("op", .string("hello")), ("protocol", .number(Double(Self.protocolVersion)))]),
                              operation: "hello", timeout: max(timeout, Self.startupTimeout))
        do {
            let said = try WireProtocol.hello(answer)
            hello = said
            capabilities = said.capabilities
        } catch {
            stop()
            throw .protocolViolation(solver: name, error)
        }
    }

    /// Starts a new child (stopping any running one), without hello.
    func launch() throws(SolverError) {
        stop()
        hello = nil
        do {
            channel = try SubprocessChannel(command: command, workingDirectory: workingDirectory)
        } catch {
            throw .external(ExternalFailure(solver: name, error))
        }
    }

    /// The number the adapter gave a constraint added in the current load.
    public func adapterHandle(of handle: ConstraintHandle) -> Int? { handle.load == load ? added[handle] : nil }

    /// Kills the child; the next request starts a new one.
    func stop() {
        channel?.terminate()
        channel = nil
    }

    /// One request and its validated answer (`"ok": true`).
    ///
    /// Why an out-of-protocol answer stops the child: after one, nothing
    /// says the next line answers the next request.
    /// - Throws: ``SolverError/external(_:)`` for a dead, hung or declining
    ///   child, ``SolverError/unsupported(_:)`` when it declines as
    ///   `unsupported`, ``SolverError/protocolViolation(solver:_:)`` for an
    ///   answer that breaks the protocol.
    func call(_ request: JSONValue, operation: String, timeout: Double? = nil) throws(SolverError) -> AnswerReader {
        switch try exchange(request, operation: operation, timeout: timeout) {
        case .failure(let declined):
            if declined.unsupported { throw .unsupported("\(name): \(declined.message)") }
            throw .external(ExternalFailure(solver: name, .declined(operation: operation, message: declined.message)))
        case .success(let reader):
            return reader
        }
    }

    /// Sends any request, for conformance checks: nil if the solver answered
    /// `"ok": true` in protocol, its error message if it declined.
    /// - Throws: ``SolverError`` for a dead or hung child or an answer out of protocol.
    /// `hello: false` sends it to a freshly started child before any hello.
    public func request(_ request: JSONValue, operation: String, hello: Bool = true) throws(SolverError) -> String? {
        if hello { try start() } else { try launch() }
        switch try exchange(request, operation: operation) {
        case .failure(let declined): return declined.message
        case .success: return nil
        }
    }

    /// Sends `quit` and waits up to `seconds` for the child to exit.
    /// - Returns: its exit status, or nil if it was still running (then killed).
    public func quit(within seconds: Double) -> Int32? {
        guard let channel else { return nil }
        self.channel = nil
        return channel.quit(within: seconds)
    }

    /// One request and its answer, declined or not; `time_s` accounted.
    func exchange(_ request: JSONValue, operation: String, timeout: Double? = nil) throws(SolverError)
        -> Result<AnswerReader, WireProtocol.Declined> {
        guard let channel else { throw .notLoaded }
        let line: Data
        do {
            line = try channel.request(request.serialized(), operation: operation, timeout: timeout ?? self.timeout)
        } catch {
            self.channel = nil
            throw .external(ExternalFailure(solver: name, error))
        }
        let outcome: Result<(AnswerReader, Double?), WireProtocol.Declined>
        do { outcome = try WireProtocol.envelope(line, operation: operation) } catch {
            stop()
            throw .protocolViolation(solver: name, error)
        }
        switch outcome {
        case .failure(let declined):
            // A declined request is an error or `unsupported` for the phase,
            // never a time, so its `time_s` does not matter.
            return .failure(declined)
        case .success(let (reader, seconds)):
            lastReportedSeconds = seconds
            if let seconds { reportedSeconds += seconds } else { missedTime = true }
            return .success(reader)
        }
    }

    /// Validates an answer's body; a violation stops the child.
    func checked<T>(_ body: () throws(ProtocolViolation) -> T) throws(SolverError) -> T {
        do { return try body() } catch {
            stop()
            throw .protocolViolation(solver: name, error)
        }
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
        func edit(_ component: FrameComponent, _ value: Double) -> JSONValue {
            .object([("variable", .number(Double(FrameVariable(view: 0, component: component).index))), ("value", .number(value))])
        }
        var list: [JSONValue] = [edit(.width, size.width)]
        if let h = size.height { list.append(edit(.height, h)) }
        return .array(list)
    }

    public func prepare(_ layout: ValidatedLayout, variant: String?) throws(SolverError) {
        let system: LoweredSystem
        do { system = try layout.lowered(variant: variant) } catch { throw SolverError(error) }
        try send(system, of: layout.layout)
    }

    public func prepare(_ system: LoweredSystem, of layout: ValidatedLayout) throws(SolverError) {
        guard system.isWellFormed(for: layout.layout) else { throw .mismatchedSystem(variant: system.variant) }
        try send(system, of: layout.layout)
    }

    /// Loads a lowered system (well formed for `layout`) into the process.
    func send(_ system: LoweredSystem, of layout: Layout) throws(SolverError) {
        try start()
        // The container's width and height go as edits, not rows.
        // The lowered row behind each row sent, so that answers map back in O(1).
        let sent = system.constraints.indices.filter {
            system.constraints[$0].origin != .container(.width) && system.constraints[$0].origin != .container(.height)
        }
        let rows = sent.map { system.constraints[$0] }
        if let limit = hello?.maxRows, rows.count > limit {
            throw .unsupported("\(name) accepts at most \(limit) rows (max_rows in its hello); this problem has \(rows.count)")
        }
        self.layout = layout
        self.system = system
        load = LoadID.next()
        added = [:]
        let problem = JSONValue.object([
            ("variables", .array(system.variables.map { .string(system.name(of: $0)) })),
            ("rows", .array(rows.map(Self.rowJSON))),
            ("edits", Self.edits(system.size)),
        ])
        let answer = try call(.object([("op", .string("load")), ("problem", problem)]), operation: "load")
        // Indices into the rows sent; map back to lowered rows.
        let failed = try checked { () throws(ProtocolViolation) in try answer.indices("unsatisfiable", in: 0..<sent.count) }
        unsatisfiableRows = failed.sorted().map { sent[$0] }
    }

    func solution(_ answer: AnswerReader) throws(SolverError) -> Solution {
        guard let layout, let system else { throw .notLoaded }
        let (unsatisfiable, values, free) = try checked { () throws(ProtocolViolation) in
            try WireProtocol.solution(answer, variables: system.variableCount,
                                      ambiguity: (hello?.ambiguity ?? false) && listsFreeVariables)
        }
        // A view is ambiguous when any of its four variables is free; listed
        // in view order, as the built-in solvers list them.
        let ambiguous = unsatisfiable ? nil : free.map { indices -> [String] in
            let views = Set(indices.compactMap { FrameVariable(index: $0)?.view })
            return system.viewNames.indices.filter { views.contains($0) }.map { system.viewNames[$0] }
        }
        let status: Solution.Status = unsatisfiable ? .unsatisfiable : .solved
        let conflict = unsatisfiableRows.map { ConflictMember(origin: system.constraints[$0].origin, in: layout, size: system.size) }
        var solution = Solution(variant: system.variant, status: status, viewNames: system.viewNames, frames: system.frames(values),
                                levels: system.levelErrors(values), ambiguous: ambiguous, conflict: conflict)
        solution.freeVariables = unsatisfiable ? nil : free
        return solution
    }

    public func solve() throws(SolverError) -> Solution {
        try solution(try call(.object([("op", .string("solve"))] + freeField), operation: "solve"))
    }

    /// `"free": false` when the free list is not wanted; nothing otherwise
    /// (the protocol's default), so the request stays as it was before the field.
    var freeField: [(String, JSONValue)] { listsFreeVariables ? [] : [("free", .bool(false))] }

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
        self.system = system.resized(to: size)
        return try solution(try call(.object([("op", .string("suggest")), ("edits", Self.edits(size))] + freeField),
                                     operation: "suggest"))
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
        let theirs = try checked { () throws(ProtocolViolation) in try answer.integer("handle", in: Int(Int32.min)...Int(Int32.max)) }
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
