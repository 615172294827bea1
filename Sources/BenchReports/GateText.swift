import BenchStatistics
import Foundation

/// How the gate's numbers are written, the same in the console and the Markdown.
public enum GateText {
    /// A relative change: `+20.3%`.
    public static func change(_ x: Double) -> String { String(format: "%+.1f%%", x * 100) }

    /// An interval of a relative change: `[+15.1%, +25.8%]`.
    public static func interval(_ i: Interval) -> String { "[\(change(i.low)), \(change(i.high))]" }
}
