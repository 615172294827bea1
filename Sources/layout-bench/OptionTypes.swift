import ArgumentParser
import BenchHarness
import Foundation

/// `--shard K/N`: run shard K of N (``Shard``). Parsed by
/// swift-argument-parser like any option, so a bad value is a usage error
/// (exit 64) before the command runs.
extension Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `--solvers a,b,c`: solver names, comma-separated and trimmed; a registry
/// resolves them (an unknown name is a usage error there). Empty names are
/// refused here (exit 64).
struct SolverNames: ExpressibleByArgument, CustomStringConvertible, Equatable {
    var names: [String]

    init(_ names: [String]) { self.names = names }

    init?(argument: String) {
        let names = argument.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else { return nil }
        self.names = names
    }

    var description: String { names.joined(separator: ",") }
    var defaultValueDescription: String { description }
}

/// A threshold given as a percentage or a fraction: `25%` or `0.25` (never
/// negative, always finite).
struct Threshold: ExpressibleByArgument, CustomStringConvertible, Equatable {
    /// As a fraction (25% is 0.25).
    var fraction: Double
    /// As written, for help and messages.
    private var text: String

    init(fraction: Double, text: String) {
        self.fraction = fraction
        self.text = text
    }

    init?(argument: String) {
        let trimmed = argument.trimmingCharacters(in: .whitespaces)
        let number = trimmed.hasSuffix("%") ? Double(trimmed.dropLast()).map { $0 / 100 } : Double(trimmed)
        guard let number, number.isFinite, number >= 0 else { return nil }
        fraction = number
        text = trimmed
    }

    var description: String { text }
    var defaultValueDescription: String { text }
}

/// `--format html,csv,md,json`: the report formats, comma-separated.
struct ReportFormats: ExpressibleByArgument, CustomStringConvertible {
    var formats: [ReportWriter.Format]

    init(_ formats: [ReportWriter.Format]) { self.formats = formats }

    init?(argument: String) {
        var formats: [ReportWriter.Format] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let format = ReportWriter.Format(rawValue: name.trimmingCharacters(in: .whitespaces)) else { return nil }
            formats.append(format)
        }
        guard !formats.isEmpty else { return nil }
        self.formats = formats
    }

    var description: String { formats.map(\.rawValue).joined(separator: ",") }
    var defaultValueDescription: String { description }
    static var allValueStrings: [String] { ReportWriter.Format.allCases.map(\.rawValue) }
}

/// `--kind` of `fuzz` and `generate random`.
enum LayoutKindOption: String, CaseIterable, ExpressibleByArgument {
    /// The kind the seed's place in the fuzz cycle gives.
    case cycle
    /// The whole accepted numeric range (``RandomLayoutGenerator/Kind/hostile``).
    case hostile
}
