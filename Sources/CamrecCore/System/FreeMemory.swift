#if canImport(Glibc)
import Glibc
#endif

/// Gives memory the allocator holds free back to the system, now and then.
///
/// When the machine is starved, up to the record queue's 2 s of raw frames wait for the
/// encoder (110 MB at 720p YUYV), copied out of the camera's few buffers into memory from
/// malloc; once the encoder catches up that memory is free but stays in glibc's heaps, so
/// the process keeps the RSS of its worst moment for the rest of a run that may last weeks
/// (measured: 720p camera in 5-s segments under a busy loop on each core, 90 → 195 MB
/// during the load, 152 MB after it; with `malloc_trim(0)` after it, 89 MB).
/// `malloc_trim` is glibc's and not in Swift's Glibc module, so it is looked up once.
public struct FreeMemory: Sendable {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: Trim.self) }

    /// Whether this C library has `malloc_trim` (glibc does; without it nothing is given back).
    public static var isAvailable: Bool { trim != nil }

    /// glibc's `malloc_trim(0)`: every arena's free pages back to the system.
    public static let mallocTrim: @Sendable () -> Void = { _ = trim?(0) }

    private let interval: Duration
    private var last: ContinuousClock.Instant
    private let release: @Sendable () -> Void

    /// Gives memory back (with `release`) at most once per `interval`, the first time
    /// `interval` after `start`.
    public init(every interval: Duration = .seconds(30), start: ContinuousClock.Instant = .now,
                release: @escaping @Sendable () -> Void = FreeMemory.mallocTrim) {
        self.interval = interval
        self.last = start
        self.release = release
    }

    /// Gives the free memory back if `interval` has passed since the last time; a few
    /// milliseconds at most, so call it off the streaming threads.
    public mutating func releaseIfDue(_ now: ContinuousClock.Instant) {
        guard now - last >= interval else { return }
        last = now
        release()
    }
}
