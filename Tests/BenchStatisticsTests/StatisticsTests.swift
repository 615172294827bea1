import BenchStatistics
import Foundation
import SeededRandom
import Testing

@Suite("Statistics")
struct StatisticsTests {
    /// A standard normal draw (Box–Muller) from the seeded generator.
    static func normal(_ g: inout SplitMix) -> Double {
        let u = (Double(g.next() >> 11) + 0.5) / Double(1 << 53)
        let v = (Double(g.next() >> 11) + 0.5) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    @Test("summary: median, p90 only from 10 samples, extremes")
    func summary() throws {
        let s = try #require(TimingSummary([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]))
        #expect(s.minimum == 1 && s.maximum == 10 && s.median == 5.5 && s.p90 == 9 && s.count == 10)
        #expect(TimingSummary([]) == nil)
        // Below 10 samples the 90th percentile would be the maximum: not reported.
        #expect(TimingSummary([2, 1, 3])?.p90 == nil)
        #expect(TimingSummary([2, 1, 3])?.median == 2)
    }

    @Test("normal quantiles")
    func quantiles() {
        #expect(abs(Confidence.z(0.95) - 1.959964) < 1e-5)
        #expect(abs(Confidence.z(0.99) - 2.575829) < 1e-5)
        #expect(abs(Confidence.z(0.6826895) - 1) < 1e-5)
    }

    /// Against published tables of Student's t (two-sided).
    @Test("Student t quantiles")
    func studentT() {
        #expect(abs(Confidence.t(0.95, degreesOfFreedom: 1) - 12.7062) < 1e-3)
        #expect(abs(Confidence.t(0.99, degreesOfFreedom: 5) - 4.0321) < 1e-3)
        #expect(abs(Confidence.t(0.95, degreesOfFreedom: 10) - 2.2281) < 1e-3)
        #expect(abs(Confidence.t(0.999, degreesOfFreedom: 3) - 12.9240) < 1e-3)
        #expect(abs(Confidence.t(0.99, degreesOfFreedom: 1e7) - Confidence.z(0.99)) < 1e-6)
        #expect(Confidence.t(0.99, degreesOfFreedom: 0) == .infinity)
    }

    /// The median's interval covers the true median at least as often as
    /// designed, for a skewed distribution (exponential, median ln 2) and
    /// for the log-normal timings look like.
    @Test("order-statistic interval of the median: coverage as designed on skewed samples")
    func medianCoverage() throws {
        var g = SplitMix(seed: 11)
        for (n, level) in [(15, 0.95), (50, 0.95), (200, 0.99)] {
            var covered = 0
            let trials = 1000
            for _ in 0..<trials {
                let samples = (0..<n).map { _ in -log((Double(g.next() >> 11) + 0.5) / Double(1 << 53)) }
                let i = try #require(Confidence.median(samples, level: level))
                if i.low <= log(2.0) && log(2.0) <= i.high { covered += 1 }
            }
            let rate = Double(covered) / Double(trials)
            // The sign-test interval is conservative (discrete ranks): at least
            // the level, less a binomial margin of three standard errors.
            let margin = 3 * (level * (1 - level) / Double(trials)).squareRoot()
            #expect(rate >= level - margin, "n \(n) at \(level): covered \(rate)")
            #expect(rate <= 1.0)
        }
    }

    @Test("bootstrap interval of a mean: coverage close to the level")
    func bootstrapCoverage() throws {
        var g = SplitMix(seed: 5)
        var covered = 0
        let trials = 400
        for t in 0..<trials {
            let values = (0..<20).map { _ in 0.3 + 0.1 * Self.normal(&g) }
            let i = try #require(Bootstrap.mean(values, level: 0.95, resamples: 1000, seed: UInt64(t)))
            if i.low <= 0.3 && 0.3 <= i.high { covered += 1 }
        }
        // The percentile bootstrap is slightly liberal at n = 20 (about 93%).
        let rate = Double(covered) / Double(trials)
        #expect(rate > 0.90 && rate < 0.99, "covered \(rate)")
        // Deterministic: the same seed gives the same interval.
        #expect(Bootstrap.mean([1, 2, 3, 4], seed: 9) == Bootstrap.mean([1, 2, 3, 4], seed: 9))
        #expect(Bootstrap.mean([]) == nil)
    }

    @Test("bootstrap interval of any statistic: whole observations resampled, undefined resamples skipped")
    func bootstrapStatistic() throws {
        let values = [0.9, 1.4, 1.1, 0.7, 1.3, 1.0]
        // The mean's interval is this one with the mean as the statistic.
        let mean = try #require(Bootstrap.mean(values, level: 0.95, seed: 3))
        let general = try #require(Bootstrap.interval(count: values.count, level: 0.95, seed: 3) { indices in
            indices.reduce(0) { $0 + values[$1] } / Double(values.count)
        })
        #expect(general.low == mean.low && general.high == mean.high)
        #expect(mean.low < mean.estimate && mean.estimate < mean.high)
        // Paired series: b is a with each observation doubled, so every
        // resample's ratio of means is 2 whatever the spread of a.
        let b = values.map { 2 * $0 }
        let ratio = try #require(Bootstrap.interval(count: values.count) { indices in
            indices.reduce(0) { $0 + b[$1] } / indices.reduce(0) { $0 + values[$1] }
        })
        #expect(abs(ratio.low - 2) < 1e-12 && abs(ratio.high - 2) < 1e-12)
        // Below two observations, or a statistic mostly undefined: no interval.
        #expect(Bootstrap.interval(count: 1) { _ in 1 } == nil)
        #expect(Bootstrap.interval(count: 5) { $0.contains(0) ? nil : 1 } == nil)  // 0 drawn in 67% of resamples
        #expect(Bootstrap.interval(count: 5) { $0.allSatisfy { $0 == 0 } ? nil : 1 }?.low == 1)
    }

    @Test("standard deviation")
    func deviation() {
        #expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9]) == (32.0 / 7).squareRoot())
        #expect(standardDeviation([3]) == 0)
    }
}
