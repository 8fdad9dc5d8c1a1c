import CamrecElements
import Foundation
import GStreamer
import Testing

/// camrecflip (Sources/CamrecElements), camrec's own element for --rotate, --flip and
/// --mirror: for every method, the same caps and the same pixels as GStreamer's videoflip
/// with that video-direction, on the same frames (one tee feeds both).
@Suite struct CamrecFlipTests {
    static let timeout: UInt64 = 60_000_000_000
    static let methods = ["identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll"]
    static let turning: Set<String> = ["90r", "90l", "ul-lr", "ur-ll"]

    /// camrecflip registered as camrec registers it (CamrecKit's BuiltInElements): the
    /// bindings themselves know nothing of camrec's elements.
    static let registered: Bool = {
        (try? Runtime.initialize()) != nil && camrec_elements_register() != 0
    }()

    init() throws {
        try #require(Self.registered, "camrecflip could not be registered")
    }

    /// The visible pixels of an I420 frame in GStreamer's default layout (each plane's rows
    /// padded to 4 bytes, the chroma planes (w+1)/2 x (h+1)/2), without the padding, whose
    /// bytes are whatever the buffer held before.
    static func visiblePixels(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8]? {
        func up(_ value: Int, _ to: Int) -> Int { (value + to - 1) / to * to }
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        let (yStride, cStride) = (up(width, 4), up(up(width, 2) / 2, 4))
        let planes = [(0, yStride, width, height),
                      (yStride * up(height, 2), cStride, cw, ch),
                      (yStride * up(height, 2) + cStride * (up(height, 2) / 2), cStride, cw, ch)]
        guard let last = planes.last, bytes.count == last.0 + cStride * (up(height, 2) / 2) else { return nil }
        var pixels: [UInt8] = []
        for (offset, stride, w, h) in planes {
            for row in 0..<h { pixels += bytes[(offset + row * stride)..<(offset + row * stride + w)] }
        }
        return pixels
    }

    /// Runs `frames` snow frames of `width`x`height` through videoflip and camrecflip side by
    /// side; returns both elements' samples.
    func flipBoth(_ method: String, width: Int, height: Int, frames: Int = 2) throws -> (videoflip: [Sample], camrecflip: [Sample]) {
        let pipeline = try Pipeline.parse(
            "videotestsrc pattern=snow num-buffers=\(frames) ! video/x-raw,format=I420,width=\(width),height=\(height),"
            + "framerate=30/1,pixel-aspect-ratio=4/3,colorimetry=bt601 ! tee name=t "
            + "t. ! queue ! videoflip video-direction=\(method) ! appsink name=reference sync=false "
            + "t. ! queue ! camrecflip method=\(method) ! appsink name=ours sync=false")
        let reference = try AppSink(pipeline.element(named: "reference"))
        let ours = try AppSink(pipeline.element(named: "ours"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        var result: ([Sample], [Sample]) = ([], [])
        for _ in 0..<frames {
            result.0.append(try #require(reference.pullSample(timeoutNanoseconds: Self.timeout), "videoflip gave no frame"))
            result.1.append(try #require(ours.pullSample(timeoutNanoseconds: Self.timeout), "camrecflip gave no frame"))
        }
        return result
    }

    @Test func isRegisteredWithVideoflipsMethodNames() throws {
        let flip = try Element.make("camrecflip")
        for method in Self.methods { try flip.set("method", nick: method) }
    }

    /// Even and odd sizes: odd ones have chroma planes with an odd last column and row, and
    /// sizes that are not multiples of the 8x8 blocks exercise the edges.
    @Test(arguments: [(320, 240), (322, 242), (321, 241), (7, 5)])
    func everyMethodGivesVideoflipsPixelsAndCaps(size: (width: Int, height: Int)) throws {
        for method in Self.methods {
            let (expected, actual) = try flipBoth(method, width: size.width, height: size.height)
            let swaps = Self.turning.contains(method)
            let (outWidth, outHeight) = swaps ? (size.height, size.width) : (size.width, size.height)
            for (frame, (reference, ours)) in zip(expected, actual).enumerated() {
                let caps = try #require(ours.caps)
                #expect(caps.int("width") == outWidth && caps.int("height") == outHeight, "\(method) \(size)")
                // The same caps as videoflip's: the pixel aspect ratio inverted when turned
                // (4/3 becomes 3/4), the colorimetry kept.
                #expect(caps.description == reference.caps?.description, "\(method) \(size)")
                #expect(caps.fraction("pixel-aspect-ratio").map { [$0.numerator, $0.denominator] } == (swaps ? [3, 4] : [4, 3]))
                #expect(caps.string("colorimetry") == "bt601")
                let want = Self.visiblePixels(reference.bytes, width: outWidth, height: outHeight)
                let got = Self.visiblePixels(ours.bytes, width: outWidth, height: outHeight)
                #expect(want != nil && got != nil, "\(method) \(size): not GStreamer's default I420 layout")
                #expect(got == want, "\(method) \(size) frame \(frame): pixels differ from videoflip's")
            }
        }
    }

    /// A 720p frame through every block and tile (64x64) of the quarter turns.
    @Test func aLargeFrameMatchesToo() throws {
        for method in ["90r", "90l", "ur-ll", "horiz"] {
            let (expected, actual) = try flipBoth(method, width: 1280, height: 720, frames: 1)
            let (w, h) = Self.turning.contains(method) ? (720, 1280) : (1280, 720)
            let want = try #require(Self.visiblePixels(expected[0].bytes, width: w, height: h))
            #expect(Self.visiblePixels(actual[0].bytes, width: w, height: h) == want, "\(method)")
        }
    }
}
