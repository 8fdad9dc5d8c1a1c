import Foundation
import Testing

/// `camrec devices` lists sound sources: a test sound server's two null sinks (one stereo
/// 48 kHz, the default; one mono 16 kHz) appear as monitor sources with their formats,
/// in the text and in the JSON (`"kind":"audio"`, valid against docs/events.schema.json);
/// without a server the listing says so and still lists the cameras.
@Suite(.serialized) struct DevicesSoundTests {
    static let sinks = [TestSoundServer.Sink(name: "vsink"), TestSoundServer.Sink(name: "mono", channels: 1, rate: 16000)]

    func cameraEnvironment() throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,card=Desk Camera")
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    @Test func listingShowsTheServersSourcesWithTheirFormatsAndTheDefault() throws {
        let server = try TestSoundServer(sinks: Self.sinks)
        defer { server.stop() }
        let environment = server.environment(base: try cameraEnvironment())
        let result = try CamrecBinary.run(["devices"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdoutText
        // The cameras first, as before; then the sound part.
        #expect(text.hasPrefix("0: /dev/video0  Desk Camera\n"), "\(text)")
        #expect(text.contains("\n\nSound sources (sound server at \(server.folder.path)/pulse/native):\n"), "\(text)")
        #expect(text.contains("   vsink.monitor  Monitor of Null Output\n      server, 2 channels, 48000 Hz, monitor of an output, default\n"), "\(text)")
        #expect(text.contains("   mono.monitor  Monitor of Null Output\n      server, 1 channel, 16000 Hz, monitor of an output\n"), "\(text)")
        #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")

        let json = try CamrecBinary.run(["devices", "--json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((document["devices"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["video"])
        #expect(document["sound_server"] as? String == server.folder.path + "/pulse/native")
        let sources = try #require(document["sound_sources"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: sources.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } })
        #expect(Set(byName.keys) == ["vsink.monitor", "mono.monitor"], "\(sources)")
        #expect(sources.allSatisfy { $0["kind"] as? String == "audio" && $0["element"] as? String == "pulsesrc" && $0["monitor"] as? Bool == true })
        #expect(byName["vsink.monitor"]?["channels"] as? Int == 2 && byName["vsink.monitor"]?["rate"] as? Int == 48000)
        #expect(byName["mono.monitor"]?["channels"] as? Int == 1 && byName["mono.monitor"]?["rate"] as? Int == 16000)
        #expect(byName["vsink.monitor"]?["default"] as? Bool == true && byName["mono.monitor"]?["default"] as? Bool == false)
        #expect(sources.allSatisfy { $0["camera"] is NSNull })
        try expectValid(arguments: ["devices", "--json"], stdout: json.stdout)
    }

    /// No server (PULSE_SERVER names a missing socket, no runtime folder): the listing says
    /// so, lists the cameras and succeeds; `--check` never looks at sound.
    @Test func withoutAServerTheListingSaysSo() throws {
        var environment = try cameraEnvironment()
        environment["PULSE_SERVER"] = "unix:/nonexistent/camrec-no-server/native"
        environment["XDG_RUNTIME_DIR"] = nil
        let result = try CamrecBinary.run(["devices"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("0: /dev/video0  Desk Camera\n"), "\(result.stdoutText)")
        // No ALSA device on these machines either: what to do instead.
        #expect(result.stdoutText.contains("\n\nSound sources (no sound server answers"), "\(result.stdoutText)")
        if !FileManager.default.fileExists(atPath: "/dev/snd") {
            #expect(result.stdoutText.hasSuffix("Sound sources (no sound server answers):\n   none: start PulseAudio or PipeWire, or plug in a microphone\n"),
                    "\(result.stdoutText)")
        }
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let json = try CamrecBinary.run(["devices", "--json"], environment: environment)
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(document["sound_server"] is NSNull)
        #expect((document["devices"] as? [Any])?.count == 1)
        try expectValid(arguments: ["devices", "--json"], stdout: json.stdout)
        #expect(try CamrecBinary.run(["devices", "--check"], environment: environment).status == 0)
    }

    /// The document validates against docs/events.schema.json, applied closed (skipped when
    /// python3-jsonschema is missing, as SchemaTests is).
    func expectValid(arguments: [String], stdout: Data) throws {
        guard SchemaTests.unusable == nil else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        JSONLog.write(arguments: arguments, stdout: stdout, to: log)
        let check = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
        #expect(check.status == 0, "\(check.stderr)\n\(check.stdoutText)")
    }
}
