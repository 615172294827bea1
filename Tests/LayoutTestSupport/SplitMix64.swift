import SeededRandom

/// The seeded generator of every randomised test (SplitMix64, shared with
/// the generated families), so each test is replayable from its seed.
public typealias SplitMix64 = SplitMix
