// Pass 2 of a large file split between threads: the file is cut into
// chunks of lines, each chunk after the first is read by the plain readers
// (PlainLines.swift) on a thread of its own, writing its constraints and
// expectations straight into its region of the arrays being built
// (ValueSlots.swift), and the main thread parses the first chunk, then,
// chunk by chunk, takes the chunk's views and content lines and parses
// itself whatever lines that chunk's thread left.
//
// Why only the plain readers on the other threads: they append to four
// arrays (views, constraints, expectations, content lines) and report
// nothing, so a chunk's results are a contiguous run of those arrays and
// the runs in chunk order are exactly the arrays one thread would have
// built. A chunk's thread stops at the first line the plain
// readers decline (a metric, a `when`, a visual format line, an error):
// from that line on the main thread parses the chunk with every reader, in
// order, so diagnostics, the error limit and every other declaration come
// out as they would sequentially. A file whose lines are mostly plain (every
// generated family; docs/measurements.md#m-2026-11-27-parallel-parse) gets
// the chunks' time off the main thread; any other file loses nothing but
// a thread start.
//
// Why not names shared between the threads: each chunk interns into a table
// of its own. The tables only make each distinct name a `String` once per
// chunk; the layout holds strings, which compare by their bytes, so the
// result does not depend on which table made them.

import LayoutModel

extension LayoutParser {
    /// The threads a parse may use: ``availableThreads`` (processors
    /// online, or `LAYOUT_BENCH_THREADS`), at most four (the chunks' results
    /// are appended by one thread, so more threads stop paying well before
    /// the processors run out).
    static let defaultParseThreads = min(4, availableThreads)

    /// A chunk is worth a thread from this many bytes (1 MiB): below it the
    /// thread's start and the appends cost about what the chunk's parse does.
    static let minimumChunkBytes = 1 << 20

    /// The main thread's chunk, as a share of an equal share of the lines
    /// (``chunkStarts(lineStarts:byteCount:threads:minimumChunkBytes:)``).
    static let firstChunkShare = 0.9
}

/// Where pass 2's chunks start: line numbers (1-based), the first chunk
/// starting at line 1. The main thread's chunk gets ``firstChunkShare`` of an
/// equal share of the lines, the others equal shares of the rest.
///
/// Why lines, not bytes: a line costs about the same to read whatever its
/// length (a grid's constraint line of 37 bytes about 1,600 instructions,
/// its expectation line of 60 bytes 1,800), and a grid's expectations are at
/// its end: cut at equal bytes, the first chunk had more lines and the
/// main thread finished last (155 against 129 ms at 10^5 rows).
/// Why a smaller first chunk: the main thread also does pass 1 and the
/// line scan before the other threads start, and the views' and content
/// lines' appends after. Measured with the values written in place (no
/// moves left to the main thread), 0.9 was faster than 1.0 and 1.1 at 10^4
/// and 10^5 grid rows (docs/measurements.md#m-2026-11-28-parse-in-place).
///
/// - Complexity: O(chunks).
func chunkStarts(lineStarts: [Int], byteCount: Int, threads: Int, minimumChunkBytes: Int) -> [Int] {
    guard !lineStarts.isEmpty else { return [1] }
    let chunks = chunkCount(byteCount: byteCount, threads: threads, minimumChunkBytes: minimumChunkBytes)
    guard chunks > 1 else { return [1] }
    let lines = lineStarts.count
    let first = Int(Double(lines / chunks) * LayoutParser.firstChunkShare)
    var starts = [1]
    for k in 1..<chunks {
        let line = 1 + first + (lines - first) / (chunks - 1) * (k - 1)
        if line <= lines, line > starts[starts.count - 1] { starts.append(line) }
    }
    return starts
}

/// How many chunks a file of `byteCount` bytes is cut into: one a thread,
/// each at least `minimumChunkBytes` (fewer when the file has fewer lines).
/// - Complexity: O(1).
func chunkCount(byteCount: Int, threads: Int, minimumChunkBytes: Int) -> Int {
    max(1, min(threads, byteCount / max(1, minimumChunkBytes)))
}

/// One chunk of lines read by the plain readers on a thread of its own,
/// its values written in its regions of the arrays being built
/// (ValueSlots.swift).
///
/// Why `@unchecked Sendable`: the chunk is written by its thread only
/// between ``start()`` and ``join()``, and read by the main thread only
/// after ``join()``, which orders the two (``WorkerThread``). Its regions
/// are disjoint from every other chunk's.
final class PlainChunk: @unchecked Sendable {
    /// The chunk's own parser: its regions get the chunk's values, its
    /// arrays the views and content lines.
    /// Why unchecked: one thread at a time uses the chunk (above), and the
    /// runtime's check of each access (three a line) cost more than a line's
    /// hand-over did.
    @exclusivity(unchecked) var parser: FileParser
    let lines: Range<Int>
    /// The metric lines of the file, ascending (pass 1 read them).
    let metricLines: [Int]
    let bytes: UnsafeBufferPointer<UInt8>
    /// The first line the plain readers declined, or `lines.upperBound`:
    /// the main thread parses the chunk from here.
    private(set) var resumeLine: Int
    private var thread: WorkerThread?

    init(source: SourceText, bytes: UnsafeBufferPointer<UInt8>, lines: Range<Int>, metricLines: [Int],
         constraints: ValueSlots<LayoutConstraint> = ValueSlots(), expectations: ValueSlots<Expectation> = ValueSlots()) {
        self.parser = FileParser(source: source, readsPlainLines: true)
        self.bytes = bytes
        self.lines = lines
        self.metricLines = metricLines
        self.resumeLine = lines.lowerBound
        parser.constraints = constraints
        parser.expectations = expectations
    }

    /// Reads the chunk's lines until the first one the plain readers
    /// decline, writing their values in the chunk's regions.
    ///
    /// - Complexity: O(bytes of the lines read).
    func read() {
        var nextMetric = 0
        while nextMetric < metricLines.count, metricLines[nextMetric] < lines.lowerBound { nextMetric += 1 }
        for line in lines {
            if nextMetric < metricLines.count, metricLines[nextMetric] == line {
                resumeLine = line
                return
            }
            // Blank and comment lines declare nothing (the general parser
            // returns at once on them); the plain readers decline them.
            if isBlankOrComment(line) { continue }
            if !parser.parsePlainLine(bytes, line: line) {
                resumeLine = line
                return
            }
        }
        resumeLine = lines.upperBound
    }

    private func isBlankOrComment(_ line: Int) -> Bool {
        var i = parser.source.lineStarts[line - 1]
        let end = parser.source.lineRange(line).upperBound
        while i < end, Lexer.isBlank(bytes[i]) { i += 1 }
        return i >= end || bytes[i] == UInt8(ascii: "#")
    }

    private var standby: StandbyThread?

    /// Starts ``read()`` on `standby` when given (a thread started ahead,
    /// ``LayoutParser/parseSyntax(bytes:fileName:)``), else on a thread of
    /// its own (on the calling thread when no thread can be made: the result
    /// is the same).
    func start(on standby: StandbyThread? = nil) {
        if let standby {
            self.standby = standby
            standby.run { [self] in read() }
            return
        }
        let worker = WorkerThread { [self] in read() }
        thread = worker
        worker.start()
    }

    /// Waits for ``read()`` to finish.
    func join() {
        standby?.join()
        standby = nil
        thread?.join()
        thread = nil
    }
}
