import BenchSchema
import Foundation

/// Regressions that a commit makes on purpose, written down with it and
/// reviewed with it (`Reports/baselines/acknowledged.json`), as rustc-perf's
/// triage marks a regression justified: the A/B gate reports them as
/// *acknowledged*, with the reason, instead of failing.
///
/// Each entry names the **base commit** it was measured against, so it covers
/// exactly the change from that commit: once a later commit is gated against
/// a newer base, the entry no longer applies, and nothing is accepted twice.
/// Why not a looser rule (a threshold, a list of cases): the gate's job is to
/// catch what nobody meant; an acknowledgment must say what was meant, where,
/// and why.
///
/// ```json
/// {"acknowledged": [{"base": "2778d22", "metric": "allocations/*", "subject": "* cassowary",
///                    "reason": "external rows as a DAG: ..."}]}
/// ```
public struct Acknowledgments: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        /// The base commit (a prefix of at least 7 hex digits) the change was measured against.
        public var base: String
        /// A glob over the finding's metric (`time/load, all cases`, `allocations/load`, `pivots`, ...).
        public var metric: String
        /// A glob over the finding's subject (`CASE SOLVER`, or the solver for an aggregate).
        public var subject: String
        /// Why the regression is intended (printed with it).
        public var reason: String

        public init(base: String, metric: String, subject: String, reason: String) {
            self.base = base
            self.metric = metric
            self.subject = subject
            self.reason = reason
        }

        /// Whether the entry was measured against `commit` (a full or abbreviated hash).
        func applies(to commit: String) -> Bool {
            base.count >= 7 && commit.lowercased().hasPrefix(base.lowercased())
        }
    }

    public var acknowledged: [Entry]

    public init(acknowledged: [Entry]) { self.acknowledged = acknowledged }

    /// Reads the file; a missing file is no acknowledgments.
    /// - Throws: ``BaselineError``-style messages as `Acknowledgments.Invalid` for a file that is not one.
    public static func read(_ path: String) throws(Invalid) -> Acknowledgments {
        guard FileManager.default.fileExists(atPath: path) else { return Acknowledgments(acknowledged: []) }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let value = try JSONDecoder().decode(Acknowledgments.self, from: data)
            if let bad = value.acknowledged.first(where: { $0.base.count < 7 || $0.reason.trimmingCharacters(in: .whitespaces).isEmpty }) {
                throw Invalid(path: path, reason: "entry for '\(bad.metric)' / '\(bad.subject)': base needs 7+ hex digits and reason must not be empty")
            }
            return value
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(path: path, reason: "not an acknowledgments file: \(error)")
        }
    }

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The report with every regression that an entry for `base` covers
    /// turned into an acknowledged finding (its reason appended to the
    /// subject); everything else unchanged.
    public func applied(to report: GateReport, base commit: String) -> GateReport {
        let entries = acknowledged.filter { $0.applies(to: commit) }
        guard !entries.isEmpty else { return report }
        var out = report
        out.findings = Gate.inReportOrder(report.findings.map { finding in
            guard finding.kind == .regression,
                  let entry = entries.first(where: { Glob.matches(finding.metric, $0.metric) && Glob.matches(finding.subject, $0.subject) })
            else { return finding }
            var acknowledged = finding
            acknowledged.kind = .acknowledged
            acknowledged.subject += " (acknowledged: \(entry.reason))"
            return acknowledged
        })
        return out
    }
}
