// The lowering of a large layout on a thread of its own, a block of rows
// ahead of the consumer that loads them (an incremental solver).
//
// Why: the native solver's load of a large layout spent a quarter of its
// instructions lowering constraints (1,974 of 7,650 a constraint on the
// 10^4 grid: names to view indices, attributes to terms, terms sorted), work
// that depends on nothing the solver does. On a second processor it
// overlaps the solver's insertions
// (docs/measurements.md#m-2026-11-27-pipelined-lowering). The consumer sees
// the same rows, in the same order, with `start` first, and may stop at any
// row, exactly as with ``Layout/lowerChecked(variant:start:visit:)`` on one
// thread.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Layout {
    /// Layouts with at least this many constraints are lowered on a thread
    /// of their own when a second processor is online: below it, a thread
    /// and its hand-overs cost about what the overlap saves.
    package static let pipelinedLoweringThreshold = 20_000

    /// Rows in a block handed to the consumer, and blocks that may wait.
    static let loweringBlock = 2_048
    static let loweringBlocksAhead = 4

    /// ``lowerChecked(variant:start:visit:)`` with the lowering on a thread
    /// of its own and `start` and `visit` on the calling thread.
    /// - Throws: ``LoweringError/unknownVariant(_:)``.
    /// - Complexity: O(*v* + *c*), plus the visits.
    func lowerPipelined(variant name: String?, structural: Bool = false, start: (LoweredSystem, LoweringStart) -> Void,
                        visit: (LoweredConstraint) -> Bool) throws(LoweringError) -> LoweredSystem {
        let channel = BlockChannel<LoweredConstraint>(capacity: Self.loweringBlocksAhead)
        // Written by the producer before its first block or its finish,
        // read by the consumer after receiving (the channel's lock orders them).
        let outcome = LoweringOutcome()
        let layout = self
        let producer = WorkerThread {
            var block: [LoweredConstraint] = []
            block.reserveCapacity(Self.loweringBlock)
            do throws(LoweringError) {
                let header = try layout.lowerChecked(variant: name, structural: structural, start: { system, plan in
                    outcome.start = (system, plan)
                }, visit: { row in
                    block.append(row)
                    guard block.count >= Self.loweringBlock else { return true }
                    let sent = channel.send(block)
                    block = []
                    block.reserveCapacity(Self.loweringBlock)
                    return sent
                })
                if !block.isEmpty { _ = channel.send(block) }
                outcome.result = .success(header)
            } catch {
                outcome.result = .failure(error)
            }
            channel.finish()
        }
        producer.start()
        var started = false
        var stopped = false
        while let rows = channel.receive() {
            if !started, let (system, plan) = outcome.start {
                start(system, plan)
                started = true
            }
            for row in rows where !visit(row) {
                stopped = true
                break
            }
            if stopped {
                channel.cancel()
                break
            }
        }
        producer.join()
        // A layout without rows sends no block: `start` still comes first.
        if !started, let (system, plan) = outcome.start { start(system, plan) }
        switch outcome.result {
        case .success(let header): return header
        case .failure(let error): throw error
        case nil: throw .unknownVariant(name ?? Layout.defaultVariantName)
        }
    }
}

/// What the lowering thread leaves for the consumer.
/// Why `@unchecked Sendable`: written by the producer before the channel
/// hands over its first block (or its finish), read by the consumer after.
private final class LoweringOutcome: @unchecked Sendable {
    var start: (LoweredSystem, LoweringStart)?
    var result: Result<LoweredSystem, LoweringError>?
}
