import CamrecCore
import GStreamer
import MP4
import Stills
#if canImport(Glibc)
import Glibc
#endif

/// What a contact sheet shows: each tile's movie, moment and capture time.
public struct SheetResult: Encodable, Sendable, Equatable {
    /// One tile.
    public struct Tile: Encodable, Sendable, Equatable {
        /// The movie it comes from.
        public var input: String
        /// Its frame's time in that movie (seconds, to the millisecond).
        public var time: Double
        /// When the frame was captured (ISO 8601 with milliseconds), when the movie holds
        /// its capture time.
        public var captured: String?
        /// Whether a keyframe near enough stood for the moment (only it was decoded).
        public var keyframe: Bool
    }

    /// The sheet written.
    public var path: String
    public var width: Int
    public var height: Int
    public var columns: Int
    public var rows: Int
    public var tiles: [Tile]
}

/// Makes a contact sheet (`camrec sheet`): the moments of the movies as a grid of tiles,
/// each with its capture time (or its time in the movies) under it, encoded as a JPEG or
/// PNG and published as every file camrec makes is.
public enum ContactSheet {
    /// Makes the sheet `request` asks for.
    public static func make(_ request: SheetRequest) throws(CamrecError) -> SheetResult {
        do {
            try Runtime.initialize()
        } catch {
            throw CamrecError(.unavailable, "GStreamer cannot start (\(error)): camrec doctor says what is missing")
        }
        try Destination.checkFolder(of: request.output)
        if !request.force, access(request.output, F_OK) == 0 {
            throw CamrecError(.cannotCreateOutput, "\(request.output) exists: give --force to replace it, or another -o")
        }
        // The first movie sets the tiles' shape; the others are fitted into it.
        var grabbers: [FrameGrabber] = []
        for input in request.inputs {
            guard access(input, R_OK) == 0 else { throw CamrecError(.noCamera, "\(input): no such movie, or it cannot be read: give a movie camrec or another program recorded") }
            grabbers.append(try FrameGrabber(path: input, width: request.tileWidth, height: grabbers.first?.height))
        }
        guard let first = grabbers.first else { throw CamrecError(.usage, "give the movies to make a sheet of") }
        let plan = SheetPlan(durations: grabbers.map(\.duration), selection: request.selection)
        guard !plan.moments.isEmpty else { throw CamrecError(.invalidInput, "the movies hold no time to make a sheet of") }
        let grid = SheetGrid(tiles: plan.moments.count, columns: request.columns, tileWidth: first.width, tileHeight: first.height)
        let captions = try CaptionRenderer(width: first.width, height: SheetGrid.captionHeight)
        let captured = request.inputs.map { CaptureTimeStamp.read(path: $0) }
        var canvas = [UInt8](repeating: CaptionRenderer.background, count: grid.width * grid.height * 3)
        var tiles: [SheetResult.Tile] = []
        var seriesStart = [UInt64](repeating: 0, count: grabbers.count)
        for index in grabbers.indices.dropFirst() { seriesStart[index] = seriesStart[index - 1] + grabbers[index - 1].duration }
        for (index, moment) in plan.moments.enumerated() {
            let grabber = grabbers[moment.input]
            guard let frame = grabber.frame(at: moment.time, tolerance: plan.tolerance) else {
                throw CamrecError(.invalidInput, "\(request.inputs[moment.input]): cannot decode the frame at \(Self.clock(moment.time))")
            }
            let time = frame.pts > grabber.firstPTS ? frame.pts - grabber.firstPTS : 0
            let stamp = captured[moment.input]?.adding(milliseconds: Int64(time / 1_000_000))
            let caption = stamp.map(Self.caption) ?? Self.clock(seriesStart[moment.input] + time)
            let origin = grid.origin(of: index)
            Self.paste(frame.rgb, width: grid.tileWidth, height: grid.tileHeight, into: &canvas, canvasWidth: grid.width, at: origin)
            if let band = captions.render(caption) {
                Self.paste(band, width: grid.tileWidth, height: SheetGrid.captionHeight, into: &canvas, canvasWidth: grid.width,
                           at: (origin.x, origin.y + grid.tileHeight))
            }
            tiles.append(SheetResult.Tile(input: request.inputs[moment.input], time: (Double(time) / 1e6).rounded() / 1e3,
                                          captured: stamp?.iso8601, keyframe: frame.isKeyframe))
        }
        let bytes = try encode(canvas, width: grid.width, height: grid.height, format: request.format)
        try AtomicFile.write(bytes, to: request.output, replace: request.force)
        return SheetResult(path: request.output, width: grid.width, height: grid.height, columns: grid.columns, rows: grid.rows,
                           tiles: tiles)
    }

    /// A capture time as a caption: 2026-12-01 10:04:30.250 (local to the movie's zone).
    static func caption(_ stamp: CaptureTimeStamp) -> String {
        let text = stamp.iso8601
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(12))
    }

    /// A time in the movies as a caption: 01:02:03.456.
    package static func clock(_ nanoseconds: UInt64) -> String {
        let milliseconds = nanoseconds / 1_000_000
        let seconds = milliseconds / 1000
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = String(milliseconds % 1000 + 1000).dropFirst()
        return two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) + "." + fraction
    }

    /// Copies packed RGB rows into the canvas at `origin`.
    static func paste(_ rgb: [UInt8], width: Int, height: Int, into canvas: inout [UInt8], canvasWidth: Int, at origin: (x: Int, y: Int)) {
        let rowBytes = width * 3
        guard rgb.count >= rowBytes * height else { return }
        for row in 0..<height {
            let target = ((origin.y + row) * canvasWidth + origin.x) * 3
            guard target + rowBytes <= canvas.count else { return }
            canvas.replaceSubrange(target..<(target + rowBytes), with: rgb[(row * rowBytes)..<((row + 1) * rowBytes)])
        }
    }

    /// The canvas as a JPEG or PNG (the stills' encoder).
    private static func encode(_ canvas: [UInt8], width: Int, height: Int, format: StillFormat) throws(CamrecError) -> [UInt8] {
        guard let caps = try? Caps("video/x-raw,format=RGB,width=\(width),height=\(height),framerate=0/1"),
              let buffer = Buffer(bytes: canvas), let sample = Sample(buffer: buffer, caps: caps)
        else { throw CamrecError(.failure, "cannot hold the sheet's picture (\(width)x\(height)) in memory") }
        let encoder = try StillEncoder(format: format)
        return try encoder.encode(sample)
    }
}
