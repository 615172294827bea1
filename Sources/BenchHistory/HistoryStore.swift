import BenchSchema
import Foundation
import GRDB

/// The history of every recorded run: an SQLite database (through GRDB), one
/// row per run and per case x variant x solver x phase, for the trend
/// dashboard and regression search.
///
/// Schema (version 1, migrated by GRDB's migrator; the identity table says the
/// file is ours and which version wrote it):
/// - `layout_bench_history(schema, version)`: one row;
/// - `run(id, commit_id, commit_time, started, finished, cpu, cores, os, swift, glpk,
///   yardstick_s, settings, solvers, source, digest)`, unique on the digest of the results;
/// - `timing(run_id, case_name, variant, solver, phase, median_s, low_s, high_s, n)`;
/// - `verdict(run_id, case_name, variant, solver, verdict)`;
/// - `counter(run_id, case_name, solver, name, value)`.
///
/// Why WAL (a `DatabasePool`): shards of one run record at once from separate
/// processes; readers never block the writer, and with a busy timeout two
/// writers wait for each other instead of failing.
public final class HistoryStore {
    public static let schemaName = "layout-bench/history"
    public static let currentVersion = 1

    /// Why a history file cannot be used; the file is left as it was.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// Not an SQLite database at all (or unreadable).
        case notADatabase(String)
        /// An SQLite database of someone else's.
        case foreign(String)
        /// Written by a newer layout-bench.
        case newer(String, version: Int)
        /// SQLite reports damage.
        case corrupt(String, detail: String)
        /// Any other database error, with its message.
        case database(String)

