/// How hard a software encoder works on each frame (`--quality auto` chooses it by timing):
/// its speed preset and whether it spreads one frame over every core.
///
/// Measured on the shared 2-core machine (720p30, x265 ultrafast, 150 frames): quiet, its
/// thread pool encodes 136 fps and one thread 95 fps; with four busy processes beside it the
/// pool fell to 4 fps (36–41 s, 1.8 CPU s: its threads wait on each other, row by row,
/// each wait a scheduler slice) while one thread kept 17–35 fps at the same CPU. So the
/// ladder prefers one thread, and takes the pool only where one thread is too slow (large
/// frames on a quiet machine).
public struct EncoderEffort: Sendable, Equatable, Codable {
    /// The encoder's `speed-preset` (x265enc, x264enc).
    public var preset: String
    /// One encoding thread (x265's `pools=none`) instead of a pool over every core.
    public var oneThread: Bool

    public init(preset: String, oneThread: Bool) {
        self.preset = preset
        self.oneThread = oneThread
    }

    /// For people and the `started` line: "superfast, one thread".
    public var label: String {
        preset + (oneThread ? ", one thread" : ", every core")
    }

    /// The efforts `--quality auto` tries for `factory`, the best picture first, each
    /// cheaper (or, for the last x265 step, faster in wall time on a quiet machine) than the
    /// one before. Empty for encoders it does not time (hardware encoders, jpegenc,
    /// openh264enc): they run as `--quality medium`.
    public static func ladder(for factory: String) -> [EncoderEffort] {
        switch factory {
        case "x265enc":
            [EncoderEffort(preset: "superfast", oneThread: true), EncoderEffort(preset: "ultrafast", oneThread: true),
             EncoderEffort(preset: "ultrafast", oneThread: false)]
        case "x264enc":
            [EncoderEffort(preset: "faster", oneThread: false), EncoderEffort(preset: "veryfast", oneThread: false),
             EncoderEffort(preset: "ultrafast", oneThread: false)]
        default:
            []
        }
    }

    /// The effort of `ladder` with the least CPU a frame: the fastest preset on one thread
    /// (the thread pool costs a little more for the same frames); nil for an empty ladder.
    public static func cheapest(in ladder: [EncoderEffort]) -> EncoderEffort? {
        let fastest = ladder.last?.preset
        return ladder.first { $0.preset == fastest && $0.oneThread } ?? ladder.last
    }
}
