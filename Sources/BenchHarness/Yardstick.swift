// The yardstick: a fixed workload timed beside the solvers, whose median
// says how fast the machine was during a run (the gate's drift correction).

extension Runner {
    /// The yardstick: a fixed workload with the ingredients of solver work
    /// (hashing into a table larger than the L1 cache, dependent
    /// floating-point arithmetic, small allocations), sampled throughout the
    /// timing pass like a solver. Its median tells how fast the machine was
    /// during this run, for the gate's drift correction.
    ///
    /// Why its own code: a yardstick must not change when the product does
    /// (the parser, the solvers and GLPK's wrapper all do). Why no Swift
    /// `Dictionary`: its hash seed differs per process, and so would the
    /// yardstick. Why not the reference solver: its times are partly thread
    /// wake-ups, which do not slow down as CPU-bound work does (evidence:
    /// docs/measurements.md#m-gate-baseline).
    /// - Returns: a value that depends on all the work (keeps it from being optimised away).
    public static func yardstick() -> Double {
        // 4,096 slots: two 32 KiB arrays, beyond L1 but below glibc's mmap
        // threshold (128 KiB); larger arrays were mapped and zero-filled by the
        // kernel on every call, and the yardstick then measured page faults
        // and moved between processes far more than the solvers did
        // (evidence: docs/measurements.md#m-gate-baseline).
        let size = 1 << 12
        var keys = [Int](repeating: -1, count: size)
        var values = [Double](repeating: 0, count: size)
        var sum = 0.0
        for i in 0..<3_000 {
            var slot = (i &* 0x9E37_79B9) & (size - 1)
            while keys[slot] != -1 && keys[slot] != i { slot = (slot + 1) & (size - 1) }
            keys[slot] = i
            values[slot] = Double(i) * 1.000_001
        }
        for i in stride(from: 0, to: 6_000, by: 2) {
            var slot = (i &* 0x9E37_79B9) & (size - 1)
            while keys[slot] != -1 && keys[slot] != i { slot = (slot + 1) & (size - 1) }
            if keys[slot] == i { sum += values[slot] }
        }
        var chain = [Double](repeating: 1.0001, count: 2048)
        for round in 0..<4 {
            for i in chain.indices { chain[i] = chain[i] * 1.000_000_1 + Double((i ^ round) & 7) * 1e-9 }
        }
        var boxes: [[Int]] = []
        boxes.reserveCapacity(256)
        for i in 0..<256 { boxes.append([i, i &+ 1]) }
        return sum + chain[17] + Double(boxes[255][1])
    }

}
