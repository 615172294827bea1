/// The hash of a name's bytes, eight bytes at a time: the hash of the
/// parser's name table (``NameTable``, which mixes the two words of a name
/// of at most sixteen bytes itself and uses ``hash(_:count:)`` for longer ones).
///
/// Why not ``FNV1a``: FNV-1a is a multiply per byte, each waiting for the
/// previous one (a chain of 3-cycle multiplies: 33 cycles for `row1234_left`);
/// this is a multiply per eight bytes plus a final mix. Names are short
/// identifiers, so the words are one or two loads. Like FNV-1a it is for
/// tables of one file's names, not for keys an adversary picks to collide.
enum NameHash {
    // Why computed, not stored: a stored static is a lazily initialised
    // global with a once-guard.
    static var multiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }
    static var finalMultiplier: UInt64 { 0xD6E8_FEB8_6659_FD93 }

    /// The hash of `count` bytes at `base`. Reads only those bytes.
    ///
    /// - Complexity: O(`count`).
    @inline(__always)
    static func hash(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        var h = UInt64(truncatingIfNeeded: count) &* multiplier
        var i = 0
        while i + 8 <= count {
            h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* multiplier
            i += 8
        }
        let rest = count - i
        if rest > 0 {
            // Why overlapping loads for the tail: no byte loop, and every byte
            // of the tail is in the word (the count, mixed in first, tells
            // names whose tails overlap differently apart).
            var tail: UInt64
            if count >= 8 {
                tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64(8 * (8 - rest))
            } else if rest >= 4 {
                let low = UInt64(base.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                tail = low | high << 32
            } else {
                let first = UInt64(base.load(fromByteOffset: i, as: UInt8.self))
                let middle = UInt64(base.load(fromByteOffset: i + rest / 2, as: UInt8.self))
                let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
                tail = first | middle << 8 | last << 16
            }
            h = (h ^ tail) &* multiplier
        }
        // Why a final mix: tables take the low bits, and a product's low bits
        // depend only on its factors' low bits.
        h ^= h >> 32
        h = h &* finalMultiplier
        return h ^ (h >> 29)
    }

    /// The hash of no bytes (what ``hash(_:count:)`` gives for 0).
    static var emptyHash: UInt64 {
        var h: UInt64 = 0
        h ^= h >> 32
        h = h &* finalMultiplier
        return h ^ (h >> 29)
    }

    /// The first `min(count, 8)` bytes at `start` as a little-endian word,
    /// zero above them. One load where eight bytes can be read without
    /// passing the end of `bytes`, a byte loop near the end.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        if start &+ 8 <= bytes.count, let base = UnsafeRawPointer(bytes.baseAddress) {
            let w = base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            return count >= 8 ? w : w & ((1 &<< UInt64(8 &* count)) &- 1)
        }
        var w: UInt64 = 0
        for k in 0..<min(count, 8) { w |= UInt64(bytes[start + k]) &<< UInt64(8 &* k) }
        return w
    }
}
