import CamrecKit

/// Finds the sound source `--audio` asks for on this machine.
enum AudioPicking {
    static func resolve(_ request: AudioRequest, camera: String?) throws(CamrecError) -> AudioInput? {
        switch request {
        case .none: return nil
        case .systemDefault: return AudioInput(element: .pulse(device: nil), reason: "the sound server's default source")
        case .test: return AudioInput(element: .test, channels: 1, rate: 48000, reason: "a 440 Hz test tone (--audio test)")
        case .server(let name): return AudioInput(element: .pulse(device: name), reason: "the sound-server source \(name)")
        case .alsa(let device): return AudioInput(element: .alsa(device: device), reason: "the ALSA device \(device)")
        case .camera:
            throw CamrecError(.noCamera, "--audio camera: no microphone found on the camera's USB device; camrec devices lists sound sources")
        }
    }
}
