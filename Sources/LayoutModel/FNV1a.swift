/// FNV-1a, 64 bits: the one byte hash of the project (the parser's name
/// table, ``NameIndex``, the digest of a case list). Why FNV-1a: names are
/// short, and it is a multiply and an xor per byte with no setup, where
/// `Hasher` (SipHash) costs more than the probe it serves. Not for anything
/// an adversary chooses the keys of to slow a table down on purpose: tables
/// built with it are per file and bounded by the file size.
public enum FNV1a {
    /// The offset basis.
    @inlinable public static var seed: UInt64 { 0xcbf2_9ce4_8422_2325 }

    /// One byte mixed in.
    @inlinable @inline(__always)
    public static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

    /// The hash of a byte sequence.
    @inlinable
    public static func hash<S: Sequence>(_ bytes: S, from start: UInt64 = seed) -> UInt64 where S.Element == UInt8 {
        var hash = start
        for b in bytes { hash = step(hash, b) }
        return hash
    }
}
