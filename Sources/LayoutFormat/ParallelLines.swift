// Pass 2 of a large file split between threads: the file is cut into
// chunks of lines, each chunk after the first is read by the plain readers
// (PlainLines.swift) on a thread of its own, and the main thread parses the
// first chunk, then takes each other chunk's results in order and parses
// itself whatever lines that chunk's thread left.
//
// Why only the plain readers on the other threads: they append to four
// arrays (views, constraints, expectations, content lines) and report
// nothing, so a chunk's results are a contiguous run of those arrays and
// appending the runs in chunk order gives exactly the arrays one thread
// would have built. A chunk's thread stops at the first line the plain
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
/// Why a smaller first chunk: the main thread also moves the other chunks'
/// results, as they come (``PlainChunk/moveResults(into:)``); done first, it
/// moves them while the others still read, where done last it moved them
/// alone after everyone. (Before the runs were sent as they fill, a smaller
/// first chunk only left the main thread waiting:
/// docs/measurements.md#m-2026-11-27-parallel-parse.)
///
/// - Complexity: O(chunks).
func chunkStarts(lineStarts: [Int], byteCount: Int, threads: Int, minimumChunkBytes: Int) -> [Int] {
    guard !lineStarts.isEmpty else { return [1] }
    let chunks = max(1, min(threads, byteCount / max(1, minimumChunkBytes)))
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

/// A full run of a chunk's values, as its thread sends it.
enum ChunkRun {
    case constraints(ValueRun<LayoutConstraint>)
    case expectations(ValueRun<Expectation>)
}

/// One chunk of lines read by the plain readers on a thread of its own.
///
/// Why `@unchecked Sendable`: the chunk is written by its thread only
/// between ``start()`` and ``join()``, and read by the main thread only
/// after ``join()``, which orders the two (``WorkerThread``); the runs are
/// the exception, handed over through a channel (``BlockChannel``, a mutex
/// and a condition variable), each run written before it is sent and read
/// only after it is received.
final class PlainChunk: @unchecked Sendable {
    /// The chunk's own parser: its arrays hold the chunk's results.
    /// Why unchecked: one thread at a time uses the chunk (above), and the
    /// runtime's check of each access (three a line) cost more than a line's
    /// hand-over to the runs.
    @exclusivity(unchecked) var parser: FileParser
    let lines: Range<Int>
    /// The metric lines of the file, ascending (pass 1 read them).
    let metricLines: [Int]
    let bytes: UnsafeBufferPointer<UInt8>
    /// The first line the plain readers declined, or `lines.upperBound`:
    /// the main thread parses the chunk from here.
    private(set) var resumeLine: Int
    private var thread: WorkerThread?
    /// The chunk's constraints and expectations, in order, in runs of
    /// ``runBytes`` (``ValueRun``), each sent as soon as it is full (the
    /// last when the chunk is read): the main thread moves them into its
    /// arrays as they come, freeing each run once moved.
    ///
    /// Why runs: appending one array of the whole chunk held both copies at
    /// once (`check` of 10^5 grid rows peaked at 291 MB against 221 MB on one
    /// thread), and copying the values cost the main thread about 200
    /// instructions a constraint while the other threads were done.
    /// Why sent while the chunk is read: the main thread, done with its own
    /// chunk, moves the runs while this thread still reads (the moves and
    /// the page faults of the arrays they fill were 34 ms after both were
    /// done, on a 10^5-row grid); moved only after the join, they were the
    /// main thread's alone.
    /// Why one channel for both kinds: the main thread takes each run as it
    /// comes; with a channel each, it waited on the constraints' to the end
    /// while the expectations' runs piled up, and moved those last, alone.
    let runs = BlockChannel<ChunkRun>(capacity: .max)
    /// The size of a run: 4 MiB, about 32,000 constraints. Small, so that
    /// the process holds little beyond one copy while the runs are moved
    /// (each is mapped and unmapped by itself); large enough that making
    /// one is rare. (Tests pass a few hundred bytes, to cross run ends.)
    static let runBytes = 4 << 20
    private let runBytes: Int

    init(source: SourceText, bytes: UnsafeBufferPointer<UInt8>, lines: Range<Int>, metricLines: [Int],
         runBytes: Int = PlainChunk.runBytes) {
        self.parser = FileParser(source: source, readsPlainLines: true)
        self.bytes = bytes
        self.lines = lines
        self.metricLines = metricLines
        self.resumeLine = lines.lowerBound
        self.runBytes = runBytes
        // Why a small reserve: a plain line appends one value, which
        // ``read()`` moves to a run at once.
        parser.constraints.reserveCapacity(4)
        parser.expectations.reserveCapacity(4)
    }

    /// Reads the chunk's lines until the first one the plain readers
    /// decline, sending each run when it is full and the last ones at the
    /// end (the channel is finished then, whichever way the read ends).
    ///
    /// - Complexity: O(bytes of the lines read).
    func read() {
        // Why the current runs in locals: each use of a class's stored
        // property is a dynamic exclusivity check.
        var constraints: ValueRun<LayoutConstraint>?
        var expectations: ValueRun<Expectation>?
        defer {
            if let constraints, constraints.count > 0 { _ = runs.send([.constraints(constraints)]) }
            if let expectations, expectations.count > 0 { _ = runs.send([.expectations(expectations)]) }
            runs.finish()
        }
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
            take(&parser.constraints, into: &constraints) { .constraints($0) }
            take(&parser.expectations, into: &expectations) { .expectations($0) }
        }
        resumeLine = lines.upperBound
    }

    /// Moves what a line appended to `values` (a plain line appends at most
    /// one) to the current run, sending the run (made a ``ChunkRun`` by
    /// `kind`) and starting another when it is full.
    ///
    /// Why `popLast`: it takes the value out of the array without a copy,
    /// and the array keeps its storage for the next line.
    /// - Complexity: O(values moved).
    @inline(__always)
    private func take<T>(_ values: inout [T], into run: inout ValueRun<T>?, kind: (ValueRun<T>) -> ChunkRun) {
        guard !values.isEmpty else { return }
        if values.count > 1 {
            // Not from the plain readers today; kept in order all the same.
            for value in values { append(value, to: &run, kind: kind) }
            values.removeAll(keepingCapacity: true)
            return
        }
        if let value = values.popLast() { append(value, to: &run, kind: kind) }
    }

    private func append<T>(_ value: consuming T, to run: inout ValueRun<T>?, kind: (ValueRun<T>) -> ChunkRun) {
        if let full = run, full.isFull {
            // The channel never refuses: nothing cancels it (its capacity is unbounded).
            _ = runs.send([kind(full)])
            run = nil
        }
        if run == nil { run = ValueRun<T>(capacity: max(1, runBytes / MemoryLayout<T>.stride)) }
        run?.append(value)
    }

    private func isBlankOrComment(_ line: Int) -> Bool {
        var i = parser.source.lineStarts[line - 1]
        let end = parser.source.lineRange(line).upperBound
        while i < end, Lexer.isBlank(bytes[i]) { i += 1 }
        return i >= end || bytes[i] == UInt8(ascii: "#")
    }

    /// Starts ``read()`` on a thread of its own (on the calling thread when
    /// no thread can be made: the result is the same).
    func start() {
        let worker = WorkerThread { [self] in read() }
        thread = worker
        worker.start()
    }

    /// Waits for ``read()`` to finish.
    func join() {
        thread?.join()
        thread = nil
    }

    /// Appends the chunk's results to `target`'s arrays, in order, freeing
    /// each run once moved and leaving the chunk empty: the runs as the
    /// chunk's thread sends them, then (after the join) the rest.
    ///
    /// - Complexity: O(results of the chunk).
    func moveResults(into target: inout FileParser) {
        while let block = runs.receive() {
            for run in block {
                switch run {
                case .constraints(let values): values.move(into: &target.constraints)
                case .expectations(let values): values.move(into: &target.expectations)
                }
            }
        }
        join()
        target.views.append(contentsOf: parser.views)
        target.contentLines.append(contentsOf: parser.contentLines)
        target.constraints.append(contentsOf: parser.constraints)
        target.expectations.append(contentsOf: parser.expectations)
        parser = FileParser(source: parser.source)
    }
}
