/// Arithmetic on media times that never traps, whatever a corrupt file says.
package enum TimeScale {
    /// `value` ticks of timescale `source` in timescale `target`, rounded to the nearest;
    /// `UInt64.max` when it does not fit.
    static func convert(_ value: UInt64, from source: UInt32, to target: UInt32) -> UInt64 {
        let product = value.multipliedFullWidth(by: UInt64(target))
        let divisor = UInt64(max(source, 1))
        guard product.high < divisor else { return .max }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        return remainder >= divisor - remainder && quotient < .max ? quotient + 1 : quotient
    }

    /// Nanoseconds of `ticks` at `timescale`, truncated (each instant on its own, as a
    /// demuxer converts it).
    package static func nanoseconds(_ ticks: Int64, _ timescale: UInt32) -> Int64 {
        let scale = Int64(max(timescale, 1))
        return ticks / scale * 1_000_000_000 + ticks % scale * 1_000_000_000 / scale
    }

    /// `a + b`, or `UInt64.max` when that overflows.
    static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
