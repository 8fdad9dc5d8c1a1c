@testable import CamrecKit
import GStreamer
import Testing

/// A bitrate and a keyframe interval in each encoder's own properties, and proof that the
/// installed encoders (and the fake hardware one) accept what is made for them.
@Suite struct EncoderPropertiesTests {
    func assignments(_ factory: String, _ kbps: Int? = 4000, _ gop: Int? = 60) -> String {
        EncoderProperties.assignments(for: factory, bitrateKbps: kbps, keyframeInterval: gop).joined(separator: " ")
    }

    @Test func eachEncoderInItsOwnUnitsAndNames() {
        #expect(assignments("x264enc") == "bitrate=4000 key-int-max=60")
        #expect(assignments("x265enc") == "bitrate=4000 key-int-max=60")
        #expect(assignments("openh264enc") == "rate-control=bitrate bitrate=4000000 gop-size=60")
        #expect(assignments("vah264enc") == "bitrate=4000 key-int-max=60")
        #expect(assignments("vah264lpenc") == "bitrate=4000 key-int-max=60")
        #expect(assignments("vaapih264enc") == "rate-control=cbr bitrate=4000 keyframe-period=60")
        #expect(assignments("nvh264enc") == "rc-mode=cbr bitrate=4000 gop-size=60")
        #expect(assignments("qsvh264enc") == "bitrate=4000 gop-size=60")
        #expect(assignments("v4l2h264enc") == "extra-controls=\"controls,video_bitrate=4000000,h264_i_frame_period=60,repeat_sequence_header=1\"")
        #expect(assignments("v4l2h265enc") == "extra-controls=\"controls,video_bitrate=4000000,video_gop_size=60\"")
        #expect(assignments("fakehwh264enc") == "bitrate=4000 keyframe-period=60")
        #expect(assignments("jpegenc").isEmpty && assignments("someotherenc").isEmpty)
    }

    @Test func whatIsNotAskedIsLeftToTheEncoder() {
        #expect(assignments("x264enc", nil, 30) == "key-int-max=30")
        #expect(assignments("openh264enc", nil, nil).isEmpty)
        #expect(assignments("vaapih264enc", nil, 30) == "keyframe-period=30")
        #expect(assignments("v4l2h265enc", nil, nil).isEmpty)
        #expect(assignments("v4l2h264enc", nil, nil) == "extra-controls=\"controls,repeat_sequence_header=1\"")
    }

    @Test func theInstalledEncodersAcceptTheirs() throws {
        try EncoderTrialTests.fakesLoaded.get()
        for (factory, codec) in [("x264enc", VideoCodec.h264), ("openh264enc", .h264), ("x265enc", .h265), ("fakehwh264enc", .h264)] {
            let candidate = EncoderCandidate(factory: factory, longName: "", codec: codec, isHardware: false, rank: 0, plugin: "")
            let element = EncoderProperties.description(of: candidate, bitrateKbps: 800, keyframeInterval: 15)
            #expect(EncoderTrial.run(element: element, codec: codec, size: EncoderTrialTests.size, rate: EncoderTrialTests.rate) == .works, "\(element)")
        }
    }

    @Test func theV4L2ControlsParseAsAStructure() throws {
        // v4l2src has the same extra-controls property as the V4L2 encoders; it is only parsed here.
        let controls = assignments("v4l2h264enc")
        _ = try Pipeline.parse("v4l2src device=/dev/camrec-none \(controls) ! fakesink")
    }
}
