import GStreamer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The thin layer that reads the machine for `SoundCatalog`: GStreamer's pulse device provider and
/// /proc/asound with /sys. Everything it returns is parsed by pure code.
enum SoundMachine {
    /// The `Audio/Source` devices of GStreamer's pulse device provider, asked of the server
    /// at `socket` (its "server" property, so that the server listed is the one found).
    /// The provider is started so that it asks the server which source is the default.
    /// (One provider rather than a device monitor: a monitor's pipewiredeviceprovider
    /// would hide it, and ALSA's devices are read from /proc.)
    static func serverDevices(socket: String) -> [ServerSources.Found] {
        // The provider is one per process (its factory keeps it): configure, start, list
        // and stop it as one step.
        providerLock.withLock { _ in unlockedServerDevices(socket: socket) }
    }

    private static let providerLock = Mutex(())

    private static func unlockedServerDevices(socket: String) -> [ServerSources.Found] {
        guard let provider = try? DeviceProvider.make("pulsedeviceprovider"),
              (try? provider.set("server", .string("unix:" + socket))) != nil
        else { return [] }
        let started = provider.start()
        defer { if started { provider.stop() } }
        return provider.devices().compactMap { device in
            guard device.deviceClass.split(separator: "/").contains("Source"),
                  let name = device.stringProperty("internal-name") else { return nil }
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
    static func read(socket: String) -> (formats: [String: ServerSources.Format], defaultSource: String?) {
        let server = "PULSE_SERVER=" + quoted("unix:" + socket) + " "
        guard let list = run(server + "pactl list short sources") else { return ([:], nil) }
        let name = run(server + "pactl get-default-source")?.trimmingWhitespace
        return (ServerSources.formats(pactlShortSources: list), name?.isEmpty == false ? name : nil)
    }

    /// `text` in single quotes for the shell.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
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
