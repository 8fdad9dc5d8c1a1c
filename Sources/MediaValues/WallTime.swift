#if canImport(Glibc)
import Glibc
#endif

/// A moment on the wall clock (CLOCK_REALTIME), to the nanosecond.
public struct WallTime: Sendable, Equatable, Comparable {
    /// Whole seconds since the Unix epoch.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1e9.
    public var nanoseconds: Int64

    public init(seconds: Int64, nanoseconds: Int64) {
        // Normalised, so that the seconds field is the second the moment falls in.
        let carry = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        self.seconds = seconds + carry
        self.nanoseconds = nanoseconds - carry * 1_000_000_000
    }

    /// The moment `nanoseconds` later (earlier when negative).
    public func adding(nanoseconds delta: Int64) -> WallTime {
        WallTime(seconds: seconds, nanoseconds: nanoseconds + delta)
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Now, on the wall clock.
    public static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }
}
