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
    static func audioSpan(_ path: String, stream: String = "a:0") throws -> (start: Double, end: Double)? {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", path,
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

extension FFprobe {
    /// What ffprobe says of a stream (`v:0`, `a:1`, …): codec name, profile, level, pixel format.
    struct StreamFormat: Equatable, CustomStringConvertible {
        var codec: String
        var profile: String
        var level: String
        var pixelFormat: String

        var description: String { "\(codec) \(profile) level \(level) \(pixelFormat)" }
    }

    static func streamFormat(_ path: String, stream: String = "v:0") throws -> StreamFormat {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", stream, "-show_entries", "stream=codec_name,profile,level,pix_fmt",
            "-of", "default=nw=1", path,
        ])
        var fields: [String: String] = [:]
        for line in output.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return StreamFormat(
            codec: fields["codec_name"] ?? "", profile: fields["profile"] ?? "", level: fields["level"] ?? "",
            pixelFormat: fields["pix_fmt"] ?? ""
        )
    }

    /// The pixel format of every decoded video frame, in order.
    static func framePixelFormats(_ path: String) throws -> [String] {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pix_fmt", "-of", "csv=p=0", path,
        ])
        return output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }
            .filter { !$0.isEmpty }
    }

    /// The values of H.264 SPS fields in every SPS of the video stream (its sample
    /// description and in-band), as ffmpeg's `trace_headers` bitstream filter reads them:
    /// e.g. "profile_idc" → [100, 100, 100].
    static func h264SequenceFields(_ path: String) throws -> [String: [Int]] {
        let output = try ProcessRunner.run("ffmpeg", [
            "-nostdin", "-v", "info", "-i", path, "-map", "0:v:0", "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-",
        ])
        var fields: [String: [Int]] = [:]
        let wanted: Set<String> = [
            "profile_idc", "level_idc", "chroma_format_idc", "bit_depth_luma_minus8", "bit_depth_chroma_minus8",
            "constraint_set3_flag",
        ]
        var inSequenceSet = false
        for line in output.stderr.split(separator: "\n") {
            if line.contains("Sequence Parameter Set") { inSequenceSet = true; continue }
            if line.contains("Parameter Set") || line.contains("Slice Header") || line.contains("Supplemental") {
                inSequenceSet = false
            }
            guard inSequenceSet else { continue }
            let words = line.split(separator: " ")
            guard let equals = words.lastIndex(of: "="), equals >= 2, let value = Int(words[words.index(after: equals)])
            else { continue }
            let name = String(words[equals - 2])
            if wanted.contains(name) { fields[name, default: []].append(value) }
        }
        return fields
    }

    /// Average luma PSNR of `output`'s frames `from`..<`from + count` (in presentation
    /// order) against the input's frames shown at the same times.
    static func psnr(output: String, input: String, outputFrom first: Int, count: Int, inputStart: Double) throws -> Double? {
        let result = try ProcessRunner.run("ffmpeg", [
            "-nostdin", "-v", "info", "-i", output, "-ss", String(format: "%.6f", inputStart), "-i", input,
            "-lavfi", "[0:v]trim=start_frame=\(first):end_frame=\(first + count),setpts=PTS-STARTPTS[a];"
                + "[1:v]trim=start_frame=\(first):end_frame=\(first + count),setpts=PTS-STARTPTS[b];[a][b]psnr",
            "-f", "null", "-",
        ])
        guard let range = result.stderr.range(of: "PSNR y:") else { return nil }
        let value = result.stderr[range.upperBound...].prefix { $0 != " " }
        return value == "inf" ? .infinity : Double(value)
    }
}

extension FFprobe {
    /// One stream as ffprobe lists it: its type, codec, tag and timecode tag.
    struct StreamEntry: Equatable, CustomStringConvertible {
        var type: String
        var codec: String
        var tag: String
        var timecode: String?

        var description: String { "\(type):\(codec)(\(tag))" + (timecode.map { " tc \($0)" } ?? "") }
    }

    /// Every stream of a movie, in order.
    static func streams(_ path: String) throws -> [StreamEntry] {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-show_entries", "stream=codec_type,codec_name,codec_tag_string:stream_tags=timecode",
            "-of", "json", path,
        ])
        let object = try JSONSerialization.jsonObject(with: output.stdoutData) as? [String: Any]
        let streams = object?["streams"] as? [[String: Any]] ?? []
        return streams.map { stream in
            StreamEntry(
                type: stream["codec_type"] as? String ?? "", codec: stream["codec_name"] as? String ?? "",
                tag: stream["codec_tag_string"] as? String ?? "",
                timecode: (stream["tags"] as? [String: Any])?["timecode"] as? String
            )
        }
    }

    /// The subtitle cues of a movie's first subtitle stream (converted to SubRip by ffmpeg):
    /// text, start and end in seconds.
    static func cues(_ path: String) throws -> [(text: String, start: Double, end: Double)] {
        let output = try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:s:0", "-f", "srt", "-"])
        func seconds(_ text: Substring) -> Double? {
            let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == ":" || $0 == "," })
            guard parts.count == 4, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]),
                  let ms = Double(parts[3]) else { return nil }
            return h * 3600 + m * 60 + s + ms / 1000
        }
        var cues: [(text: String, start: Double, end: Double)] = []
        for block in output.stdout.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n")
            guard lines.count >= 3, let arrow = lines[1].range(of: "-->"),
                  let start = seconds(lines[1][..<arrow.lowerBound]), let end = seconds(lines[1][arrow.upperBound...])
            else { continue }
            // Strip the style tags some muxers' text formats come back with.
            let text = lines[2...].joined(separator: "\n").replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            cues.append((text, start, end))
        }
        return cues
    }

    /// What `ffmpeg -v error -i PATH -map 0:v -map 0:a -f null -` prints: a clean decode of
    /// the video and every sound track.
    static func decodeErrorsOfAllStreams(_ path: String) throws -> String {
        let output = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-map", "0:a?", "-f", "null", "-"])
        return (output.stderr + (output.status == 0 ? "" : "exit \(output.status)")).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