        public var description: String {
            switch self {
            case .notADatabase(let path): return "\(path): not an SQLite database (a layout-bench history is one); left untouched"
            case .foreign(let path): return "\(path): an SQLite database, but not a layout-bench history; left untouched"
            case .newer(let path, let version):
                return "\(path): a history of schema version \(version), newer than this layout-bench reads (\(currentVersion)); left untouched"
            case .corrupt(let path, let detail): return "\(path): the database is damaged (\(detail)); left untouched"
            case .database(let message): return "history: \(message)"
            }
        }
    }

    let pool: DatabasePool
    public let path: String

    /// Opens (creating if needed) the history at `path`, after checking that
    /// an existing file is a history of a version this code reads.
    /// - Throws: ``Failure`` without changing the file.
    public init(path: String) throws(Failure) {
        self.path = path
        if FileManager.default.fileExists(atPath: path) { try Self.check(path) }
        var configuration = Configuration()
        // Two shards recording at once wait for each other.
        configuration.busyMode = .timeout(30)
        do {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw .database("\(path): \(error)")
        }
    }

    /// Refuses a file that is not ours, newer, or damaged, reading it only.
    static func check(_ path: String) throws(Failure) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .notADatabase(path) }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if header.isEmpty { return }  // an empty file: a new database
        guard header == Data("SQLite format 3\u{0}".utf8) else { throw .notADatabase(path) }
        var configuration = Configuration()
        configuration.readonly = true
        // Why a busy timeout here too: another process may be writing (two
        // `history add` at once); without one, its lock made this check call a
        // good history "not an SQLite database" (seen under load in the tests).
        configuration.busyMode = .timeout(30)
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: path, configuration: configuration) } catch { throw .notADatabase(path) }
        do {
            try queue.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "?"
                guard check == "ok" else { throw Failure.corrupt(path, detail: check) }
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if tables.isEmpty { return }
                guard tables.contains("layout_bench_history"),
                      let row = try Row.fetchOne(db, sql: "SELECT schema, version FROM layout_bench_history LIMIT 1"),
                      (Self.value(row, "schema") as String?) == schemaName else { throw Failure.foreign(path) }
                let version: Int = Self.value(row, "version") ?? 0
                if version > currentVersion { throw Failure.newer(path, version: version) }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .corrupt(path, detail: "\(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "layout_bench_history") { t in
                t.column("schema", .text).notNull()
                t.column("version", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO layout_bench_history (schema, version) VALUES (?, ?)", arguments: [schemaName, 1])
            try db.create(table: "run") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("commit_id", .text)
                t.column("commit_time", .text)
                t.column("started", .text).notNull()
                t.column("finished", .text).notNull()
                t.column("cpu", .text).notNull()
                t.column("cores", .integer).notNull()
                t.column("os", .text).notNull()
                t.column("swift", .text).notNull()
                t.column("glpk", .text).notNull()
                t.column("yardstick_s", .double)
                t.column("settings", .text).notNull()
                t.column("solvers", .text).notNull()
                t.column("source", .text).notNull()
                // Why a digest of the whole document and not its start time:
                // two shards of one run start within the same second.
                t.column("digest", .text).notNull().unique()
            }
            try db.create(table: "timing") { t in
                t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
                t.column("case_name", .text).notNull()
                t.column("variant", .text).notNull()
                t.column("solver", .text).notNull()
                t.column("phase", .text).notNull()
                t.column("median_s", .double).notNull()
                t.column("low_s", .double)
                t.column("high_s", .double)
                t.column("n", .integer).notNull()
            }
            try db.create(index: "timing_series", on: "timing", columns: ["solver", "phase", "case_name"])
            try db.create(table: "verdict") { t in
                t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
                t.column("case_name", .text).notNull()
                t.column("variant", .text).notNull()
                t.column("solver", .text).notNull()
                t.column("verdict", .text).notNull()
            }
            try db.create(table: "counter") { t in
                t.column("run_id", .integer).notNull().references("run", onDelete: .cascade)
                t.column("case_name", .text).notNull()
                t.column("solver", .text).notNull()
                t.column("name", .text).notNull()
                t.column("value", .double).notNull()
            }
        }
        return migrator
    }

    /// Records a run in one transaction (an interrupted add leaves nothing).
    /// - Parameters:
    ///   - source: where the results came from (a path), for the record.
    ///   - commitTime: the commit's date (ISO 8601), which orders the history; nil: the run's start.
    /// - Returns: the run's id, or nil if this run was recorded before (nothing is added twice).
    /// - Throws: ``Failure/database(_:)``.
    /// - Complexity: O(timings + verdicts + counters) inserts.
    @discardableResult
    public func add(_ document: ResultsDocument, source: String, commitTime: String?) throws(Failure) -> Int64? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let settings = String(decoding: try encoder.encode(document.settings), as: UTF8.self)
            let solvers = String(decoding: try encoder.encode(document.solvers.map { [$0.name, $0.hello?.version ?? $0.kind] }),
                                 as: UTF8.self)
            let digest = Self.digest(try encoder.encode(document))
            return try pool.write { db -> Int64? in
                try db.execute(sql: """
                    INSERT INTO run (commit_id, commit_time, started, finished, cpu, cores, os, swift, glpk, yardstick_s, settings, solvers, source, digest)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """, arguments: [document.machine.commit, commitTime ?? document.started, document.started, document.finished,
                                     document.machine.cpu, document.machine.cores, document.machine.os, document.machine.swift,
                                     document.machine.glpk, document.yardstick?.median, settings, solvers, source, digest])
                guard db.changesCount > 0 else { return nil }
                let id = db.lastInsertedRowID
                let timing = try db.makeStatement(sql: """
                    INSERT INTO timing (run_id, case_name, variant, solver, phase, median_s, low_s, high_s, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let verdict = try db.makeStatement(sql: "INSERT INTO verdict (run_id, case_name, variant, solver, verdict) VALUES (?, ?, ?, ?, ?)")
                let counter = try db.makeStatement(sql: "INSERT INTO counter (run_id, case_name, solver, name, value) VALUES (?, ?, ?, ?, ?)")
                for c in document.cases {
                    // The timing pass times the default variant (README, "Timing").
                    let variant = c.variants.first ?? "default"
                    for t in c.timings {
                        try timing.execute(arguments: [id, c.name, variant, t.solver, t.phase.rawValue, t.median,
                                                       t.median_ci?.first, t.median_ci?.last, t.n])
                    }
                    for r in c.results { try verdict.execute(arguments: [id, c.name, r.variant, r.solver, r.verdict.rawValue]) }
                    for (solver, values) in c.counters.sorted(by: { $0.key < $1.key }) {
                        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                            try counter.execute(arguments: [id, c.name, solver, name.rawValue, value])
                        }
                    }
                }
                return id
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .database("\(path): \(error)")
        }
    }

    /// FNV-1a, 64 bits, of the document's canonical JSON (keys sorted): the
    /// same results recorded twice are one run.
    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// A recorded run, as the dashboard orders them.
    public struct RunInfo: Sendable, Equatable {
        public var id: Int64
        public var commit: String?
        public var commitTime: String
        public var started: String
        public var cpu: String
    }

    /// A column's value, or nil when it is NULL or of another type. Why not
    /// GRDB's typed subscripts: they stop the process on a value that does not
    /// convert, and a history file is user data (edited by hand, written by a
    /// newer tool); a row that does not read is left out instead.
    static func value<T: DatabaseValueConvertible>(_ row: Row, _ column: String) -> T? {
        T.fromDatabaseValue(row[column] as DatabaseValue)
    }

    /// Every run, by commit time, then start.
    public func runs() throws(Failure) -> [RunInfo] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT id, commit_id, commit_time, started, cpu FROM run ORDER BY commit_time, started, id").compactMap {
                    guard let id: Int64 = Self.value($0, "id"), let started: String = Self.value($0, "started") else { return nil }
                    return RunInfo(id: id, commit: Self.value($0, "commit_id"), commitTime: Self.value($0, "commit_time") ?? started,
                                   started: started, cpu: Self.value($0, "cpu") ?? "?")
                }
            }
        } catch { throw .database("\(path): \(error)") }
    }

    /// One timing of one run.
    public struct Point: Sendable, Equatable {
        public var run: Int64
        public var caseName: String
        public var solver: String
        public var phase: String
        public var median: Double
        public var low: Double?
        public var high: Double?
    }

    /// Timings, optionally of one solver, phase and case.
    public func timings(solver: String? = nil, phase: String? = nil, caseName: String? = nil) throws(Failure) -> [Point] {
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        if let solver { conditions.append("solver = ?"); arguments.append(solver) }
        if let phase { conditions.append("phase = ?"); arguments.append(phase) }
        if let caseName { conditions.append("case_name = ?"); arguments.append(caseName) }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT run_id, case_name, solver, phase, median_s, low_s, high_s FROM timing \(filter)",
                                 arguments: StatementArguments(arguments)).compactMap {
                    guard let run: Int64 = Self.value($0, "run_id"), let caseName: String = Self.value($0, "case_name"),
                          let solver: String = Self.value($0, "solver"), let phase: String = Self.value($0, "phase"),
                          let median: Double = Self.value($0, "median_s"), median.isFinite else { return nil }
                    return Point(run: run, caseName: caseName, solver: solver, phase: phase, median: median,
                                 low: Self.value($0, "low_s"), high: Self.value($0, "high_s"))
                }
            }
        } catch { throw .database("\(path): \(error)") }
    }

    /// Per run and solver: verdicts that pass (or are unsupported or a weighted divergence) and all verdicts.
    public func passRates() throws(Failure) -> [(run: Int64, solver: String, passing: Int, total: Int)] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT run_id, solver, SUM(CASE WHEN verdict IN ('fail', 'error') THEN 0 ELSE 1 END) AS passing, COUNT(*) AS total
                    FROM verdict GROUP BY run_id, solver ORDER BY run_id, solver
                    """).compactMap { row -> (run: Int64, solver: String, passing: Int, total: Int)? in
                    guard let run: Int64 = Self.value(row, "run_id"), let solver: String = Self.value(row, "solver"),
                          let passing: Int = Self.value(row, "passing"), let total: Int = Self.value(row, "total") else { return nil }
                    return (run, solver, passing, total)
                }
            }
        } catch { throw .database("\(path): \(error)") }
    }

    /// Per run and solver, the sum of one counter over the cases.
    public func counterTotals(_ name: String) throws(Failure) -> [(run: Int64, solver: String, total: Double)] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT run_id, solver, SUM(value) AS total FROM counter WHERE name = ? GROUP BY run_id, solver ORDER BY run_id, solver",
                                 arguments: [name]).compactMap { row -> (run: Int64, solver: String, total: Double)? in
                    guard let run: Int64 = Self.value(row, "run_id"), let solver: String = Self.value(row, "solver"),
                          let total: Double = Self.value(row, "total") else { return nil }
                    return (run, solver, total)
                }
            }
        } catch { throw .database("\(path): \(error)") }
    }
}
