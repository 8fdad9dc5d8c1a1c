import Foundation

/// Independent checks of a movie with ffprobe/ffmpeg (tests only).
enum FFprobe {
    struct Frame {
        var pts: Double
        var isKey: Bool
    }

    struct Packet {
        var pts: Double?
        var dts: Double?
        var isKey: Bool
    }

    /// Decoded video frames in presentation order (pts_time, key flag).
    static func videoFrames(_ path: String) throws -> [Frame] {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time,key_frame", "-of", "csv=p=0", path,
        ])
        return output.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { return nil }
            // Order of fields follows ffprobe's frame section: key_frame, pts_time.
            let key = fields[0] == "1"
            guard let pts = Double(fields[1]) else { return nil }
            return Frame(pts: pts, isKey: key)
        }.sorted { $0.pts < $1.pts }
    }

    /// Packets of a stream in file (decode) order.
    static func packets(_ path: String, stream: String = "v:0") throws -> [Packet] {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,flags", "-of", "csv=p=0", path,
        ])
        return output.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Packet(
                pts: fields.count > 0 ? Double(fields[0]) : nil, dts: fields.count > 1 ? Double(fields[1]) : nil,
                isKey: fields.count > 2 && fields[2].hasPrefix("K")
            )
        }
    }

    /// The first audio packet's time and the audio duration (from packets), nil without audio.
    static func audioSpan(_ path: String) throws -> (start: Double, end: Double)? {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", path,
        ])
        var start = Double.infinity
        var end = -Double.infinity
        for line in output.stdout.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 2 else { continue }
            start = min(start, fields[0])
            end = max(end, fields[0] + fields[1])
        }
        return start.isFinite ? (start, end) : nil
    }

    /// What `ffmpeg -v error -i PATH -f null -` prints (empty for a clean decode).
    static func decodeErrors(_ path: String) throws -> String {
        let output = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
        return (output.stderr + (output.status == 0 ? "" : "exit \(output.status)")).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// MD5 of every decoded video frame, in presentation order.
    static func frameHashes(_ path: String) throws -> [String] {
        let output = try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-vsync", "passthrough", "-f", "framemd5", "-",
        ])
        return output.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// A stream tag or side-data value, e.g. the rotation.
    static func rotation(_ path: String) throws -> Int? {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation:stream_tags=rotate",
            "-of", "default=nw=1:nk=1", path,
        ])
        return output.stdout.split(separator: "\n").compactMap { Int($0) }.first
    }
}

extension FFprobe {
    /// Average luma PSNR (dB) of the first `frames` frames of `output` against `input` from
    /// `start` seconds on (frame-accurate decode seek), as ffmpeg's psnr filter computes it.
    static func psnr(output: String, input: String, start: Double, frames: Int) throws -> Double? {
        let result = try ProcessRunner.run("ffmpeg", [
            "-nostdin", "-v", "info", "-i", output, "-ss", String(format: "%.6f", start), "-i", input,
            "-frames:v", String(frames), "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-",
        ])
        guard let range = result.stderr.range(of: "PSNR y:") else { return nil }
        let value = result.stderr[range.upperBound...].prefix { $0 != " " }
        return value == "inf" ? .infinity : Double(value)
    }
}
