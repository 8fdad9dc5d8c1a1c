import GStreamer

/// Turns GStreamer failures into camrec errors, for every command: the kind (and so the
/// exit status) a script can react to and a message that says what to do.
enum FailureMapping {
    static func camrecError(for error: GStreamerError) -> CamrecError {
        switch error {
        case .missingElement:
            return CamrecError(.unavailable, error.description)
        case .element(let failure):
            return camrecError(for: failure)
        default:
            return CamrecError(.failure, error.description)
        }
    }

    static func camrecError(for failure: ElementFailure) -> CamrecError {
        let debug = failure.debug
        if failure.source == "src" {
            if debug.contains("Device or resource busy") || failure.isResourceError(.busy) {
                return CamrecError(.cameraBusy, "the camera is busy: another program is using it; close that program and try again")
            }
            if debug.contains("Permission denied") || failure.isResourceError(.notAuthorized) {
                return CamrecError(.permissionDenied, "permission denied opening the camera: add yourself to the video group (sudo usermod -aG video $USER) and log in again")
            }
            if failure.isResourceError(.notFound) || debug.contains("No such file or directory") {
                return CamrecError(.noCamera, "the camera is gone: \(failure.message)")
            }
        }
        if failure.isResourceError(.noSpaceLeft) {
            return CamrecError(.diskFull, "disk full while writing: free some space and try again")
        }
        return CamrecError(.failure, "\(failure.source): \(failure.message)")
    }
}
