@testable import CamrecKit
import Testing
import V4L2

@Suite struct FormatChoiceCapsTests {
    @Test func capsForEachFamily() throws {
        let webcam = [
            PixelFormat(fourcc: "YUYV", description: "YUYV 4:2:2", compressed: false,
                        sizes: [FrameSizeOption(width: 640, height: 480, rates: [FrameRateValue(30)])]),
            PixelFormat(fourcc: "MJPG", description: "Motion-JPEG", compressed: true,
                        sizes: [FrameSizeOption(width: 1280, height: 720, rates: [FrameRateValue(30)])]),
        ]
        #expect(try FormatChooser.choose(from: webcam, size: FrameSize(width: 640, height: 480)).caps
            == "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1")
        #expect(try FormatChooser.choose(from: webcam).caps == "image/jpeg,width=1280,height=720,framerate=30/1")
        let h264 = [PixelFormat(fourcc: "H264", description: "H.264", compressed: true,
                                sizes: [FrameSizeOption(width: 1920, height: 1080, rates: [FrameRateValue(30)])])]
        #expect(try FormatChooser.choose(from: h264).caps
            == "video/x-h264,stream-format=byte-stream,alignment=au,width=1920,height=1080,framerate=30/1")
    }

    @Test func everyPreferredRawFormatHasAGStreamerName() {
        for fourcc in FormatFamily.rawPreference {
            #expect(FormatFamily.gstreamerRawFormat(fourcc: fourcc) != nil, "\(fourcc)")
        }
    }
}
