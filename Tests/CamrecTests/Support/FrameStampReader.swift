import Foundation

/// Reads the frame stamp that the VirtualCamera draws on every frame, to tell which camera
/// frame (V4L2 sequence number) a movie frame or a still came from.
///
/// Layout (docs/virtual-camera.md): across the top of the camera image, 35 square blocks of
/// `blockSize(forWidth:)` pixels: white, black, the 32 bits of the sequence number (most
/// significant first, white = 1), then an even-parity block (white when the number has an odd
/// count of one bits). The white/black pair gives the threshold, so range conversions and
/// encoders do not matter.
enum FrameStampReader {
    /// Where the camera image lies in the file's frames, for scaled or composed pictures.
    struct Region: Sendable {
        /// Top-left corner of the camera image in the file's pixels.
        var x: Int = 0
        var y: Int = 0
        /// Width of the camera image in the file (nil: the whole frame width).
        var width: Int? = nil
        /// Width the camera delivered (nil: same as `width`, i.e. not scaled).
        var sourceWidth: Int? = nil

        init(x: Int = 0, y: Int = 0, width: Int? = nil, sourceWidth: Int? = nil) {
            self.x = x
            self.y = y
            self.width = width
            self.sourceWidth = sourceWidth
        }
    }

    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    static let blockCount = 35

    /// The stamp block size the emulator uses for a camera image `width` pixels wide.
    static func blockSize(forWidth width: Int) -> Int {
        let block = width / 40 / 16 * 16
        return block > 0 ? block : 8
    }

    /// The sequence number of every frame of a video file, in presentation order; nil where a
    /// frame's stamp cannot be read. Frames are not duplicated or dropped to a constant rate.
    static func sequences(inVideo url: URL, region: Region = Region()) throws -> [UInt32?] {
        try read(url, region: region, isImage: false)
    }

    /// The sequence number stamped on a still image (JPEG, PNG, ...), nil if unreadable.
    static func sequence(inImage url: URL, region: Region = Region()) throws -> UInt32? {
        try read(url, region: region, isImage: true).first ?? nil
    }

    /// Decodes one stamp from 8-bit luma rows (`stride` bytes apart) whose first row and column
    /// are the camera image's top-left corner; `block` is the block size in these pixels.
    static func decode(luma: [UInt8], stride: Int, rows: Int, block: Double) -> UInt32? {
        guard block >= 2, Double(rows) >= block * 0.75,
              Double(stride) >= block * Double(blockCount) else { return nil }
        func level(_ k: Int) -> Double {
            let x0 = Int((Double(k) + 0.25) * block), x1 = max(x0 + 1, Int((Double(k) + 0.75) * block))
            let y0 = Int(block * 0.25), y1 = max(y0 + 1, Int(block * 0.75))
            var sum = 0, count = 0
            for y in y0..<min(y1, rows) {
                for x in x0..<min(x1, stride) {
                    sum += Int(luma[y * stride + x])
                    count += 1
                }
            }
            return count > 0 ? Double(sum) / Double(count) : 0
        }
        let white = level(0), black = level(1)
        guard white - black > 60 else { return nil }
        let threshold = (white + black) / 2
        var value: UInt32 = 0
        for bit in 0..<32 {
            value = value << 1 | (level(2 + bit) > threshold ? 1 : 0)
        }
        let parity = level(34) > threshold ? 1 : 0
        guard value.nonzeroBitCount % 2 == parity else { return nil }
        return value
    }

    // MARK: decoding with ffmpeg

    private static func read(_ url: URL, region: Region, isImage: Bool) throws -> [UInt32?] {
        let (frameWidth, _) = try dimensions(of: url)
        let width = region.width ?? (frameWidth - region.x)
        let sourceWidth = region.sourceWidth ?? width
        let block = Double(blockSize(forWidth: sourceWidth)) * Double(width) / Double(sourceWidth)
        let bandWidth = min(frameWidth - region.x, Int((block * Double(blockCount)).rounded(.up)) + 1)
        let bandRows = Int(block.rounded(.up))
        guard bandWidth > 0, bandRows > 0 else { throw ReadError(description: "region outside \(url.path)") }
        var args = ["-v", "error", "-i", url.path,
                    "-vf", "format=gray,crop=\(bandWidth):\(bandRows):\(region.x):\(region.y)"] // gray first: exact crop at any x/width
        args += isImage ? ["-frames:v", "1"] : ["-fps_mode", "passthrough"]
        args += ["-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let result = try ChildProcess.run("ffmpeg", args, timeout: 120)
        guard result.status == 0 else {
            throw ReadError(description: "ffmpeg could not decode \(url.path): \(result.stderr)")
        }
        let frameBytes = bandWidth * bandRows
        let bytes = [UInt8](result.stdout)
        guard bytes.count % frameBytes == 0 else {
            throw ReadError(description: "ffmpeg returned \(bytes.count) bytes, not a multiple of \(frameBytes)")
        }
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { start in
            decode(luma: Array(bytes[start..<start + frameBytes]), stride: bandWidth, rows: bandRows, block: block)
        }
    }

    /// Width and height of the first video stream.
    static func dimensions(of url: URL) throws -> (width: Int, height: Int) {
        let result = try ChildProcess.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                        "-of", "csv=p=0:s=x", url.path])
        let parts = result.stdoutText.split(whereSeparator: \.isNewline).first?.split(separator: "x")
            .compactMap { Int($0) } ?? []
        guard result.status == 0, parts.count == 2 else {
            throw ReadError(description: "ffprobe found no video in \(url.path): \(result.stderr)")
        }
        return (parts[0], parts[1])
    }
}
