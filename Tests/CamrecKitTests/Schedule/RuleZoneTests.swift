@testable import CamrecKit
import Foundation
import Testing

/// The test zones against the tz database, read by `date` in a child process (TZ set for
/// it alone): the schedule's DST tests stand on what the C library would say.
struct RuleZoneTests {
    /// `date`'s UTC offset of `instant` in `zone`, in seconds east.
    static func offset(_ zone: String, _ instant: Int64) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-d", "@\(instant)", "+%z"]
        process.environment = ["TZ": zone]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let sign = digits.hasPrefix("-") ? -1 : 1
        let value = Int(digits.dropFirst()) ?? 0
        return sign * ((value / 100) * 3600 + (value % 100) * 60)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin"), "tzdata is not installed"),
          arguments: [("Europe/Berlin", RuleZone.berlin), ("America/New_York", RuleZone.newYork)])
    func theTestZonesAgreeWithTheTzDatabaseAroundEveryChangeOf2026(zone: String, rule: RuleZone) throws {
        for year in [2026, 2027] {
            for change in [rule.starts, rule.ends] {
                let at = RuleZone.instant(of: change, in: year)
                for instant in [at - 3600, at - 1, at, at + 1, at + 3600] {
                    #expect(rule.offset(at: instant) == (try Self.offset(zone, instant)), "\(zone) \(instant)")
                }
            }
        }
    }
}
