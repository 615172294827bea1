import Foundation
import ArgumentParser

/// `--shard K/N`: run shard K of N (cases i with i mod N == K - 1).
/// Parsed by swift-argument-parser like any option, so a bad value is a usage
/// error (exit 64) before the command runs.
struct Shard: ExpressibleByArgument, CustomStringConvertible, Equatable {
    /// 1...count.
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    /// Whether the case at `offset` (in corpus order) belongs to this shard.
    func contains(offset: Int) -> Bool { offset % count == index - 1 }

    var description: String { "\(index)/\(count)" }
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
