import Foundation
import Testing
@testable import CamrecKit

/// What the catalog reads, parsed from fixed texts: /proc/asound, `pactl`, the pulse device
/// provider's properties, ALSA device names and /dev/snd node names.
struct SoundParsingTests {
    static let cards = """
         0 [PCH            ]: HDA-Intel - HDA Intel PCH
                              HDA Intel PCH at 0xf7f10000 irq 32
         1 [C920           ]: USB-Audio - HD Pro Webcam C920
                              HD Pro Webcam C920 at usb-0000:00:14.0-1.2, high speed
        """

    @Test func procAsoundCardsGiveNumberIdNameAndUSBBusInfo() {
        let cards = AsoundText.cards(Self.cards)
        #expect(cards == [
            SoundCard(number: 0, id: "PCH", name: "HDA Intel PCH"),
            SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920", busInfo: "usb-0000:00:14.0-1.2"),
        ])
        #expect(AsoundText.cards("--- no soundcards ---\n").isEmpty)
    }

    /// A USB microphone's stream0: the capture part's channels (a mono mic stays mono) and
    /// 48 kHz when offered, else the highest rate; playback parts are ignored.
    @Test func usbStreamGivesCaptureChannelsAndRate() {
        let stream = """
            HD Pro Webcam C920 at usb-0000:00:14.0-1.2, high speed : USB Audio

            Playback:
              Status: Stop
              Interface 2
                Channels: 2
                Rates: 44100
            Capture:
              Status: Stop
              Interface 3
                Altset 1
                Format: S16_LE
                Channels: 1
                Endpoint: 0x84 (4 IN) (ASYNC)
                Rates: 16000, 24000, 32000
            """
        #expect(AsoundText.captureFormat(stream: stream) == (channels: 1, rate: 32000))
        let continuous = "Capture:\n  Interface 1\n    Channels: 2\n    Rates: 8000 - 96000 (continuous)\n"
        #expect(AsoundText.captureFormat(stream: continuous) == (channels: 2, rate: 48000))
        #expect(AsoundText.captureFormat(stream: "Playback:\n  Channels: 2\n") == (channels: nil, rate: nil))
    }

    @Test func pactlShortSourcesGiveEachSourcesFormat() {
        let text = "0\tvsink.monitor\tmodule-null-sink.c\ts16le 2ch 48000Hz\tIDLE\n1\tmono.monitor\tmodule-null-sink.c\ts16le 1ch 16000Hz\tSUSPENDED\n"
        #expect(ServerSources.formats(pactlShortSources: text) == [
            "vsink.monitor": .init(channels: 2, rate: 48000), "mono.monitor": .init(channels: 1, rate: 16000),
        ])
    }

    /// The provider's properties: monitors, the default, the card and USB device under a source.
    @Test func serverDevicesBecomeSources() {
        let found = [
            ServerSources.Found(name: "vsink.monitor", displayName: "Monitor of Null Output",
                                properties: ["device.class": "monitor", "is-default": "true", "device.description": "Monitor of Null Output"]),
            ServerSources.Found(name: "alsa_input.usb-046d_C920-02.analog-stereo", displayName: "HD Pro Webcam C920 Analog Stereo",
                                properties: ["device.class": "sound", "is-default": "false", "alsa.card": "1", "device.api": "alsa",
                                             "sysfs.path": "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2/1-1.2:1.3/sound/card1"]),
        ]
        let sources = ServerSources.sources(found, formats: ["alsa_input.usb-046d_C920-02.analog-stereo": .init(channels: 2, rate: 32000)])
        #expect(sources.map(\.isMonitor) == [true, false])
        #expect(sources.map(\.isDefault) == [true, false])
        #expect(sources[1].card == 1 && sources[1].channels == 2 && sources[1].rate == 32000)
        #expect(sources[1].usbDevice == "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2")
        #expect(sources[1].description == "HD Pro Webcam C920 Analog Stereo")
        #expect(sources[1].element == .pulse(device: "alsa_input.usb-046d_C920-02.analog-stereo"))
        // Without "is-default" from the provider, pactl's default source decides.
        let plain = found.map { ServerSources.Found(name: $0.name, displayName: $0.displayName, properties: [:]) }
        #expect(ServerSources.sources(plain, defaultName: "alsa_input.usb-046d_C920-02.analog-stereo").map(\.isDefault) == [false, true])
        #expect(ServerSources.sources(plain).map(\.isMonitor) == [true, false])
    }

    @Test func alsaDeviceNames() {
        #expect(AlsaDeviceName("hw:1,0") == AlsaDeviceName(plugin: "hw", card: "1", device: 0))
        #expect(AlsaDeviceName("hw:2") == AlsaDeviceName(plugin: "hw", card: "2", device: 0))
        #expect(AlsaDeviceName("plughw:CARD=C920,DEV=1") == AlsaDeviceName(plugin: "plughw", card: "C920", device: 1))
        #expect(AlsaDeviceName("sysdefault:CARD=C920")?.opensHardware == false)
        #expect(AlsaDeviceName("hw:1,0")?.opensHardware == true)
        #expect(AlsaDeviceName("pulse") == nil && AlsaDeviceName("hw:") == nil)
        let cards = [SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920")]
        #expect(AlsaDeviceName("hw:C920")?.cardNumber(among: cards, nodes: []) == 1)
        #expect(AlsaDeviceName("hw:1")?.cardNumber(among: cards, nodes: []) == 1)
        #expect(AlsaDeviceName("hw:2")?.cardNumber(among: cards, nodes: []) == nil)
    }

    @Test func captureNodesAndOpenErrors() {
        #expect(AlsaCaptureNodes.parse(node: "pcmC1D0c") == .init(card: 1, device: 0))
        #expect(AlsaCaptureNodes.parse(node: "pcmC1D0p") == nil && AlsaCaptureNodes.parse(node: "controlC1") == nil)
        #expect(AlsaCaptureNodes.state(errno: EBUSY) == .busy)
        #expect(AlsaCaptureNodes.state(errno: EACCES) == .forbidden)
        #expect(AlsaCaptureNodes.state(errno: ENOENT) == .missing)
    }

    /// ALSA capture devices as sources: named after their card, the card's capture format
    /// given to its first device only.
    @Test func alsaNodesBecomeSources() {
        let cards = [SoundCard(number: 1, id: "C920", name: "HD Pro Webcam C920", usbDevice: "/x/1-1", captureChannels: 1, captureRate: 32000)]
        let sources = SoundCatalog.alsaSources([.init(card: 1, device: 0), .init(card: 1, device: 1, permitted: false), .init(card: 3, device: 0)], cards: cards)
        #expect(sources.map(\.name) == ["hw:1,0", "hw:1,1", "hw:3,0"])
        #expect(sources[0].description == "HD Pro Webcam C920 (C920), device 0" && sources[0].channels == 1 && sources[0].rate == 32000)
        #expect(sources[1].channels == nil && !sources[1].permitted && sources[0].usbDevice == "/x/1-1")
        #expect(sources[2].description == "card 3, device 0")
    }
}
