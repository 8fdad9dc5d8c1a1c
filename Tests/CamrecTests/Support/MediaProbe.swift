import Foundation

/// What ffprobe and ffmpeg (independent of camrec and GStreamer) say about a movie.
struct MediaProbe {
    var codec: String
    var pixelFormat: String
    var width: Int
    var height: Int
    /// Frames counted by decoding (`-count_frames`).
    var frames: Int
    /// The container's duration in seconds.
    var duration: Double
    var formatName: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Probes the first video stream of `path`.
    static func probe(_ path: String) throws -> MediaProbe {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames:format=duration,format_name",
            "-of", "json", path,
        ])
        guard result.status == 0,
              let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
              let stream = (object["streams"] as? [[String: Any]])?.first
        else { throw Failure(description: "ffprobe cannot read \(path): \(result.stderr)") }
        let format = object["format"] as? [String: Any] ?? [:]
        return MediaProbe(
            codec: stream["codec_name"] as? String ?? "",
            pixelFormat: stream["pix_fmt"] as? String ?? "",
            width: stream["width"] as? Int ?? 0,
            height: stream["height"] as? Int ?? 0,
            frames: Int(stream["nb_read_frames"] as? String ?? "") ?? 0,
            duration: Double(format["duration"] as? String ?? "") ?? 0,
            formatName: format["format_name"] as? String ?? "")
    }

    /// What `ffmpeg -v error` prints while decoding the whole file (empty: a clean decode).
    static func decodeErrors(_ path: String) throws -> String {
        let result = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
        return result.stderr + (result.status == 0 ? "" : "ffmpeg exited with \(result.status)")
    }

    /// The top-level MP4 boxes of `path`, e.g. ["ftyp", "moov", "mdat"].
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count {
                size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = data.count - offset
            }
            boxes.append(type)
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }
}
