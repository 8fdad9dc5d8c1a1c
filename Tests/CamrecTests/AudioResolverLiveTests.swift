import CamrecKit
import Foundation
import Testing

/// `AudioSourceResolver` over this machine (GStreamer's pulse device provider, pactl, /proc,
/// /sys, /dev/snd) against the test sound server: what RecordCommand will get for each
/// `--audio` request, and the exit statuses when a source is missing or nothing answers.
@Suite(.serialized) struct AudioResolverLiveTests {
    @Test func resolvesAgainstTheTestSoundServer() throws {
        let server = try TestSoundServer(sinks: DevicesSoundTests.sinks)
        defer { server.stop() }
        let resolver = AudioSourceResolver.machine(environment: server.environment())
        let fallback = try #require(try resolver.resolve(.systemDefault, camera: nil))
        #expect(fallback.element == .pulse(device: nil) && fallback.channels == 2 && fallback.rate == 48000, "\(fallback)")
        #expect(fallback.reason == "the sound server's default source vsink.monitor (Monitor of Null Output)")
        let mono = try #require(try resolver.resolve(.server("mono.monitor"), camera: nil))
        #expect(mono.element == .pulse(device: "mono.monitor") && mono.channels == 1 && mono.rate == 16000, "\(mono)")
        do {
            _ = try resolver.resolve(.server("nope"), camera: nil)
            Issue.record("a missing source resolved")
        } catch {
            #expect(error.status.rawValue == 66)
            #expect(error.message.contains("vsink.monitor") && error.message.contains("mono.monitor"), "\(error.message)")
        }
        // The null sinks belong to no camera; the test pattern has no microphone.
        #expect(throws: CamrecError.self) { try resolver.resolve(.camera, camera: "/dev/video0") }
        #expect(try resolver.resolve(.test, camera: nil)?.element == .test)
    }

    @Test func withoutAServerNorALSADefaultIsUnavailable() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/snd") else { return }   // a machine with ALSA devices
        let resolver = AudioSourceResolver.machine(environment: ["PULSE_SERVER": "unix:/nonexistent/camrec-no-server"])
        do {
            _ = try resolver.resolve(.systemDefault, camera: nil)
            Issue.record("default resolved without a server or ALSA device")
        } catch {
            #expect(error.status.rawValue == 69)
            #expect(error.message == "no sound server answers and no ALSA capture device exists: start PulseAudio or PipeWire, or plug in a microphone; camrec devices lists sound sources")
        }
    }
}
