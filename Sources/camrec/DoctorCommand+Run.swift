import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `DoctorCommand` does with its arguments: validates them into a request and runs it.
extension DoctorCommand: Subcommand {
    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> DoctorRequest {
        let camera = try CameraOptions.request(parsed)
        return try usage { () throws(CamrecError) in
            try DoctorRequest.parse(camera: camera, segment: parsed.value("--segment"), output: parsed.positional("OUTPUT"))
        }
    }

    static func console(for parsed: ParsedArguments) -> Console {
        Console(json: parsed.flag("--json"), quiet: false)
    }

    static func run(_ request: DoctorRequest, console: Console) throws(CamrecError) -> ExitStatus {
        let report = Doctor.examine(request)
        if console.json {
            for check in report.checks { console.emit(check, type: "check") }
            console.emit(report.summary, type: "result")
        } else {
            print(report.humanText, terminator: "")
        }
        return report.exitStatus
    }
}
