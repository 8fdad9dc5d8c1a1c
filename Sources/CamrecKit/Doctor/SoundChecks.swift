#if canImport(Glibc)
import Glibc
#endif

/// Sound sources: a PulseAudio or PipeWire server that answers (pulsesrc), and ALSA
/// capture devices this user may open (alsasrc). Never a problem: a movie needs no sound.
enum SoundChecks {
    /// What was found, as plain values (the checks are made from them).
    struct Findings: Equatable {
        /// An ALSA capture device, e.g. "hw:0,0", and whether this user may open it.
        struct AlsaDevice: Equatable {
            var name: String
            var permitted: Bool
        }

        /// pulsesrc is installed.
        var pulsesrc: Bool
        /// The socket a server answered on, if one did.
        var pulseServer: String?
        /// The sockets tried.
        var pulseSockets: [String]
        /// alsasrc is installed.
        var alsasrc: Bool
        /// ALSA capture devices ("hw:0,0") and whether this user may open each.
        var alsaDevices: [AlsaDevice]
    }

    /// Looks at this machine.
    static func look(exists: (String) -> Bool) -> Findings {
        let sockets = pulseSockets(environment: environment())
        return Findings(pulsesrc: exists("pulsesrc"), pulseServer: sockets.first(where: answers),
                        pulseSockets: sockets, alsasrc: exists("alsasrc"), alsaDevices: alsaCaptureDevices())
    }

    /// Two checks, pulsesrc and alsasrc: ok where a source can record, else a warning when
    /// neither can (info when the other one can).
    static func checks(_ found: Findings) -> [DoctorCheck] {
        let pulseUsable = found.pulsesrc && found.pulseServer != nil
        let permitted = found.alsaDevices.filter(\.permitted).map(\.name)
        let alsaUsable = found.alsasrc && !permitted.isEmpty
        let missingStatus: DoctorCheck.Status = pulseUsable || alsaUsable ? .info : .warning

        let pulse: DoctorCheck
        if !found.pulsesrc {
            pulse = DoctorCheck(.sound, "pulsesrc", missingStatus, "pulsesrc is not installed",
                                fix: "sudo apt-get install gstreamer1.0-plugins-good")
        } else if let server = found.pulseServer {
            pulse = DoctorCheck(.sound, "pulsesrc", .ok, "a PulseAudio or PipeWire server answers at \(server)")
        } else {
            let tried = found.pulseSockets.isEmpty ? "" : " (tried \(found.pulseSockets.joined(separator: ", ")))"
            pulse = DoctorCheck(.sound, "pulsesrc", missingStatus, "no PulseAudio or PipeWire server answers\(tried)",
                                fix: "start one in your session (systemctl --user start pipewire-pulse, or pulseaudio --start), or use ALSA")
        }

        let alsa: DoctorCheck
        if !found.alsasrc {
            alsa = DoctorCheck(.sound, "alsasrc", missingStatus, "alsasrc is not installed",
                               fix: "sudo apt-get install gstreamer1.0-alsa")
        } else if found.alsaDevices.isEmpty {
            alsa = DoctorCheck(.sound, "alsasrc", missingStatus, "no ALSA capture device (/dev/snd/pcmC*D*c)",
                               fix: "plug in a microphone or a camera with one")
        } else if permitted.isEmpty {
            alsa = DoctorCheck(.sound, "alsasrc", missingStatus,
                               "ALSA capture devices \(found.alsaDevices.map(\.name).joined(separator: ", ")) cannot be opened by this user",
                               fix: "sudo usermod -aG audio $USER, then log in again")
        } else {
            alsa = DoctorCheck(.sound, "alsasrc", .ok, "ALSA capture devices: \(permitted.joined(separator: ", "))")
        }
        return [pulse, alsa]
    }

    /// Where a PulseAudio client looks for its server: `$PULSE_SERVER` (its unix: entries),
    /// else the user's runtime folder, then the system-wide socket.
    static func pulseSockets(environment: [String: String]) -> [String] {
        if let server = environment["PULSE_SERVER"], !server.isEmpty {
            return server.split(separator: " ").compactMap { entry in
                let entry = entry.hasPrefix("{") ? String(entry.drop { $0 != "}" }.dropFirst()) : String(entry)
                if entry.hasPrefix("unix:") { return String(entry.dropFirst(5)) }
                return entry.hasPrefix("/") ? entry : nil
            }
        }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return [runtime + "/pulse/native", "/run/pulse/native", "/var/run/pulse/native"]
    }

    /// Whether something accepts a connection on the Unix socket at `path`.
    static func answers(_ path: String) -> Bool {
        guard path.utf8.count < 108 else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// ALSA capture PCM nodes (`/dev/snd/pcmC0D0c` is "hw:0,0"), and whether this user may open each.
    static func alsaCaptureDevices(folder: String = "/dev/snd") -> [Findings.AlsaDevice] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [Findings.AlsaDevice] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let hw = alsaName(node: name) else { continue }
            found.append(.init(name: hw, permitted: access(folder + "/" + name, R_OK | W_OK) == 0))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// "hw:0,0" for "pcmC0D0c" (a capture node); nil for anything else.
    static func alsaName(node: String) -> String? {
        guard node.hasPrefix("pcmC"), node.hasSuffix("c") else { return nil }
        let parts = node.dropFirst(4).dropLast().split(separator: "D")
        guard parts.count == 2, let card = Int(parts[0]), let device = Int(parts[1]) else { return nil }
        return "hw:\(card),\(device)"
    }

    private static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["PULSE_SERVER", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
