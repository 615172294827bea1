/// Formats a number the way the `.layout` printer and every text report do:
/// integral values without a fraction (`16`, not `16.0`), others with Swift's
/// shortest representation that reads back to the same `Double`.
///
/// Why shortest-round-trip: the printer promises `parse(print(m)) == m`, which
/// rules out fixed precision.
public func formatNumber(_ value: Double) -> String {
    if value == 0 { return "0" }  // also folds -0 into 0
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return value.description
}

/// Formats a number with at most `decimals` fraction digits (0...9), trailing
/// zeros removed; used for human-facing tables and `expect` lines, never where
/// the value must read back exactly.
public func formatNumber(_ value: Double, maxFractionDigits decimals: Int) -> String {
    let digits = max(0, min(decimals, 9))
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    // Integer arithmetic avoids binary-fraction noise such as 111.66670000000001.
    guard value.isFinite, scaled < 9e15 else { return formatNumber(value) }
    let n = Int64(scaled)
    if n == 0 { return "0" }
    let sign = value < 0 ? "-" : ""
    let integerPart = n / scale
    var fraction = String(n % scale)
    if digits == 0 || n % scale == 0 { return sign + String(integerPart) }
    fraction = String(repeating: "0", count: digits - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(integerPart).\(fraction)"
}
