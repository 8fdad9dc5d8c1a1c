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

    /// Where a PulseAudio client looks for its server (see `SoundServer.sockets`).
    static func pulseSockets(environment: [String: String]) -> [String] {
        SoundServer.sockets(environment: environment)
    }

    /// Whether something accepts a connection on the Unix socket at `path`.
    static func answers(_ path: String) -> Bool { SoundServer.answers(path) }

    /// ALSA capture PCM nodes and whether this user may open each (see `AlsaCaptureNodes`).
    static func alsaCaptureDevices(folder: String = "/dev/snd") -> [Findings.AlsaDevice] {
        AlsaCaptureNodes.list(folder: folder).map { .init(name: $0.name, permitted: $0.permitted) }
    }

    /// "hw:0,0" for "pcmC0D0c" (a capture node); nil for anything else.
    static func alsaName(node: String) -> String? {
        AlsaCaptureNodes.parse(node: node).map(\.name)
    }

    private static func environment() -> [String: String] { SoundServer.processEnvironment() }
}
