import CamrecElements
import Foundation
import GStreamer
import Testing

/// camrecmask (Sources/CamrecElements), camrec's own element for --mask and --mask-image:
/// the kernel on small buffers of each layout, and the element on frames beside an unmasked
/// copy of the same frames (one tee feeds both, so the element must not write into the
/// buffer the other branch reads).
@Suite struct CamrecMaskTests {
    static let timeout: UInt64 = 60_000_000_000

    init() throws {
        try #require(CamrecFlipTests.registered, "camrec's elements could not be registered")
    }

    /// Fills `rect` of a `width`x`height` plane of `fill`-valued samples (`pixelStride`
    /// apart, rows `stride` apart) with 1; returns the plane.
    func fill(width: Int, height: Int, stride: Int, pixelStride: Int = 1, wSub: UInt32 = 0, hSub: UInt32 = 0,
              _ rect: CamrecMaskRect, offset: Int = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 9, count: stride * height)
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var plane = CamrecMaskPlane(data: base + offset, stride: Int32(stride), pixel_stride: Int32(pixelStride),
                                        width: Int32(width), height: Int32(height), w_sub: wSub, h_sub: hSub)
            var rect = rect
            camrec_mask_fill(&plane, &rect, 1)
        }
        return bytes
    }

    @Test func aRectangleOfAPlaneAndNothingElse() {
        let plane = fill(width: 6, height: 4, stride: 8, CamrecMaskRect(x: 1, y: 1, width: 3, height: 2))
        for y in 0..<4 {
            for x in 0..<8 {
                let inside = (1..<4).contains(x) && (1..<3).contains(y)
                #expect(plane[y * 8 + x] == (inside ? 1 : 9), "(\(x),\(y))")
            }
        }
    }

    /// A 4:2:0 chroma plane: the pixels 1..<4 × 1..<2 use chroma samples 0..<2 × 0..<1 —
    /// every sample a masked pixel uses, rounded outwards.
    @Test func subsampledChromaIsRoundedOutwards() {
        let plane = fill(width: 3, height: 2, stride: 4, wSub: 1, hSub: 1, CamrecMaskRect(x: 1, y: 1, width: 3, height: 1))
        #expect(plane == [1, 1, 9, 9, 9, 9, 9, 9])
    }

    /// Packed samples (YUY2's U: every 4th byte from byte 1) and the plane's edge: what lies
    /// outside is left out, rectangles wholly outside do nothing.
    @Test func packedSamplesAndEdges() {
        let plane = fill(width: 3, height: 1, stride: 12, pixelStride: 4, wSub: 1, CamrecMaskRect(x: 2, y: 0, width: 100, height: 100),
                         offset: 1)
        #expect(plane == [9, 9, 9, 9, 9, 1, 9, 9, 9, 1, 9, 9])
        #expect(fill(width: 3, height: 1, stride: 3, CamrecMaskRect(x: 3, y: 0, width: 5, height: 1)) == [9, 9, 9])
        #expect(fill(width: 3, height: 1, stride: 3, CamrecMaskRect(x: 0, y: 0, width: 0, height: 1)) == [9, 9, 9])
    }

    /// I420 snow through camrecmask beside the same frames untouched: inside the rectangles
    /// luma 16 and chroma 128 (limited-range black); every other visible pixel unchanged.
    @Test(arguments: [(64, 48), (65, 49)])
    func theElementMasksOnlyItsRectangles(size: (width: Int, height: Int)) throws {
        let (width, height) = size
        let pipeline = try Pipeline.parse(
            "videotestsrc pattern=snow num-buffers=2 ! video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1 ! tee name=t "
            + "t. ! queue ! appsink name=reference sync=false "
            + "t. ! queue ! camrecmask rectangles=\"3,5,10,7 40,30,100,100\" ! appsink name=ours sync=false")
        let reference = try AppSink(pipeline.element(named: "reference"))
        let ours = try AppSink(pipeline.element(named: "ours"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        let masked: (Int, Int) -> Bool = { x, y in
            ((3..<13).contains(x) && (5..<12).contains(y)) || (x >= 40 && y >= 30)
        }
        for _ in 0..<2 {
            let a = try #require(reference.pullSample(timeoutNanoseconds: Self.timeout))
            let b = try #require(ours.pullSample(timeoutNanoseconds: Self.timeout))
            let plain = try #require(CamrecFlipTests.visiblePixels(a.bytes, width: width, height: height))
            let got = try #require(CamrecFlipTests.visiblePixels(b.bytes, width: width, height: height))
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            var changedOutside = 0, wrongInside = 0
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    if masked(x, y) { wrongInside += got[i] == 16 ? 0 : 1 } else { changedOutside += got[i] == plain[i] ? 0 : 1 }
                }
            }
            for plane in 0..<2 {
                for y in 0..<ch {
                    for x in 0..<cw {
                        let i = width * height + plane * cw * ch + y * cw + x
                        // A chroma sample is masked when any of its (up to) 2x2 pixels is.
                        let any = [(0, 0), (1, 0), (0, 1), (1, 1)].contains { dx, dy in
                            2 * x + dx < width && 2 * y + dy < height && masked(2 * x + dx, 2 * y + dy)
                        }
                        if any { wrongInside += got[i] == 128 ? 0 : 1 } else { changedOutside += got[i] == plain[i] ? 0 : 1 }
                    }
                }
            }
            #expect(wrongInside == 0 && changedOutside == 0, "\(wrongInside) masked samples not black, \(changedOutside) others changed")
            // Snow: the untouched branch still has its own pixels there (the tee's buffer was not written).
            #expect(plain[5 * width + 3] != 16 || plain[5 * width + 4] != 16)
        }
    }

    /// Without rectangles the element passes frames through; a value it cannot read masks
    /// the whole frame rather than record it unmasked.
    @Test func unreadableRectanglesMaskEverything() throws {
        let mask = try Element.make("camrecmask")
        try mask.set("rectangles", "0,0,10")
        let pipeline = try Pipeline.parse(
            "videotestsrc pattern=white num-buffers=1 ! video/x-raw,format=GRAY8,width=16,height=8 ! camrecmask rectangles=\"1,2,x\" name=m ! appsink name=out sync=false")
        let out = try AppSink(pipeline.element(named: "out"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        let sample = try #require(out.pullSample(timeoutNanoseconds: Self.timeout))
        #expect(sample.bytes.prefix(16 * 8).allSatisfy { $0 == 16 || $0 == 0 }, "\(sample.bytes.prefix(16))")
    }
}
