import Foundation

/// The mean Y, U and V of a frame of a movie or photo, decoded by ffmpeg (not camrec), over
/// the picture below the emulated camera's stamp band, so that tests check what a control
/// did to the picture and not only that an ioctl was made.
struct PictureMeans: CustomStringConvertible {
    var y: Double
    var u: Double
    var v: Double

    var description: String { String(format: "Y %.1f U %.1f V %.1f", y, u, v) }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Frame `frame` (0-based) of `path`: a movie, or a photo (frame 0).
    static func of(_ path: String, frame: Int = 0) throws -> PictureMeans {
        let (w, h) = (64, 48)
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", path,
            "-vf", "select=eq(n\\,\(frame)),crop=iw:ih*3/4:0:ih/8,scale=\(w):\(h)",
            "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv444p", "-",
        ])
        let bytes = [UInt8](result.stdout)
        guard result.status == 0, bytes.count == w * h * 3 else {
            throw Failure(description: "ffmpeg decoded \(bytes.count) bytes of \(path) frame \(frame): \(result.stderr)")
        }
        func mean(_ plane: Int) -> Double {
            Double(bytes[(plane * w * h)..<((plane + 1) * w * h)].reduce(0) { $0 + Int($1) }) / Double(w * h)
        }
        return PictureMeans(y: mean(0), u: mean(1), v: mean(2))
    }

    /// Presentation times of every frame of `path` (ffprobe), in seconds.
    static func frameTimes(_ path: String) throws -> [Double] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path,
        ])
        guard result.status == 0 else { throw Failure(description: "ffprobe cannot read \(path): \(result.stderr)") }
        return result.stdoutText.split(whereSeparator: \.isNewline).compactMap { Double($0.split(separator: ",")[0]) }
    }
}
