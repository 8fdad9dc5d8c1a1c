import CamrecKit

/// Finds the sound source `--audio` asks for on this machine (`AudioSourceResolver`).
enum AudioPicking {
    static func resolve(_ request: AudioRequest, camera: String?) throws(CamrecError) -> AudioInput? {
        try AudioSourceResolver.live.resolve(request, camera: camera)
    }
}
