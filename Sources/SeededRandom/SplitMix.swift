// The project's one seeded generator, in a module of its own so that the
// layout generators need no statistics and the statistics no layouts.

/// SplitMix64, the project's one seeded generator (layouts, fuzzing, the
/// bootstrap): small, fast, and the same sequence on every platform (the
/// standard library's generator is neither seeded nor stable).
public struct SplitMix: RandomNumberGenerator, Sendable {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in the range (modulo bias is irrelevant here).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
