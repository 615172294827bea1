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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendNumber(value, maxFractionDigits: decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// Appends ``formatNumber(_:maxFractionDigits:)``'s text to `out` as UTF-8.
///
/// Why bytes: a text answer formats four numbers a view, and building each
/// from Strings (the fraction's digits, its padding, its trailing zeros
/// taken off one at a time) was 4% of a whole `solve` of the grid at
/// R = 1,000.
/// - Complexity: O(digits).
public func appendNumber(_ value: Double, maxFractionDigits decimals: Int, to out: inout [UInt8]) {
    let digits = max(0, min(decimals, 9))
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    // Integer arithmetic avoids binary-fraction noise such as 111.66670000000001.
    guard value.isFinite, scaled < 9e15 else { out.append(contentsOf: formatNumber(value).utf8); return }
    let n = Int64(scaled)
    if n == 0 { out.append(UInt8(ascii: "0")); return }
    if value < 0 { out.append(UInt8(ascii: "-")) }
    let integerPart = n / scale
    var divisor: Int64 = 1
    while divisor <= integerPart / 10 { divisor *= 10 }
    while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(integerPart / divisor % 10))
        divisor /= 10
    }
    var fraction = n % scale
    guard digits > 0, fraction != 0 else { return }
    // Trailing zeros off, then the rest with its leading zeros.
    var count = digits
    while fraction % 10 == 0 {
        fraction /= 10
        count -= 1
    }
    out.append(UInt8(ascii: "."))
    divisor = 1
    for _ in 1..<count { divisor *= 10 }
    while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
        divisor /= 10
    }
}
