import CamrecCore
import GStreamer

/// Draws a line of text, white on the sheet's dark grey, into a band `width` × `height`
/// as RGB: GStreamer's textoverlay (Pango) draws it, so the sheet needs no font of its own.
final class CaptionRenderer {
    private let pipeline: Pipeline
    private let input: AppSrc
    private let output: AppSink
    private let text: Element
    private let width: Int
    private let height: Int
    private var count: UInt64 = 0

    /// The sheet's background grey.
    static let background: UInt8 = 0x20

    init(width: Int, height: Int) throws(CamrecError) {
        self.width = width
        self.height = height
        let description = "appsrc name=in format=time caps=video/x-raw,format=BGRx,width=\(width),height=\(height),framerate=0/1"
            + " ! textoverlay name=text font-desc=\"Sans 10\" valignment=center halignment=center"
            + " ! videoconvert ! video/x-raw,format=RGB ! appsink name=out sync=false"
        do {
            pipeline = try Pipeline.withBuiltIns(description)
            input = try AppSrc(pipeline.element(named: "in"))
            output = try AppSink(pipeline.element(named: "out"))
            text = try pipeline.element(named: "text")
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            throw CamrecError(.failure, "cannot draw the sheet's captions: \(error)")
        }
    }

    deinit { _ = try? pipeline.setState(.null) }

    /// The band with `caption` drawn in it, as packed RGB rows; nil when drawing failed.
    func render(_ caption: String) -> [UInt8]? {
        try? text.set("text", caption)
        let blank = [UInt8](repeating: Self.background, count: width * height * 4)
        guard var buffer = WritableBuffer(bytes: blank) else { return nil }
        buffer.pts = count * 1_000_000
        count += 1
        guard input.push(buffer.finished()) == .ok, let sample = output.pullSample(timeoutNanoseconds: 5_000_000_000) else { return nil }
        return sample.packedRGB(width: width, height: height)
    }
}
