@testable import CamrecKit
import Testing

/// Segments, retention and reconnecting as given, typed by `UnattendedRequest` without a
/// command line.
struct UnattendedRequestTests {
    func resolve(_ request: UnattendedRequest, clips: ClipRequest = ClipRequest())
        throws -> (segments: SegmentSettings?, retention: RetentionPolicy?, reconnect: ReconnectSettings?) {
        try request.resolve(output: "cam.mp4", clips: clips)
    }

    @Test func nothingGivenIsOneMovie() throws {
        let run = try resolve(UnattendedRequest())
        #expect(run.segments == nil && run.retention == nil && run.reconnect == nil)
    }

    @Test func segmentLengthsAndNone() throws {
        let segments = try #require(try resolve(UnattendedRequest(segment: "10m")).segments)
        #expect(segments.length == .minutes(10))
        #expect(segments.naming == (try SegmentNaming(output: "cam.mp4", utc: false)))
        #expect(try resolve(UnattendedRequest(segment: "none")).segments?.length == nil)
        #expect(try resolve(UnattendedRequest(segment: "None")).segments != nil)
        #expect(refusal { try resolve(UnattendedRequest(segment: "0")) }
                == "--segment: a segment must be longer than 0, e.g. 10m; none cuts only on request")
        #expect(refusal { try resolve(UnattendedRequest(segment: "soon")) }?.hasPrefix("--segment: invalid duration 'soon'") == true)
        #expect(refusal { try UnattendedRequest(segment: "1m").resolve(output: "%Y/cam.mp4", clips: ClipRequest()) }?
            .contains("allowed in the file name only") == true)
    }

    @Test func reconnectImpliesSegmentsAndItsTimeoutNeedsIt() throws {
        let run = try resolve(UnattendedRequest(reconnect: true))
        #expect(run.segments?.length == nil && run.reconnect == ReconnectSettings(timeout: nil))
        #expect(try resolve(UnattendedRequest(reconnect: true, reconnectTimeout: "5m")).reconnect == ReconnectSettings(timeout: .minutes(5)))
        #expect(refusal { try resolve(UnattendedRequest(reconnectTimeout: "5m")) } == "--reconnect-timeout needs --reconnect")
        #expect(refusal { try resolve(UnattendedRequest(reconnect: true, reconnectTimeout: "0")) }
                == "--reconnect-timeout: the timeout must be above 0, e.g. 5m")
    }

    @Test func retentionAppliesToSegmentsAndClips() throws {
        let expected = "applies to segmented runs and event clips: add --segment T (e.g. --segment 10m) or clip options (--pre-roll T)"
        #expect(refusal { try resolve(UnattendedRequest(keep: "3")) } == "--keep " + expected)
        #expect(refusal { try resolve(UnattendedRequest(keepSize: "1G")) } == "--keep-size " + expected)
        #expect(refusal { try resolve(UnattendedRequest(minFree: "1G")) } == "--min-free " + expected)
        #expect(refusal { try resolve(UnattendedRequest(utc: true)) } == "--utc " + expected)
        // Clips are kept in check too; --utc names clips only with --clips.
        #expect(try resolve(UnattendedRequest(keep: "3"), clips: ClipRequest(postRoll: "5s")).retention == RetentionPolicy(keep: 3))
        #expect(refusal { try resolve(UnattendedRequest(utc: true), clips: ClipRequest(postRoll: "5s")) } == "--utc " + expected)
        #expect(try resolve(UnattendedRequest(utc: true), clips: ClipRequest(pattern: "c-%H.mp4")).segments == nil)

        let run = try resolve(UnattendedRequest(segment: "1m", keep: "48", keepSize: "1K", minFree: "2K"))
        let policy = RetentionPolicy(keep: 48, keepBytes: 1024, minFree: 2048)
        #expect(run.retention == policy && run.segments?.retention == policy)
        #expect(try resolve(UnattendedRequest(segment: "1m")).retention == nil)
    }

    @Test func retentionValuesAreChecked() {
        for bad in ["0", "-1", "many"] {
            #expect(refusal { try resolve(UnattendedRequest(segment: "1m", keep: bad)) }
                    == "--keep: --keep takes a number of movies (and of clips), 1 or more, e.g. --keep 48", "\(bad)")
        }
        #expect(refusal { try resolve(UnattendedRequest(segment: "1m", keepSize: "lots")) }?.hasPrefix("--keep-size: invalid size 'lots'") == true)
        #expect(refusal { try resolve(UnattendedRequest(segment: "1m", minFree: "x")) }?.hasPrefix("--min-free: invalid size 'x'") == true)
    }
}
