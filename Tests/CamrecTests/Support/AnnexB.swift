import Foundation

/// H.264 NAL units of an Annex B byte stream, for comparing a movie's video with what the
/// emulated camera sent (`dump=`), byte for byte, whatever start codes each side used.
enum AnnexB {
    /// The NAL units (without start codes) of `data`, in order.
    static func units(_ data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var starts: [Int] = []  // index of the first byte after each start code
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append(i + 3)
                i += 3
            } else {
                i += 1
            }
        }
        return starts.enumerated().map { index, start in
            var end = index + 1 < starts.count ? starts[index + 1] - 3 : bytes.count
            // A four-byte start code's leading zero belongs to the next start code, not this unit.
            while index + 1 < starts.count, end > start, bytes[end - 1] == 0 { end -= 1 }
            return Data(bytes[start..<end])
        }
    }

    /// The NAL unit type (5 IDR slice, 1 other slice, 7 SPS, 8 PPS).
    static func type(_ unit: Data) -> UInt8 { (unit.first ?? 0) & 0x1f }

    /// The movie's H.264 as an Annex B stream, extracted by ffmpeg (a stream copy).
    static func extract(_ moviePath: String, to output: String) throws -> Data {
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", moviePath, "-map", "0:v:0",
                                                   "-c:v", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", output])
        guard run.status == 0 else { throw MediaProbe.Failure(description: "ffmpeg cannot extract \(moviePath): \(run.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }
}
