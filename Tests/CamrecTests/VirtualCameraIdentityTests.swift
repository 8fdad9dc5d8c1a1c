import Foundation
import GStreamer
import Testing
import V4L2

extension VirtualCameraTests {
    /// The V4L2 module's camera identity against the emulated camera: `DeviceIdentity.read`,
    /// stable links in `probe`/`scan`/`select`, and `DeviceDiscovery.locate` after the camera
    /// came back at another node. The V4L2 calls must run in a process that preloads the
    /// library, and this one never does: so each test runs this test binary again, preloaded,
    /// with only `V4L2Child.run` enabled, and reads what it printed (see `V4L2Child`).
    @Suite("VirtualCamera: identity through the V4L2 module")
    struct Identity: VirtualCameraHarness {
        static let byID = "/dev/v4l/by-id/usb-Vendor_Cam_1234-video-index0"
        static let byPath = "/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"
        static let camera = "card=Vendor Cam,bus=usb-0000:00:14.0-1,byid=usb-Vendor_Cam_1234-video-index0,bypath=pci-0000:00:14.0-usb-0:1:1.0-video-index0"

        @Test("identity, probe, scan and select see the by-id and by-path links; a link given as a path resolves to its node")
        func identityAndStableNames() throws {
            let results = try runChild(spec: "/dev/video0,card=Other;/dev/video3,\(Self.camera)", steps: [
                .identity(path: "/dev/video3"), .identity(path: Self.byID), .probe(path: Self.byPath),
                .select(selector: Self.byID), .scan, .listing(directory: "/dev/v4l/by-id"),
                .select(selector: "/dev/v4l/by-id/no-such-camera"),
            ])
            try #require(results.count == 7)
            let expected = DeviceIdentity(card: "Vendor Cam", bus: "usb-0000:00:14.0-1", byID: Self.byID, byPath: Self.byPath)
            #expect(results[0].identity == expected, "\(results[0])")
            #expect(results[1].identity == expected, "\(results[1])")
            #expect(results[2].device?.path == "/dev/video3" && results[2].device?.identity == expected, "\(results[2])")
            #expect(results[3].device?.path == "/dev/video3" && results[3].device?.stableName == Self.byID, "\(results[3])")
            let scanned = results[4].devices ?? []
            #expect(scanned.map(\.path) == ["/dev/video0", "/dev/video3"], "\(results[4])")
            #expect(scanned.first?.stableName == nil && scanned.last?.identity == expected, "\(results[4])")
            // Foundation lists the emulated directory and reads the link too (recorders may use it)
            #expect(results[5].names == ["usb-Vendor_Cam_1234-video-index0"], "\(results[5])")
            #expect(results[5].link == "../../video3", "\(results[5])")
            #expect(results[6].error == DeviceError.notFound(path: "/dev/v4l/by-id/no-such-camera").message, "\(results[6])")
        }

        /// The camera is unplugged while v4l2src streams from it (in the same process, as in a
        /// recorder) and comes back as /dev/video6; `locate` finds it there by its by-id link,
        /// or by bus info and card when it has no link.
        @Test("locate finds the camera again at its new node after a replug", arguments: [true, false])
        func locateAfterReplug(withLink: Bool) throws {
            let camera = withLink ? Self.camera : "card=Vendor Cam,bus=usb-0000:00:14.0-1"
            let path = withLink ? Self.byID : "/dev/video2"
            let results = try runChild(
                spec: "/dev/video0,card=Vendor Cam,bus=usb-0000:00:14.0-2;/dev/video2,\(camera),formats=mjpeg,fault=unplug@5,replug=200@/dev/video6",
                steps: [.identity(path: path), .locate, .unplug(path: path), .locate, .waitFor(path: "/dev/video6"),
                        .locate, .identity(path: "/dev/video6")])
            try #require(results.count == 7)
            let before = try #require(results[0].identity, "\(results[0])")
            #expect(before.card == "Vendor Cam" && before.bus == "usb-0000:00:14.0-1")
            #expect(results[1].device?.path == "/dev/video2", "\(results[1])")
            #expect(results[2].error?.contains("Could not read from resource") == true, "\(results[2])")
            // unplugged: not there (the other camera has the same card in another port)
            #expect(results[3].device == nil && results[3].error == nil, "\(results[3])")
            #expect(results[5].device?.path == "/dev/video6", "\(results[5])")
            #expect(results[5].device?.identity == results[6].identity, "\(results[5]) \(results[6])")
            #expect(results[6].identity.map { before.match($0) } == (withLink ? .byID : .busAndCard), "\(results[6])")
        }

        @Test("a busy camera behind its by-id link is reported, not passed over")
        func locateBusyCamera() throws {
            let identity = DeviceIdentity(card: "Vendor Cam", bus: "usb-0000:00:14.0-1", byID: Self.byID)
            let results = try runChild(spec: "/dev/video1,\(Self.camera),fault=ebusy", steps: [.locateIdentity(identity)])
            #expect(results.first?.error == DeviceError.busy(path: Self.byID).message, "\(results)")
        }

        // MARK: helpers

