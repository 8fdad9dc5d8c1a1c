import MediaValues
import Testing

/// What V4L2 relies on: kernel intervals, reduction, exact order, the 1% tolerance and the
/// rounded text of listings and the format chooser's messages.
@Suite struct FrameRateValueTests {
    @Test func roundedDescriptionOfWholeAndFractionalRates() {
        #expect(FrameRateValue(30).roundedDescription == "30")
        #expect(FrameRateValue(numerator: 30000, denominator: 1001).roundedDescription == "29.97")
        #expect(FrameRateValue(numerator: 15, denominator: 2).roundedDescription == "7.5")
        #expect(FrameRateValue(numerator: 25, denominator: 4).roundedDescription == "6.25")
        #expect(FrameRateValue(numerator: 201, denominator: 10).roundedDescription == "20.1")
        #expect(FrameRateValue(numerator: 1001, denominator: 1000).roundedDescription == "1")
        #expect(FrameRateValue(numerator: 1, denominator: 20).roundedDescription == "0.05")
    }

    @Test func descriptionStaysExactWhereRoundedDoesNot() {
        // The command line's form reads back as the same rate; the listing's is for people.
        #expect(FrameRateValue(numerator: 30000, denominator: 1001).description == "30000/1001")
        #expect(FrameRateValue(numerator: 1001, denominator: 1000).description == "1.001")
        #expect(FrameRateValue(numerator: 1, denominator: 3).description == "1/3")
        #expect(FrameRateValue(numerator: 1, denominator: 3).roundedDescription == "0.33")
    }

    @Test func invertsIntervalsAndReduces() throws {
        // UVC reports 100 ns units: 333333/10000000 s per frame.
        let uvc = try #require(FrameRateValue(intervalNumerator: 333_333, intervalDenominator: 10_000_000))
        #expect(uvc.roundedDescription == "30")
        #expect(uvc.fraction == "10000000/333333")
        let thirty = try #require(FrameRateValue(intervalNumerator: 1, intervalDenominator: 30))
        #expect(thirty == FrameRateValue(30))
        #expect(FrameRateValue(numerator: 60, denominator: 2) == FrameRateValue(30))
        #expect(Set([FrameRateValue(numerator: 60, denominator: 2), FrameRateValue(30)]).count == 1)
        #expect(FrameRateValue(intervalNumerator: 0, intervalDenominator: 1) == nil)
        #expect(FrameRateValue(intervalNumerator: 1, intervalDenominator: 0) == nil)
        #expect(FrameRateValue(intervalNumerator: -1, intervalDenominator: 30) == nil)
    }

    @Test func comparesExactlyAndMeetsWithTolerance() {
        let ntsc = FrameRateValue(numerator: 30000, denominator: 1001)
        #expect(ntsc < FrameRateValue(30))
        #expect(ntsc.meets(FrameRateValue(30)))   // 29.97 is "30" for a person
        #expect(!FrameRateValue(25).meets(FrameRateValue(30)))
        #expect(FrameRateValue(60).meets(FrameRateValue(30)))
    }

    @Test func comparesTheKernelsLargestFractionsWithoutOverflow() throws {
        // 32-bit intervals multiply past Int64 when cross-multiplied.
        let max = Int(UInt32.max)
        let fast = try #require(FrameRateValue(intervalNumerator: 1, intervalDenominator: max))
        let slow = try #require(FrameRateValue(intervalNumerator: max, intervalDenominator: 1))
        // max/(max-2) and max/(max-4): just above 1 fps, and products near 2^64.
        let nearOne = try #require(FrameRateValue(intervalNumerator: max - 2, intervalDenominator: max))
        let nearOneFaster = try #require(FrameRateValue(intervalNumerator: max - 4, intervalDenominator: max))
        #expect(slow < fast)
        #expect(nearOne < nearOneFaster)
        #expect(!(nearOneFaster < nearOne))
        #expect(FrameRateValue(1) < nearOne)
        #expect(!(fast < fast))
    }

    @Test func fractionAndRoundedValue() {
        #expect(FrameRateValue(numerator: 30000, denominator: 1001).roundedValue == 29.97)
        #expect(FrameRateValue(30).roundedValue == 30)
        #expect(FrameRateValue(30).fraction == "30/1")
        #expect(FrameRateValue(numerator: 60, denominator: 2).fraction == "30/1")
    }
}
