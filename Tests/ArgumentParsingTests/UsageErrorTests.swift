import ArgumentParsing
import Testing

@Suite("CommandSpec.parse: mistakes and their messages")
struct UsageErrorTests {
    static let recordCases: [(arguments: [String], message: String)] = [
        (["--maxduration", "600", "x"],
         "unknown option '--maxduration'; did you mean '--max-duration'? (see camrec --help)"),
        (["--max-duraton=600", "x"],
         "unknown option '--max-duraton'; did you mean '--max-duration'? (see camrec --help)"),
        (["--froce", "x"], "unknown option '--froce'; did you mean '--force'? (see camrec --help)"),
        (["-force", "x"], "unknown option '-force'; did you mean '--force'? (see camrec --help)"),
        (["--Device", "0", "x"], "unknown option '--Device'; did you mean '--device'? (see camrec --help)"),
        (["--hlep"], "unknown option '--hlep'; did you mean '--help'? (see camrec --help)"),
        (["--max", "1", "x"], "unknown option '--max'; did you mean '--max-duration'? (see camrec --help)"),
        (["--verbose", "x"], "unknown option '--verbose' (see camrec --help)"),
        (["-x", "x"], "unknown option '-x' (see camrec --help)"),
        (["-H"], "unknown option '-H'; did you mean '-h'? (see camrec --help)"),
        (["--help=me"], "option '--help' does not take a value; write '--help' without 'me'"),
        (["--x", "x"], "unknown option '--x' (see camrec --help)"),
        (["--device"], "option '--device' needs a value (DEV)"),
        (["x", "-d"], "option '--device' needs a value (DEV)"),
        (["--device=", "x"], "option '--device' needs a value (DEV)"),
        (["--device", "--force", "x"],
         "option '--device' needs a value (DEV); to pass a value starting with '-', write '--device=--force'"),
        (["--device", "--", "x"], "option '--device' needs a value (DEV)"),
        (["--force=yes", "x"], "option '--force' does not take a value; write '--force' without 'yes'"),
        (["-f=1", "x"], "option '--force' does not take a value; write '--force' without '1'"),
        ([], "missing OUTPUT (usage: camrec [options] OUTPUT; see camrec --help)"),
        (["--force"], "missing OUTPUT (usage: camrec [options] OUTPUT; see camrec --help)"),
        (["a.mp4", "b.mp4"], "unexpected argument 'b.mp4': camrec takes OUTPUT (see camrec --help)"),
        (["a.mp4", "--", "--json"], "unexpected argument '--json': camrec takes OUTPUT (see camrec --help)"),
    ]

    @Test(arguments: recordCases)
    func record(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Fixtures.record.parse(arguments) }
    }

    static let otherCases: [(command: CommandSpec, arguments: [String], message: String)] = [
        (Fixtures.trim, ["in.mp4"],
         "missing OUTPUT (usage: camrec trim [--start TIME] [--end TIME] INPUT OUTPUT; see camrec trim --help)"),
        (Fixtures.trim, [],
         "missing INPUT and OUTPUT (usage: camrec trim [--start TIME] [--end TIME] INPUT OUTPUT; see camrec trim --help)"),
        (Fixtures.trim, ["--start"], "option '--start' needs a value (TIME)"),
        (Fixtures.trim, ["--stat", "1", "a", "b"], "unknown option '--stat'; did you mean '--start'? (see camrec trim --help)"),
        (Fixtures.still, ["a", "b", "c"], "unexpected argument 'c': camrec still takes OUTPUT [FORMAT] (see camrec still --help)"),
        (Fixtures.devices, ["/dev/video0"], "unexpected argument '/dev/video0': camrec devices takes no arguments (see camrec devices --help)"),
        (Fixtures.devices, ["-1"], "unexpected argument '-1': camrec devices takes no arguments (see camrec devices --help)"),
    ]

    @Test(arguments: otherCases)
    func other(_ command: CommandSpec, _ arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try command.parse(arguments) }
    }

    @Test(arguments: recordCases.map(\.arguments) + otherCases.map(\.arguments))
    func messagesAreOneLine(_ arguments: [String]) {
        for command in [Fixtures.record, Fixtures.trim, Fixtures.still, Fixtures.devices] {
            do {
                _ = try command.parse(arguments)
            } catch {
                #expect(!error.message.contains("\n"))
                #expect("\(error)" == error.message)
            }
        }
    }
}