        /// Runs `steps` in a preloaded copy of this test binary; one result per step.
        private func runChild(spec: String, steps: [V4L2Child.Step]) throws -> [V4L2Child.Outcome] {
            var environment = try env(spec: spec)
            environment[V4L2Child.variable] = String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)
            environment["CAMREC_DEVICE_PATHS"] = nil
            let binary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            let run = try ChildProcess.run(binary.path, ["--testing-library", "swift-testing", "--filter", "V4L2Child"],
                                           environment: environment, timeout: 90)
            let outcomes = run.stdoutText.split(whereSeparator: \.isNewline)
                .filter { $0.hasPrefix(V4L2Child.marker) }
                .compactMap { try? JSONDecoder().decode(V4L2Child.Outcome.self, from: Data($0.dropFirst(V4L2Child.marker.count).utf8)) }
            try #require(run.status == 0 && !run.timedOut && outcomes.count == steps.count,
                         "exit \(run.status): \(run.stdoutText)\(run.stderr)")
            return outcomes
        }
    }
}

/// The child side of `VirtualCameraTests.Identity`: enabled only in a process started with
/// `CAMREC_V4L2_CHILD` (JSON steps) and the emulated camera preloaded. It runs the steps in
/// order and prints one line per step, `V4L2-CHILD {json}`.
@Suite struct V4L2Child {
    static let variable = "CAMREC_V4L2_CHILD"
    static let marker = "V4L2-CHILD "

    enum Step: Codable {
        /// `DeviceIdentity.read(path:)`; remembered for `.locate`.
        case identity(path: String)
        /// `DeviceDiscovery.locate` of the identity read last.
        case locate
        /// `DeviceDiscovery.locate` of this identity.
        case locateIdentity(DeviceIdentity)
        /// `DeviceDiscovery.probe(path:)`.
        case probe(path: String)
        /// `DeviceDiscovery.select` of a selector as typed.
        case select(selector: String)
        /// `DeviceDiscovery.scan()`.
        case scan
        /// Foundation's listing of a directory and what its first entry links to.
        case listing(directory: String)
        /// v4l2src on `path` until the stream fails (the camera is unplugged): its error.
        case unplug(path: String)
        /// Waits (20 s at most) until `path` exists.
        case waitFor(path: String)
    }

    struct Outcome: Codable, CustomStringConvertible {
        var identity: DeviceIdentity?
        var device: CaptureDevice?
        var devices: [CaptureDevice]?
        var names: [String]?
        var link: String?
        var error: String?
        var description: String {
            [identity.map { "identity \($0)" }, device.map { "device \($0.path) \($0.identity)" },
             devices.map { "devices \($0.map(\.path))" }, names.map { "names \($0)" }, link.map { "link \($0)" },
             error.map { "error \($0)" }].compactMap { $0 }.joined(separator: "; ")
        }
    }

    static let steps: [Step]? = ProcessInfo.processInfo.environment[variable]
        .flatMap { try? JSONDecoder().decode([Step].self, from: Data($0.utf8)) }

    @Test(.enabled(if: steps != nil, "runs only as the child of VirtualCameraTests.Identity"))
    func run() throws {
        var remembered: DeviceIdentity?
        for step in Self.steps ?? [] {
            var outcome = Outcome()
            do {
                switch step {
                case .identity(let path):
                    let identity = try DeviceIdentity.read(path: path)
                    remembered = identity
                    outcome.identity = identity
                case .locate:
                    if let remembered { outcome.device = try DeviceDiscovery.locate(remembered, extraPaths: nil) }
                    else { outcome.error = "no identity read" }
                case .locateIdentity(let identity):
                    outcome.device = try DeviceDiscovery.locate(identity, extraPaths: nil)
                case .probe(let path):
                    outcome.device = try DeviceDiscovery.probe(path: path)
                case .select(let text):
                    if let selector = DeviceSelector(text) {
                        outcome.device = try DeviceDiscovery.select(selector, extraPaths: nil).device
                    }
                case .scan:
                    outcome.devices = DeviceDiscovery.scan(extraPaths: nil).devices
                case .listing(let directory):
                    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                    outcome.names = names
                    if let first = names.first {
                        outcome.link = try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + first)
                    }
                case .unplug(let path):
                    outcome.error = try streamUntilFailure(path)
                case .waitFor(let path):
                    let deadline = Date().addingTimeInterval(20)
                    while !FileManager.default.fileExists(atPath: path) && Date() < deadline {
                        Thread.sleep(forTimeInterval: 0.005)
                    }
                    if !FileManager.default.fileExists(atPath: path) { outcome.error = "\(path) did not appear" }
                }
            } catch let error as DeviceError {
                outcome.error = error.message
            } catch let error as SelectionError {
                outcome.error = error.message
            }
            let line = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
            print(Self.marker + line)
        }
    }

    /// Streams from `path` with v4l2src until an error ends the stream; its message.
    private func streamUntilFailure(_ path: String) throws -> String {
        let pipeline = try Pipeline.parse("v4l2src device=\(path) ! image/jpeg,width=640,height=480 ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        _ = try pipeline.setState(.playing)
        guard let bus = pipeline.bus else { return "no bus" }
        while let message = bus.pop(timeoutNanoseconds: 20_000_000_000) {
            switch message {
            case .error(let failure): return failure.message
            case .endOfStream: return "end of stream"
            default: continue
            }
        }
        return "timed out"
    }
}
