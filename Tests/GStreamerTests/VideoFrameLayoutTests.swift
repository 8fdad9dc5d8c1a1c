import CGStreamer
import GStreamer
import Testing

/// Where a raw frame's planes lie: GStreamer's default layout from the caps (rows of an
/// I420 frame rounded up to 4 bytes), or the producer's own from a `GstVideoMeta`.
@Suite struct VideoFrameLayoutTests {
    @Test func capsGiveTheDefaultStridesRoundedUpToFour() throws {
        let caps = try Caps("video/x-raw,format=I420,width=66,height=40,framerate=30/1")
        let layout = try #require(caps.videoLayout)
        #expect(layout.format == "I420" && layout.width == 66 && layout.height == 40)
        #expect(layout.strides == [68, 36, 36])
        #expect(layout.offsets == [0, 68 * 40, 68 * 40 + 36 * 20])
        #expect(layout.hasLumaPlane)
        let packed = try #require(try Caps("video/x-raw,format=YUY2,width=64,height=8").videoLayout)
        #expect(packed.strides == [128] && !packed.hasLumaPlane)
        #expect(try Caps("audio/x-raw,format=S16LE,rate=48000,channels=1").videoLayout == nil)
    }

    @Test func aVideoMetaGivesTheProducersOwnLayout() throws {
        try Runtime.initialize()
        guard let made = WritableBuffer(bytes: [UInt8](repeating: 0, count: 80 * 40 * 2)) else { throw OutOfMemory() }
        let buffer = made.finished()
        #expect(buffer.view.videoMeta == nil)
        var offsets: [gsize] = [16, 16 + 80 * 40, 16 + 80 * 40 + 48 * 20, 0]
        var strides: [gint] = [80, 48, 48, 0]
        let meta = gst_buffer_add_video_meta_full(buffer.bufferPointer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420,
                                                  66, 40, 3, &offsets, &strides)
        #expect(meta != nil)
        let layout = try #require(buffer.view.videoMeta)
        #expect(layout == VideoFrameLayout(format: "I420", width: 66, height: 40,
                                           offsets: [16, 16 + 80 * 40, 16 + 80 * 40 + 48 * 20], strides: [80, 48, 48]))
    }
}
