import Testing
@testable import CamrecKit

/// `--audio` resolved on machines made of plain values: each request's pick, its channels and
/// rate, its reason, and each failure's kind (exit status) and message.
struct AudioSourceResolverTests {
    static let cameraUSB = "/devices/pci0000:00/0000:00:14.0/usb1/1-1"
    static let card = SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920", usbDevice: cameraUSB, captureChannels: 1, captureRate: 32000)
    static let alsaMic = SoundSource(origin: .alsa, name: "hw:1,0", description: "HD Pro Webcam C920 (C920), device 0",
                                     channels: 1, rate: 32000, card: 1, usbDevice: cameraUSB)
    static let serverMic = SoundSource(origin: .server, name: "alsa_input.usb-046d_C920", description: "HD Pro Webcam C920 Mono",
                                       channels: 1, rate: 48000, card: 1)
    static let monitor = SoundSource(origin: .server, name: "vsink.monitor", description: "Monitor of Null Output",
                                     channels: 2, rate: 48000, isMonitor: true, isDefault: true)

    /// A machine: a server (or none), its sources, the card and ALSA devices; the camera
    /// /dev/video0 on the card's USB device, /dev/video2 on another.
    func resolver(server: Bool = true, serverSources: [SoundSource] = [monitor, serverMic], alsa: [SoundSource] = [alsaMic],
                  state: AlsaCaptureNodes.State = .free, installed: Set<String> = ["pulsesrc", "alsasrc"]) -> AudioSourceResolver {
        let catalog = SoundCatalog(server: server ? "/run/user/0/pulse/native" : nil, serverSources: server ? serverSources : [],
                                   cards: alsa.isEmpty ? [] : [Self.card], alsaSources: alsa)
        return AudioSourceResolver(
            catalog: { catalog },
            camera: { path in .init(path: path, usbDevice: path == "/dev/video0" ? Self.cameraUSB : "/devices/pci0000:00/0000:00:14.0/usb1/1-4") },
            alsaState: { _ in state },
            elementExists: { installed.contains($0) })
    }

    func error(_ body: () throws(CamrecError) -> AudioInput?) -> CamrecError? {
        do { _ = try body(); return nil } catch { return error }
    }

    @Test func noneAndTestNeedNothing() throws {
        let nothing = resolver(server: false, alsa: [], installed: [])
        #expect(try nothing.resolve(.none, camera: "/dev/video0") == nil)
        #expect(try nothing.resolve(.test, camera: nil) == AudioInput(element: .test, reason: "a test tone (audiotestsrc)"))
    }

    /// default: the server's default source (pulsesrc with no device) with its format, else
    /// ALSA's default PCM, else exit 69 saying what to start.
    @Test func defaultPicksTheServerThenALSA() throws {
        let server = try #require(try resolver().resolve(.systemDefault, camera: nil))
        #expect(server.element == .pulse(device: nil) && server.channels == 2 && server.rate == 48000)
        #expect(server.reason == "the sound server's default source vsink.monitor (Monitor of Null Output)")
        let alsa = try #require(try resolver(server: false).resolve(.systemDefault, camera: nil))
        #expect(alsa.element == .alsa(device: "default") && alsa.channels == nil)
        #expect(alsa.reason.contains("no sound server answers") && alsa.reason.contains("hw:1,0"))
        let none = error { () throws(CamrecError) in try resolver(server: false, alsa: []).resolve(.systemDefault, camera: nil) }
        #expect(none?.kind == .unavailable && none?.status.rawValue == 69)
        #expect(none?.message == "no sound server answers and no ALSA capture device exists: start PulseAudio or PipeWire, or plug in a microphone; camrec devices lists sound sources")
        let noPulsesrc = error { () throws(CamrecError) in try resolver(installed: ["alsasrc"]).resolve(.systemDefault, camera: nil) }
        #expect(noPulsesrc == CamrecError(.unavailable, "pulsesrc is not installed: sudo apt-get install gstreamer1.0-plugins-good"))
        let forbidden = error { () throws(CamrecError) in
            try resolver(server: false, alsa: [SoundSource(origin: .alsa, name: "hw:1,0", description: "C920", card: 1, permitted: false)])
                .resolve(.systemDefault, camera: nil)
        }
        #expect(forbidden?.kind == .permissionDenied && forbidden?.status.rawValue == 77)
    }

