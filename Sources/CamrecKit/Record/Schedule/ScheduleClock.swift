import CProcess
import CWallTimer
#if canImport(Glibc)
import Glibc
#endif

/// Why a wait on a ``ScheduleClock`` ended.
public enum ClockWake: Sendable, Equatable {
    /// The wall clock reached the moment waited for.
    case reached
    /// The wall clock was set (stepped forward or back): the moment must be worked out again.
    case clockSet
    /// ``ScheduleClock/wake()`` was called (a stop was asked for).
    case woken
}

/// The clock a scheduled run reads and waits on: the system's (`SystemScheduleClock`), or
/// in tests one whose time they set and step.
public protocol ScheduleClock: Sendable {
    /// The wall clock and the steady clock, now.
    func now() -> ClockReading
    /// Blocks until the wall clock reads `deadline`, the wall clock is set, or `wake()` is
    /// called (also when it was called before this wait began and not yet answered).
    func wait(until deadline: WallTime) -> ClockWake
    /// Ends the current or the next wait with `.woken`.
    func wake()
}

/// The system's clocks: a wait is a `timerfd` on CLOCK_REALTIME with an absolute time
/// and TFD_TIMER_CANCEL_ON_SET, so that it ends when the wall clock reaches the moment,
/// however the clock got there (NTP slewing or stepping it, a suspend), and at once when
/// the clock is set; `wake()` writes to a pipe polled beside it. No polling loop.
public final class SystemScheduleClock: ScheduleClock {
    private let timer: Int32
    /// The wake pipe's ends (both close-on-exec, so no `--on-file` command holds them).
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// The clocks; fails when the kernel gives no timerfd or pipe.
    public init() throws(CamrecError) {
        timer = camrec_wall_timer()
        var ends: [Int32] = [-1, -1]
        let piped = camrec_pipe(&ends) == 0
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        guard timer >= 0, piped else {
            let reason = String(cString: strerror(errno))
            for fd in [timer, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
            throw CamrecError(.failure, "--schedule: cannot create a timer (\(reason))")
        }
    }

    deinit {
        close(timer)
        close(wakeRead)
        close(wakeWrite)
    }

    public func now() -> ClockReading {
        var steady = timespec()
        clock_gettime(CLOCK_BOOTTIME, &steady)
        return ClockReading(wall: .now(), steady: Int64(steady.tv_sec) * 1_000_000_000 + Int64(steady.tv_nsec))
    }

    public func wait(until deadline: WallTime) -> ClockWake {
        guard camrec_wall_timer_arm(timer, deadline.seconds, Int(deadline.nanoseconds)) == 0 else {
            // The clock was set between reading it and arming the timer.
            return errno == ECANCELED ? .clockSet : .reached
        }
        var fds = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .reached
            }
            if fds[1].revents != 0 {
                var byte: UInt8 = 0
                _ = read(wakeRead, &byte, 1)
                return .woken
            }
            var expirations: UInt64 = 0
            if read(timer, &expirations, 8) < 0 {
                if errno == ECANCELED { return .clockSet }
                // Not yet (EAGAIN): poll again.
                continue
            }
            return .reached
        }
    }

    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
