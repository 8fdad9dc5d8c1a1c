import GStreamer

#if canImport(Glibc)
import Glibc
#endif

/// The thin layer that reads the machine for `SoundCatalog`: GStreamer's device monitor and
/// /proc/asound with /sys. Everything it returns is parsed by pure code.
enum SoundMachine {
    /// The pulse device provider's `Audio/Source` devices. The monitor is started so that
    /// the provider asks the server which source is the default; `show-all` keeps a
    /// PipeWire provider from hiding the pulse one. Other providers' devices are left out
    /// (ALSA's are read from /proc; PipeWire's would repeat the server's sources).
    static func serverDevices() -> [ServerSources.Found] {
        guard let monitor = try? DeviceMonitor() else { return [] }
        monitor.showsAll = true
        monitor.addFilter(classes: "Audio/Source")
        let started = monitor.start()
        defer { if started { monitor.stop() } }
        return monitor.devices().compactMap { device in
            guard device.typeName == "GstPulseDevice", let name = device.stringProperty("internal-name") else { return nil }
            return ServerSources.Found(name: name, displayName: device.displayName, properties: device.properties)
        }
    }

    /// The cards in `asound`/cards, with their USB devices from `sysfs` and their capture
    /// formats from `asound`/cardN/stream0.
    static func cards(sysfs: SysfsTree, asound: String) -> [SoundCard] {
        guard let text = SoundFiles.read(asound + "/cards") else { return [] }
        return AsoundText.cards(text).map { card in
            var card = card
            card.usbDevice = sysfs.usbDevice(ofSoundCard: card.number)
            if let stream = SoundFiles.read(asound + "/card\(card.number)/stream0") {
                let format = AsoundText.captureFormat(stream: stream)
                card.captureChannels = format.channels
                card.captureRate = format.rate
            }
            return card
        }
    }
}

/// `pactl` (pulseaudio-utils), when installed: the sources' sample specs and the default
/// source, which GStreamer's pulse device provider does not give.
enum Pactl {
    static func read() -> (formats: [String: ServerSources.Format], defaultSource: String?) {
        guard let list = run("pactl list short sources") else { return ([:], nil) }
        let name = run("pactl get-default-source")?.trimmingWhitespace
        return (ServerSources.formats(pactlShortSources: list), name?.isEmpty == false ? name : nil)
    }

    /// The command's standard output, nil when it failed (not installed, no server).
    private static func run(_ command: String) -> String? {
        guard let pipe = popen(command + " 2>/dev/null", "r") else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return pclose(pipe) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
