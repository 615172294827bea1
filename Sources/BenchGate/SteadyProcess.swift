import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The steady environment of a timing process: Swift's hashing with a fixed
/// seed and no address-space randomisation.
///
/// Why: with a per-process hash seed and randomised addresses, the order of
/// hashed work and the placement of the heap change from process to process,
/// and cassowary's solve phase moved between processes of unchanged code
/// many times more than with both fixed (evidence:
/// docs/measurements.md#m-gate-ab). That stability used to be
/// the caller's job (`SWIFT_DETERMINISTIC_HASHING=1 setarch -R` in front of
/// `run`); it is the tool's: `run` re-executes itself in this environment,
/// and the A/B gate starts both binaries in it.
public enum SteadyProcess {
    /// Set to 1 in a steady process (so it does not re-execute again), or to
    /// 0 by a user who wants the process as it is.
    public static let marker = "LAYOUT_BENCH_STEADY"
    /// Linux's `ADDR_NO_RANDOMIZE` personality flag (sys/personality.h).
    static let addressNoRandomize: UInt = 0x0040000

    /// The variables a steady child process gets, added to `environment`.
    public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var out = environment
        out["SWIFT_DETERMINISTIC_HASHING"] = "1"
        out[marker] = "1"
        return out
    }

    /// Turns off address randomisation for the programs this process will
    /// execute (the personality is inherited by children and applies at exec).
    /// - Returns: false where the system does not allow it (then processes run
    ///   randomised, as before; nothing else changes).
    @discardableResult
    public static func disableAddressRandomization() -> Bool {
        #if os(Linux)
        // personality(2) is not in the Glibc module; look it up by name.
        typealias Personality = @convention(c) (UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "personality") else { return false }
        let personality = unsafeBitCast(symbol, to: Personality.self)
        let current = personality(0xffff_ffff)
        guard current >= 0 else { return false }
        if UInt(current) & addressNoRandomize != 0 { return true }
        return personality(UInt(current) | addressNoRandomize) >= 0
        #else
        return false
        #endif
    }

    /// Re-executes this program in the steady environment, unless it already
    /// is (or the user set LAYOUT_BENCH_STEADY=0). Returns only when it does
    /// not re-execute (already steady, opted out, or exec failed).
    public static func reexecuteIfNeeded(arguments: [String] = CommandLine.arguments) {
        let environment = ProcessInfo.processInfo.environment
        guard environment[marker] == nil else { return }
        guard disableAddressRandomization() else { return }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        setenv(marker, "1", 1)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv("/proc/self/exe", argv)
        // exec failed: go on as we are (the timings are merely less steady).
        for pointer in argv { free(pointer) }
    }
}
