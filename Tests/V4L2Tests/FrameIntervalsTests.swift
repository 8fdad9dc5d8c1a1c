import MediaValues
import Testing
@testable import V4L2

/// The kernel's stepwise and continuous ranges of intervals and sizes, made concrete.
/// (The rate and size values themselves are tested in MediaValuesTests.)
@Suite struct FrameIntervalsTests {
    @Test func listsRatesForIntervalRanges() throws {
        // Continuous 1/60 s … 1 s: fastest, common rates inside, slowest.
        let continuous = FrameRateValue.rates(intervalMinimum: (1, 60), intervalMaximum: (1, 1), intervalStep: nil)
        #expect(continuous.map(\.roundedDescription) == ["60", "50", "30", "25", "24", "20", "15", "10", "5", "1"])
        // Stepwise 1/30 … 1/10 in steps of 1/30 s: intervals 1/30, 2/30, 3/30 → 30, 15, 10 fps.
        let stepwise = FrameRateValue.rates(intervalMinimum: (1, 30), intervalMaximum: (1, 10), intervalStep: (1, 30))
        #expect(stepwise.map(\.roundedDescription) == ["30", "15", "10"])
        #expect(FrameRateValue.rates(intervalMinimum: (1, 10), intervalMaximum: (1, 30), intervalStep: nil).isEmpty)
    }
}

@Suite struct FrameSizeRangeTests {
    @Test func sizeRangeListsCommonSizesOnItsSteps() {
        let range = FrameSizeRange(minimum: FrameSize(width: 16, height: 16), maximum: FrameSize(width: 1920, height: 1080),
                                   step: FrameSize(width: 16, height: 8))
        #expect(range.contains(FrameSize(width: 1280, height: 720)))
        #expect(!range.contains(FrameSize(width: 1281, height: 720)))
        #expect(!range.contains(FrameSize(width: 2560, height: 1440)))
        let sizes = range.commonSizes.map(\.description)
        #expect(sizes.first == "16x16")
        #expect(sizes.last == "1920x1080")
        #expect(sizes.contains("1280x720"))
        #expect(!sizes.contains("3840x2160"))
    }
}
