import AllocationCounter

/// Heap allocations of this process (every thread), counted by the
/// `AllocationCounter` interposer, for the harness's allocation figures.
public enum Allocations {
    /// Whether counting is in effect: glibc, no sanitizer, and the dynamic
    /// linker routing shared libraries' allocations to the counter. Probed once.
    public static let counting: Bool = lb_allocation_counting() != 0

    /// Allocations so far (0 for ever when not ``counting``).
    public static var count: UInt64 { lb_allocation_count() }

    /// The allocations `body` makes, or nil when not ``counting``.
    ///
    /// - Throws: whatever `body` throws.
    public static func made<E: Error>(by body: () throws(E) -> Void) throws(E) -> UInt64? {
        guard counting else {
            try body()
            return nil
        }
        let before = count
        try body()
        return count &- before
    }
}
