import Testing
@testable import V4L2

@Suite struct FrameRateTests {
    @Test func describesWholeAndFractionalRates() throws {
        #expect(FrameRate(30).description == "30")
        #expect(try #require(FrameRate(numerator: 30000, denominator: 1001)).description == "29.97")
        #expect(try #require(FrameRate(numerator: 15, denominator: 2)).description == "7.5")
        #expect(try #require(FrameRate(numerator: 25, denominator: 4)).description == "6.25")
        #expect(try #require(FrameRate(numerator: 201, denominator: 10)).description == "20.1")
        #expect(try #require(FrameRate(numerator: 1001, denominator: 1000)).description == "1")
    }

    @Test func invertsIntervalsAndReduces() throws {
        // UVC reports 100 ns units: 333333/10000000 s per frame.
        let uvc = try #require(FrameRate(intervalNumerator: 333_333, intervalDenominator: 10_000_000))
        #expect(uvc.description == "30")
        #expect(uvc.fraction == "10000000/333333")
        let thirty = try #require(FrameRate(intervalNumerator: 1, intervalDenominator: 30))
        #expect(thirty == FrameRate(30))
        #expect(FrameRate(numerator: 60, denominator: 2) == FrameRate(30))
        #expect(FrameRate(numerator: 0, denominator: 1) == nil)
        #expect(FrameRate(intervalNumerator: 1, intervalDenominator: 0) == nil)
    }

    @Test func comparesExactlyAndMeetsWithTolerance() throws {
        let ntsc = try #require(FrameRate(numerator: 30000, denominator: 1001))
        #expect(ntsc < FrameRate(30))
        #expect(ntsc.meets(FrameRate(30)))   // 29.97 is "30" for a person
        #expect(!FrameRate(25).meets(FrameRate(30)))
        #expect(FrameRate(60).meets(FrameRate(30)))
    }

    @Test func roundsForJSON() throws {
        #expect(try #require(FrameRate(numerator: 30000, denominator: 1001)).roundedValue == 29.97)
        #expect(FrameRate(30).roundedValue == 30)
    }

    @Test func listsRatesForIntervalRanges() throws {
        // Continuous 1/60 s … 1 s: fastest, common rates inside, slowest.
        let continuous = FrameRate.rates(intervalMinimum: (1, 60), intervalMaximum: (1, 1), intervalStep: nil)
        #expect(continuous.map(\.description) == ["60", "50", "30", "25", "24", "20", "15", "10", "5", "1"])
        // Stepwise 1/30 … 1/10 in steps of 1/30 s: intervals 1/30, 2/30, 3/30 → 30, 15, 10 fps.
        let stepwise = FrameRate.rates(intervalMinimum: (1, 30), intervalMaximum: (1, 10), intervalStep: (1, 30))
        #expect(stepwise.map(\.description) == ["30", "15", "10"])
        #expect(FrameRate.rates(intervalMinimum: (1, 10), intervalMaximum: (1, 30), intervalStep: nil).isEmpty)
    }
}

@Suite struct FrameSizeTests {
    @Test func sizeRangeListsCommonSizesOnItsSteps() {
        let range = FrameSizeRange(minimum: VideoSize(width: 16, height: 16), maximum: VideoSize(width: 1920, height: 1080),
                                   step: VideoSize(width: 16, height: 8))
        #expect(range.contains(VideoSize(width: 1280, height: 720)))
        #expect(!range.contains(VideoSize(width: 1281, height: 720)))
        #expect(!range.contains(VideoSize(width: 2560, height: 1440)))
        let sizes = range.commonSizes.map(\.description)
        #expect(sizes.first == "16x16")
        #expect(sizes.last == "1920x1080")
        #expect(sizes.contains("1280x720"))
        #expect(!sizes.contains("3840x2160"))
    }
}
