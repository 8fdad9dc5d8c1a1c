import Testing
@testable import CamrecKit

/// The sizes, times and counts of the lines for people.
@Suite struct HumanTextTests {
    @Test func sizesInKilobytesMegabytesAndGigabytes() {
        #expect(humanBytes(0) == "0 KB")
        #expect(humanBytes(812_000) == "812 KB")
        #expect(humanBytes(999_499) == "999 KB")
        #expect(humanBytes(1_000_000) == "1.0 MB")
        #expect(humanBytes(3_420_000) == "3.4 MB")
        #expect(humanBytes(2_500_000_000) == "2.50 GB")
    }

    @Test func clockTimesRoundDownToWholeSeconds() {
        #expect(clockTime(0) == "00:00:00")
        #expect(clockTime(65.9) == "00:01:05")
        #expect(clockTime(3725) == "01:02:05")
        #expect(clockTime(100 * 3600) == "100:00:00")
    }

    @Test func limitsShowMillisecondsOnlyWhenNotWholeSeconds() {
        #expect(limitTime(600) == "00:10:00")
        #expect(limitTime(0.5) == "00:00:00.500")
        #expect(limitTime(90.25) == "00:01:30.250")
    }

    @Test func countsTakeAPluralButForOne() {
        #expect(counted(0, "clip") == "0 clips")
        #expect(counted(1, "frame") == "1 frame")
        #expect(counted(2, "still") == "2 stills")
    }
}
