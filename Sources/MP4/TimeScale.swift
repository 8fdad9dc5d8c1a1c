/// Arithmetic on media times that never traps, whatever a corrupt file says.
enum TimeScale {
    /// `value` ticks of timescale `source` in timescale `target`, rounded to the nearest;
    /// `UInt64.max` when it does not fit.
    static func convert(_ value: UInt64, from source: UInt32, to target: UInt32) -> UInt64 {
        let product = value.multipliedFullWidth(by: UInt64(target))
        let divisor = UInt64(max(source, 1))
        guard product.high < divisor else { return .max }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        return remainder >= divisor - remainder && quotient < .max ? quotient + 1 : quotient
    }

    /// `a + b`, or `UInt64.max` when that overflows.
    static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
