import Foundation

/// The repository's `Corpus/` files, found from this source file's path.
enum CorpusFiles {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func all() throws -> [String] {
        let corpus = root.appendingPathComponent("Corpus")
        let names = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".layout") }.sorted().map { corpus.appendingPathComponent($0).path }
    }
}
