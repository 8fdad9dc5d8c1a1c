import Foundation
import Testing
@testable import CamrecKit

/// `camrec doctor` end to end: the emulated camera and its faults, a plugin folder without
/// x264, a missing output folder and a stale partial recording give their exit codes and
/// one-line fixes; the checks' logic (mount table, FAT, sound, plugins) as plain values.
@Suite struct DoctorTests {
    func environment(_ spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    /// The check lines of a `doctor --json` run, and its result line.
    func parse(_ result: ChildProcessResult) throws -> (checks: [[String: Any]], result: [String: Any]) {
        let lines = JSONLines.parse(result)
        let last = try #require(lines.last, "no JSON lines: \(result.stderr)")
        #expect(last["type"] as? String == "result")
        #expect(lines.dropLast().allSatisfy { $0["type"] as? String == "check" })
        return (Array(lines.dropLast()), last)
    }

    func checks(_ lines: [[String: Any]], area: String) -> [[String: Any]] {
        lines.filter { $0["area"] as? String == area }
    }

    @Test func aCameraAndEveryPluginGiveExitZero() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["doctor", "--json", folder.url.path],
                                          environment: environment("/dev/video0,card=Desk Camera,formats=mjpeg"))
        #expect(result.status == 0, "\(result.stderr)")
        let (lines, summary) = try parse(result)
        #expect(summary["ok"] as? Bool == true && summary["exit_code"] as? Int == 0 && summary["problems"] as? Int == 0)
        // Every Debian package camrec takes elements from is named, and installed here.
        let packages = checks(lines, area: "plugin")
        // …then gst-rtsp-server's, which --serve loads (PluginChecks.serveCheck), and
        // libtesseract's, which camrec text loads (TextChecks).
        #expect(packages.compactMap { $0["package"] as? String } == PluginChecks.packages + [LiveStreamServer.package, TesseractLibrary.package])
        #expect(packages.allSatisfy { $0["status"] as? String == "ok" })
        let cameras = checks(lines, area: "camera")
        #expect(cameras.contains { $0["path"] as? String == "/dev/video0" && ($0["message"] as? String ?? "").contains("Desk Camera") })
        let recording = try #require(cameras.first { $0["name"] as? String == "recording" })
        #expect((recording["message"] as? String ?? "").contains("MJPG 1280x720"), "\(recording)")
        #expect(checks(lines, area: "encoder").map { $0["name"] as? String } == ["v4l2h264enc", "vah264enc", "vaapih264enc", "nvh264enc"])
        #expect(checks(lines, area: "sound").count == 2)
        let output = checks(lines, area: "output")
        #expect(output.contains { $0["name"] as? String == "free space" && ($0["free_bytes"] as? Int ?? -1) > 0 })
        #expect(output.contains { $0["name"] as? String == "file system" && !($0["filesystem"] as? String ?? "").isEmpty })
        #expect(checks(lines, area: "partial").first?["status"] as? String == "ok")
        // Nothing but problems carries an exit code, and nothing here is a problem.
        #expect(lines.allSatisfy { $0["exit_code"] == nil && $0["status"] as? String != "problem" })
    }

    @Test func installedHardwareEncodersAreTriedAndTheWellKnownMissingOnesNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try FakeHardwareEncoder.environment(base: environment("/dev/video0,formats=mjpeg"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["doctor", "--json", folder.url.path], environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let encoders = checks(try parse(result).checks, area: "encoder")
        #expect(encoders.map { $0["name"] as? String } == [FakeHardwareEncoder.broken, FakeHardwareEncoder.working,
                                                           "v4l2h264enc", "vah264enc", "vaapih264enc", "nvh264enc"])
        let broken = try #require(encoders.first)
        #expect(broken["status"] as? String == "info", "\(broken)")
        #expect((broken["message"] as? String ?? "").contains("does not work here (no device"), "\(broken)")
        #expect(encoders[1]["status"] as? String == "ok" && (encoders[1]["message"] as? String ?? "").hasPrefix("works"), "\(encoders[1])")
        #expect(encoders.dropFirst(2).allSatisfy { ($0["message"] as? String ?? "").hasPrefix("not available: it needs") })
    }

    @Test func encoderChecksOnPlainValues() {
        let vaapi = EncoderCandidate(factory: "vaapih264enc", longName: "", codec: .h264, isHardware: true, rank: 256, plugin: "vaapi")
        let v4l2 = EncoderCandidate(factory: "v4l2h264enc", longName: "", codec: .h264, isHardware: true, rank: 257, plugin: "video4linux2")
        let checks = PluginChecks.encoderChecks(installed: [v4l2, vaapi]) { candidate in
            candidate.factory == "vaapih264enc" ? .fails(reason: "no VA display") : .works
        }
        #expect(checks.map(\.name) == ["v4l2h264enc", "vaapih264enc", "vah264enc", "nvh264enc"])
        #expect(checks.map(\.status) == [.ok, .info, .info, .info])
        #expect(checks[1].message == "installed, but it does not work here (no VA display); --encoder auto skips it")
    }

    @Test("the RTSP server library, loaded for --serve only, is a warning when missing, never a problem")
    func serveCheckOnPlainValues() {
        let missing = PluginChecks.serveCheck { "libgstrtspserver-1.0.so.0: cannot open shared object file" }
        #expect(missing.status == .warning)
        #expect(missing.name == "libgstrtspserver-1.0-0" && missing.package == "libgstrtspserver-1.0-0")
        #expect(missing.message.contains("--serve is unavailable") && missing.fix == "sudo apt-get install libgstrtspserver-1.0-0",
                "\(missing.message)")
        let present = PluginChecks.serveCheck { nil }
        #expect(present.status == .ok && present.fix == nil, "\(present.message)")
        // Here the library is installed (scripts/deps): the real check loads it.
        #expect(PluginChecks.serveCheck().status == .ok, "\(PluginChecks.serveCheck().message)")
    }

    struct FaultCase: Sendable, CustomStringConvertible {
        let fault: String
        let status: Int
        let fix: String
        var description: String { fault }
    }

    @Test(arguments: [
        FaultCase(fault: "ebusy", status: 75, fix: "close the program"),
        FaultCase(fault: "eacces", status: 77, fix: "usermod -aG video"),
        FaultCase(fault: "enoent", status: 66, fix: "plug a camera in"),
    ])
    func cameraFaultsGiveTheirExitCodesAndFixes(_ fault: FaultCase) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["doctor", "--json", folder.url.path],
                                          environment: environment("/dev/video0,fault=\(fault.fault)"))
        #expect(Int(result.status) == fault.status, "\(result.stderr)")
        let (lines, summary) = try parse(result)
        #expect(summary["ok"] as? Bool == false && summary["exit_code"] as? Int == fault.status)
        let problem = try #require(lines.first { $0["status"] as? String == "problem" })
        #expect(problem["area"] as? String == "camera" && problem["exit_code"] as? Int == fault.status)
        #expect((problem["fix"] as? String ?? "").contains(fault.fix), "\(problem)")
        // The rest is still checked: a problem with the camera does not hide the output folder.
        #expect(checks(lines, area: "output").first?["status"] as? String == "ok")
    }

    @Test func theTestPatternNeedsNoCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["doctor", "--device", "test", folder.url.path],
                                          environment: environment("/dev/video0,fault=enoent"))
        #expect(result.status == 0, "\(result.stderr)")
        // People get one line per check and a summary; stdout is the report, stderr is empty.
        #expect(result.stdoutText.contains("ok      test: the test pattern"), "\(result.stdoutText)")
        #expect(result.stdoutText.hasSuffix("camrec has what a recording needs\n"), "\(result.stdoutText)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func aMissingPluginNamesItsPackage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try PluginRegistry.environment(withoutPlugin: "libgstx264.so", in: folder)
        let result = try CamrecBinary.run(["doctor", "--device", "test", folder.url.path], environment: environment)
        #expect(result.status == 69, "\(result.stdoutText)")
        #expect(result.stdoutText.contains("PROBLEM gstreamer1.0-plugins-ugly: missing: x264enc (H.264 encoding)"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("fix: sudo apt-get install gstreamer1.0-plugins-ugly"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("exit status 69"))
    }

    @Test func aMissingOutputFolderIsAProblemWithItsFix() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.path("cam/front")
        let result = try CamrecBinary.run(["doctor", "--device", "test", "--json", missing + "/clip.mp4"])
        #expect(result.status == 73, "\(result.stderr)")
        let (lines, _) = try parse(result)
        let problem = try #require(lines.first { $0["status"] as? String == "problem" })
        #expect(problem["area"] as? String == "output" && problem["path"] as? String == missing)
        #expect(problem["fix"] as? String == "mkdir -p \(missing)")
    }

    @Test func stalePartialRecordingsAreNamedButNotOnesBeingWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        FileManager.default.createFile(atPath: folder.path("old.partial.mp4"), contents: Data([0]))
        FileManager.default.createFile(atPath: folder.path("older.partial-2.mkv"), contents: Data([0]))
        FileManager.default.createFile(atPath: folder.path("movie.mp4"), contents: Data([0]))
        // A partial file a process holds open is a recording still running: not stale.
        FileManager.default.createFile(atPath: folder.path("live.partial.mp4"), contents: Data([0]))
        let live = try FileHandle(forReadingFrom: folder.url.appendingPathComponent("live.partial.mp4"))
        defer { try? live.close() }
        let result = try CamrecBinary.run(["doctor", "--device", "test", "--json", folder.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let (lines, summary) = try parse(result)
        let partial = try #require(checks(lines, area: "partial").first)
        #expect(partial["status"] as? String == "warning")
        let message = partial["message"] as? String ?? ""
        #expect(message.contains("2 unfinished recordings"), "\(message)")
        #expect(message.contains("old.partial.mp4") && message.contains("older.partial-2.mkv") && !message.contains("live"))
        #expect(partial["fix"] as? String == "camrec recover --in-place \(folder.url.path)/old.partial.mp4 \(folder.url.path)/older.partial-2.mkv",
                "\(partial)")
        #expect((summary["warnings"] as? Int ?? 0) >= 1)
    }

    @Test func usageErrorsAreOneLineWithExit64() throws {
        let result = try CamrecBinary.run(["doctor", "--segment", "0", "--json"])
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(JSONLines.parse(result).last?["type"] as? String == "error")
    }

    // MARK: the checks as plain values

    @Test func mountTableFindsTheMountOfAPath() {
        let table = MountTable(mountinfo: """
            22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw
            30 22 179:1 / /media/sd\\040card rw,relatime shared:9 - vfat /dev/mmcblk0p1 rw,fmask=0022
            31 22 179:1 /photos /srv/photos rw shared:10 - vfat /dev/mmcblk0p1 rw
            40 22 0:45 / /run rw,nosuid - tmpfs tmpfs rw
            garbage line
            """)
        #expect(table.mounts.count == 4)
        #expect(table.mounts[1].mountPoint == "/media/sd card")
        #expect(table.mount(device: (179, 1), path: "/media/sd card/cam")?.type == "vfat")
        #expect(table.mount(device: (179, 1), path: "/srv/photos/x")?.mountPoint == "/srv/photos")
        #expect(table.mount(device: (254, 1), path: "/home/me")?.type == "ext4")
        #expect(table.mount(device: (0, 45), path: "/run/camrec")?.type == "tmpfs")
        #expect(MountTable.isFAT("vfat") && MountTable.isFAT("msdos") && !MountTable.isFAT("exfat") && !MountTable.isFAT("ext4"))
        // The running system's table knows where / is.
        #expect(MountTable.current().mount(holding: "/") != nil)
    }

    @Test func fatWarnsUnlessSegmentsStayUnderFourGigabytes() throws {
        let size = FrameSize(width: 1920, height: 1080)
        let rate = FrameRateValue(numerator: 30, denominator: 1)
        func plan(_ segment: TimeSpec?) -> OutputChecks.Plan {
            .init(output: "/media/sd", size: size, rate: rate, segment: segment)
        }
        // 1080p30 is about 4.4 Mbit/s: 4 GiB in about 2.1 hours.
        let unsegmented = OutputChecks.fileSystem("vfat", folder: "/media/sd", plan: plan(nil))
        #expect(unsegmented.status == .warning && unsegmented.filesystem == "vfat")
        #expect(unsegmented.message.contains("4 GB") && unsegmented.message.contains("2.1 h"), "\(unsegmented.message)")
        #expect(unsegmented.fix?.contains("--segment 1h") == true, "\(unsegmented.fix ?? "")")
        let short = OutputChecks.fileSystem("vfat", folder: "/media/sd", plan: plan(.minutes(10)))
        #expect(short.status == .ok && short.message.contains("segments of 10m"), "\(short.message)")
        let long = OutputChecks.fileSystem("vfat", folder: "/media/sd", plan: plan(try TimeSpec.parse("3h")))
        #expect(long.status == .warning && long.fix?.contains("--segment 1h") == true, "\(long.message)")
        #expect(OutputChecks.fileSystem("exfat", folder: "/media/sd", plan: plan(nil)).status == .ok)
        let space = OutputChecks.space(free: 500_000_000, folder: "/media/sd", plan: plan(nil))
        #expect(space.status == .warning && space.freeBytes == 500_000_000 && space.message.contains("min"), "\(space.message)")
    }

    /// Issue 29 item 14: no free space at all is a problem (exit 74), and the --min-free
    /// suggested fits the file system (not 1G on a 3 MB one).
    @Test func item14_noFreeSpaceIsAProblemWithAMinFreeThatFits() throws {
        let plan = OutputChecks.Plan(output: "/media/sd", size: FrameSize(width: 1280, height: 720),
                                     rate: FrameRateValue(numerator: 30, denominator: 1), segment: nil)
        let full = OutputChecks.space(free: 0, folder: "/media/sd", plan: plan, total: 3_000_000)
        #expect(full.status == .problem && full.exitStatus == .diskFull, "\(full)")
        #expect(full.fix?.contains("--min-free 292K") == true, "\(full.fix ?? "")")
        #expect(OutputChecks.suggestedMinFree(total: 200 << 30) == "1G")
        #expect(OutputChecks.suggestedMinFree(total: 64 << 20) == "6M")
        guard getuid() == 0 else { return }
        // A real full file system: a 1 MB tmpfs filled up.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mount = folder.path("full")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount]).status == 0)
        defer { _ = try? ChildProcess.run("umount", [mount]) }
        _ = try ChildProcess.run("dd", ["if=/dev/zero", "of=\(mount)/fill", "bs=64k"])
        let result = try CamrecBinary.run(["doctor", "--device", "test", "--json", mount + "/cam.mp4"])
        #expect(result.status == 74, "\(result.stderr)")
        let check = JSONLines.parse(result).first { $0["name"] as? String == "free space" }
        #expect(check?["status"] as? String == "problem", "\(String(describing: check))")
        #expect((check?["fix"] as? String ?? "").contains("--min-free 102K"), "\(String(describing: check))")
    }

    @Test func soundIsAWarningOnlyWhenNothingCanRecord() {
        typealias Findings = SoundChecks.Findings
        let none = Findings(pulsesrc: true, pulseServer: nil, pulseSockets: ["/run/user/1000/pulse/native"],
                            alsasrc: false, alsaDevices: [])
        #expect(SoundChecks.checks(none).map(\.status) == [.warning, .warning])
        let alsa = Findings(pulsesrc: true, pulseServer: nil, pulseSockets: [], alsasrc: true,
                            alsaDevices: [.init(name: "hw:1,0", permitted: true)])
        #expect(SoundChecks.checks(alsa).map(\.status) == [.info, .ok])
        let forbidden = Findings(pulsesrc: false, pulseServer: nil, pulseSockets: [], alsasrc: true,
                                 alsaDevices: [.init(name: "hw:0,0", permitted: false)])
        #expect(SoundChecks.checks(forbidden)[1].fix?.contains("audio") == true)
        let pulse = Findings(pulsesrc: true, pulseServer: "/run/user/1000/pulse/native", pulseSockets: [], alsasrc: false, alsaDevices: [])
        #expect(SoundChecks.checks(pulse).map(\.status) == [.ok, .info])
        #expect(SoundChecks.alsaName(node: "pcmC1D0c") == "hw:1,0" && SoundChecks.alsaName(node: "pcmC1D0p") == nil)
        #expect(SoundChecks.pulseSockets(environment: ["PULSE_SERVER": "unix:/tmp/p tcp:host"]) == ["/tmp/p"])
        #expect(SoundChecks.pulseSockets(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]).first == "/run/user/7/pulse/native")
        #expect(!SoundChecks.answers("/nonexistent/socket"))
    }

    @Test func pluginsMissingAreProblemsOnlyWhenRequired() {
        let checks = PluginChecks.packageChecks { $0 != "x264enc" && $0 != "h265parse" }
        let ugly = checks.first { $0.package == "gstreamer1.0-plugins-ugly" }
        #expect(ugly?.status == .problem && ugly?.exitStatus == .unavailable)
        let bad = checks.first { $0.package == "gstreamer1.0-plugins-bad" }
        #expect(bad?.status == .warning && bad?.message == "missing: h265parse (trim of HEVC movies)")
        #expect(DoctorReport(checks: checks).exitStatus == .unavailable)
        // The first problem decides the exit status.
        let report = DoctorReport(checks: [
            DoctorCheck(.camera, "x", .warning, "w"),
            .problem(.camera, "recording", CamrecError(.cameraBusy, "busy")),
            .problem(.output, "folder", CamrecError(.cannotCreateOutput, "no folder")),
        ])
        #expect(report.exitStatus == .cameraBusy && report.problems == 2 && report.warnings == 1)
        #expect(!report.summary.ok && report.summary.exitCode == 75)
    }

}
