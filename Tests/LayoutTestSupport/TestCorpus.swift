import Foundation

/// The repository's `Corpus/`, found from this source file's path, for tests
/// that run over every corpus file (new files are picked up automatically).
public enum TestCorpus {
    /// The repository root.
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every `.layout` file under `Corpus/`, sorted.
    public static func files() -> [String] {
        let corpus = root.appendingPathComponent("Corpus")
        let names = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".layout") }.sorted().map { corpus.appendingPathComponent($0).path }
    }

    /// A file under `Corpus/`, e.g. `path("seed/alternating-grid.layout")`.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent("Corpus").appendingPathComponent(relative).path
    }
}