    /// camera: the server's source for the camera's card (mono stays mono), else hw:1,0;
    /// a camera without a microphone is exit 66; the test pattern is a usage error.
    @Test func cameraPicksTheMicrophoneOnTheCamerasUSBDevice() throws {
        let server = try #require(try resolver().resolve(.camera, camera: "/dev/video0"))
        #expect(server.element == .pulse(device: "alsa_input.usb-046d_C920") && server.channels == 1 && server.rate == 48000)
        #expect(server.camera == "/dev/video0" && server.reason.hasPrefix("the camera's microphone: sound-server source alsa_input.usb-046d_C920"))
        let alsa = try #require(try resolver(server: false).resolve(.camera, camera: "/dev/video0"))
        #expect(alsa.element == .alsa(device: "hw:1,0") && alsa.channels == 1 && alsa.rate == 32000 && alsa.camera == "/dev/video0")
        #expect(alsa.reason == "the camera's microphone hw:1,0 (HD Pro Webcam C920, on the camera's USB device; no sound server answers)")
        // The server runs but offers no source for the card (e.g. it was told to leave it alone).
        let bypass = try #require(try resolver(serverSources: [Self.monitor]).resolve(.camera, camera: "/dev/video0"))
        #expect(bypass.element == .alsa(device: "hw:1,0") && bypass.reason.contains("the sound server offers no source for it"))
        let noMic = error { () throws(CamrecError) in try resolver().resolve(.camera, camera: "/dev/video2") }
        #expect(noMic == CamrecError(.noCamera, "the camera /dev/video2 has no microphone (no sound device on its USB device); camrec devices lists sound sources"))
        #expect(noMic?.status.rawValue == 66)
        let pattern = error { () throws(CamrecError) in try resolver().resolve(.camera, camera: nil) }
        #expect(pattern?.kind == .usage)
        let busy = error { () throws(CamrecError) in try resolver(server: false, state: .busy).resolve(.camera, camera: "/dev/video0") }
        #expect(busy?.kind == .cameraBusy && busy?.status.rawValue == 75)
    }

    /// A server source by name must exist there; the error lists the sources there are.
    @Test func serverSourceMustExist() throws {
        let found = try #require(try resolver().resolve(.server("vsink.monitor"), camera: nil))
        #expect(found.element == .pulse(device: "vsink.monitor") && found.channels == 2)
        #expect(found.reason == "sound-server source vsink.monitor (Monitor of Null Output)")
        let missing = error { () throws(CamrecError) in try resolver().resolve(.server("nope"), camera: nil) }
        #expect(missing == CamrecError(.noCamera, "the sound server has no source nope: its sources are vsink.monitor (Monitor of Null Output), alsa_input.usb-046d_C920 (HD Pro Webcam C920 Mono)"))
        let noServer = error { () throws(CamrecError) in try resolver(server: false).resolve(.server("nope"), camera: nil) }
        #expect(noServer?.kind == .unavailable && noServer?.message.contains("start PulseAudio or PipeWire") == true)
    }

    /// An ALSA device must exist; busy is 75, forbidden 77; names camrec cannot map pass.
    @Test func alsaDeviceMustExistAndOpen() throws {
        let found = try #require(try resolver().resolve(.alsa("hw:1,0"), camera: nil))
        #expect(found.element == .alsa(device: "hw:1,0") && found.channels == 1 && found.rate == 32000)
        #expect(found.reason == "ALSA device hw:1,0 (HD Pro Webcam C920)")
        #expect(try resolver().resolve(.alsa("plughw:CARD=C920,DEV=0"), camera: nil)?.element == .alsa(device: "plughw:CARD=C920,DEV=0"))
        let noCard = error { () throws(CamrecError) in try resolver().resolve(.alsa("hw:3,0"), camera: nil) }
        #expect(noCard == CamrecError(.noCamera, "no ALSA sound card 3 for hw:3,0: ALSA capture devices: hw:1,0 (HD Pro Webcam C920 (C920), device 0)"))
        let noDevice = error { () throws(CamrecError) in try resolver().resolve(.alsa("hw:1,2"), camera: nil) }
        #expect(noDevice?.kind == .noCamera && noDevice?.message.contains("card 1 has no capture device 2") == true)
        let busy = error { () throws(CamrecError) in try resolver(state: .busy).resolve(.alsa("hw:1,0"), camera: nil) }
        #expect(busy?.kind == .cameraBusy && busy?.message.hasPrefix("the ALSA device hw:1,0 is busy") == true)
        let forbidden = error { () throws(CamrecError) in try resolver(state: .forbidden).resolve(.alsa("hw:1,0"), camera: nil) }
        #expect(forbidden?.kind == .permissionDenied && forbidden?.message.contains("audio group") == true)
        // sysdefault/dsnoop go through plugins that may share the device: only the card is checked.
        #expect(try resolver(state: .busy).resolve(.alsa("dsnoop:1"), camera: nil)?.element == .alsa(device: "dsnoop:1"))
        let unchecked = try #require(try resolver(alsa: []).resolve(.alsa("mycustom:"), camera: nil))
        #expect(unchecked.reason.contains("not checked"))
        let noAlsasrc = error { () throws(CamrecError) in try resolver(installed: ["pulsesrc"]).resolve(.alsa("hw:1,0"), camera: nil) }
        #expect(noAlsasrc == CamrecError(.unavailable, "alsasrc is not installed: sudo apt-get install gstreamer1.0-alsa"))
    }
}
