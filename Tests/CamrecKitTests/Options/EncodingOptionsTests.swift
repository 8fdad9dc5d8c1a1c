@testable import CamrecKit
import Testing

/// `--codec`, `--encoder`, `--quality`, `--bitrate` and `--keyframe-interval` as given,
/// typed by `EncodingRequest.parse` and `keyframeInterval(_:segmented:)`.
struct EncodingOptionsTests {
    func parse(codec: String? = nil, encoder: String? = nil, quality: String? = nil,
               bitrate: String? = nil) throws(CamrecError) -> EncodingRequest {
        try EncodingRequest.parse(codec: codec, encoder: encoder, quality: quality, bitrate: bitrate)
    }

    @Test func nothingGivenIsCamrecsChoice() throws {
        #expect(try parse() == EncodingRequest())
        #expect(try parse().asksForEncoding.isEmpty)
    }

    @Test func givenValuesAreTyped() throws {
        let request = try parse(codec: "H265", encoder: "x265enc", quality: "High", bitrate: "4M")
        #expect(request.codec == .encode(.h265) && request.encoder == .named("x265enc"))
        #expect(request.quality == .high && request.qualityGiven && request.bitrate == 4000)
        #expect(try parse(codec: "copy").codec == .copy)
        #expect(try parse(encoder: "software").encoder == .software)
        #expect(try parse(quality: "medium").qualityGiven)
    }

    /// `--quality auto`: medium's bits, the effort timed, for every codec; not given, timed
    /// for H.265 only; a quality given is never timed.
    @Test func autoQualityTimesTheEffort() throws {
        let auto = try parse(quality: "AUTO")
        #expect(auto.autoQuality && auto.qualityGiven && auto.quality == .medium)
        #expect(VideoCodec.allCases.allSatisfy { auto.timesEffort(for: $0) })
        let none = try parse()
        #expect(!none.autoQuality && none.timesEffort(for: .h265) && !none.timesEffort(for: .h264) && !none.timesEffort(for: .mjpeg))
        let high = try parse(quality: "high")
        #expect(!high.autoQuality && !high.timesEffort(for: .h265))
        #expect(try parse(quality: "auto").asksForEncoding == ["--quality"])
    }

    @Test func refusals() {
        #expect(refusal { try parse(codec: "vp9") } == "--codec: unknown codec 'vp9': use auto, h264, h265, mjpeg or copy")
        #expect(refusal { try parse(encoder: "") } == "--encoder: give auto, software or an element name (camrec encoders lists them)")
        #expect(refusal { try parse(quality: "best") } == "--quality: unknown quality 'best': use auto, low, medium, high or max")
        #expect(refusal { try parse(bitrate: "10") }?.hasPrefix("--bitrate: invalid bitrate '10'") == true)
        #expect(refusal { try parse(codec: "copy", encoder: "x264enc") }
                == "--encoder with --codec copy: copy stores the camera's stream without an encoder; give one of them")
        // copy with auto or software names no encoder.
        #expect(refusal { try parse(codec: "copy", encoder: "software") } == nil)
    }

    @Test func keyframeIntervals() throws {
        #expect(try EncodingRequest.keyframeInterval(nil, segmented: false) == 1)
        #expect(try EncodingRequest.keyframeInterval(nil, segmented: true) == 0.5)
        #expect(try EncodingRequest.keyframeInterval("2s", segmented: true) == 2)
        #expect(try EncodingRequest.keyframeInterval("10", segmented: false) == 10)
        for bad in ["0", "11s"] {
            #expect(refusal { try EncodingRequest.keyframeInterval(bad, segmented: false) }
                    == "--keyframe-interval: invalid keyframe interval '\(bad)': use a time above 0 and at most 10s, e.g. 1s or 0.5")
        }
        #expect(refusal { try EncodingRequest.keyframeInterval("often", segmented: false) }?
            .hasPrefix("--keyframe-interval: invalid duration 'often'") == true)
    }
}
