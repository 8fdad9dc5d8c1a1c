import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// On an interactive terminal, single keys control a recording: `s` takes a still, `c`
/// makes an event clip (with `--pre-roll`/`--post-roll`), `q` stops. The terminal is put in non-canonical, no-echo mode while recording and restored
/// afterwards.
public final class KeyboardControl: Sendable {
    /// The terminal's settings before recording, put back by `restore()`.
    private let saved: termios
    private let active: Bool

    /// Starts listening when stdin is a terminal; does nothing otherwise.
    public init(onStill: @escaping @Sendable () -> Void, onStop: @escaping @Sendable () -> Void,
         onClip: @escaping @Sendable () -> Void = {}) {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            self.saved = saved
            active = false
            return
        }
        self.saved = saved
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
        guard active else { return }
        NamedThread.start("camrec-keys") {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                switch byte {
                case UInt8(ascii: "s"), UInt8(ascii: "S"): onStill()
                case UInt8(ascii: "c"), UInt8(ascii: "C"): onClip()
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): onStop()
                default: continue
                }
            }
        }
    }

    /// Restores the terminal.
    public func restore() {
        if active { _ = withUnsafePointer(to: saved) { tcsetattr(STDIN_FILENO, TCSANOW, $0) } }
    }
}
