@testable import CamrecKit
import Testing

/// `--schedule SPEC` read into windows of the week, and the one-line refusals.
struct ScheduleParsingTests {
    typealias Rule = Schedule.Rule

    func rules(_ spec: String) throws -> [Rule] { try Schedule(parsing: spec).rules }

    @Test func dayRangesListsAndDaily() throws {
        #expect(try rules("mon-fri 07:30-18:00, sat 09:00-13:00")
                == (0...4).map { Rule(day: $0, start: 27_000, end: 64_800) } + [Rule(day: 5, start: 32_400, end: 46_800)])
        for spec in ["sat,sun 10:00-14:00", "sat, sun 10:00-14:00", "sat sun 10:00-14:00", "SAT,Sunday 10:00-14:00"] {
            #expect(try rules(spec) == [Rule(day: 5, start: 36_000, end: 50_400), Rule(day: 6, start: 36_000, end: 50_400)], "\(spec)")
        }
        #expect(try rules("daily 08:00-09:00").map(\.day) == Array(0...6))
        // Times without days are every day's.
        #expect(try rules("08:00-09:00") == (try rules("daily 08:00-09:00")))
        // A range wraps past Sunday.
        #expect(try rules("fri-mon 08:00-09:00").map(\.day) == [4, 5, 6, 0])
        // Each name, short and long, is its day.
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let long = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        for day in 0..<7 {
            #expect(try rules("\(names[day]) 08:00-09:00").map(\.day) == [day])
            #expect(try rules("\(long[day]) 08:00-09:00").map(\.day) == [day])
        }
    }

    @Test func timesSecondsMidnightAndSeveralRangesPerDay() throws {
        // Over midnight: the window belongs to the day it starts on and ends the next.
        #expect(try rules("fri 22:00-06:00") == [Rule(day: 4, start: 79_200, end: 86_400 + 21_600)])
        #expect(try rules("mon 00:00-24:00") == [Rule(day: 0, start: 0, end: 86_400)])
        #expect(try rules("mon 07:30:15-07:30:45") == [Rule(day: 0, start: 27_015, end: 27_045)])
        #expect(try rules("mon 7:05-8:00") == [Rule(day: 0, start: 25_500, end: 28_800)])
        // Days hold for every range after them, until the next days.
        #expect(try rules("mon 09:00-10:00 11:00-12:00, tue 13:00-14:00")
                == [Rule(day: 0, start: 32_400, end: 36_000), Rule(day: 0, start: 39_600, end: 43_200), Rule(day: 1, start: 46_800, end: 50_400)])
    }

    @Test(arguments: [
        ("", "give the days and times"),
        ("mon-fry 07:00-08:00", "'fry' is not a day"),
        ("mon-tue-wed 07:00-08:00", "not a day or a range of days"),
        ("mon", "'mon' has no times"),
        ("mon 07:00-08:00, sat", "'sat' has no times"),
        ("mon 07:30", "'07:30' is not a time range"),
        ("mon 9-10", "'9' in '9-10' is not a time"),
        ("mon 07:60-08:00", "is not a time of day"),
        ("mon 25:00-26:00", "is not a time of day"),
        ("mon 24:00-01:00", "is not a time of day"),
        ("mon 07:00:5-08:00", "is not a time"),
        ("mon 09:00-09:00", "a window of no time"),
        ("mon 07:00-08:00-09:00", "is not a time range"),
    ])
    func refusalsSayWhatIsWrongAndShowAnExample(spec: String, message: String) {
        do {
            _ = try Schedule(parsing: spec)
            Issue.record("'\(spec)' was accepted")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.message.contains("e.g.") || error.message.contains("00:00-24:00"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    /// Through the record command's arguments: a usage error (exit 64) naming the option.
    @Test func theRecordCommandRefusesABadScheduleAsAUsageError() {
        var given = RecordArgumentsTests().arguments()
        given.unattended.schedule = "weekdays 07:00-08:00"
        let message = refusal { try given.job(environment: [:]) }
        #expect(message?.hasPrefix("--schedule: 'weekdays' is not a day") == true, "\(message ?? "")")
    }

    /// A schedule makes each window a movie of the series (NAME-0001.EXT, or OUTPUT's
    /// fields), lifts the default --max-duration (the windows end the movies), and keeps a
    /// given one as each window's cap.
    @Test func aScheduleMakesASeriesAndTheWindowsEndTheMovies() throws {
        var given = RecordArgumentsTests().arguments("shop.mp4")
        given.unattended.schedule = "mon-fri 07:30-18:00"
        var job = try given.job(environment: [:])
        #expect(job.schedule?.schedule.rules.count == 5 && job.schedule?.utc == false)
        #expect(job.settings.maxDuration == nil)
        #expect(job.request.segments?.naming.path(counter: 1, date: .now) == "shop-0001.mp4" && job.request.scheduled)
        given.maxDuration = "10m"
        given.unattended.utc = true
        job = try given.job(environment: [:])
        #expect(job.settings.maxDuration == .minutes(10) && job.schedule?.utc == true)
    }
}
