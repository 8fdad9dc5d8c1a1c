import GStreamer

/// Turns GStreamer failures into camrec errors, for every command: the kind (and so the
/// exit status) a script can react to and a message that says what to do.
///
/// `camera` is the pipeline's camera element (the one named "src" in the templates), nil
/// for pipelines without one: its errors are recognised by the element itself, not by name.
package enum FailureMapping {
    package static func camrecError(for error: GStreamerError, camera: Element?) -> CamrecError {
        switch error {
        case .missingElement:
            return CamrecError(.unavailable, error.namingPackage.description)
        case .element(let failure):
            return camrecError(for: failure, camera: camera)
        default:
            return CamrecError(.failure, error.description)
        }
    }

    package static func camrecError(for failure: ElementFailure, camera: Element?) -> CamrecError {
        let debug = failure.debug
        if let camera, failure.source.is(camera) {
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
        if failure.source.name == "audiosrc" {
            return soundError(for: failure)
        }
        if failure.source.name == "logo" {
            // gdkpixbufoverlay loads --overlay-image as the pipeline starts: a PNG whose
            // header was fine but whose pixels are not.
            return CamrecError(.invalidInput, "--overlay-image: \(failure.message) (\(failure.debug)): give a valid PNG image")
        }
        if failure.isResourceError(.noSpaceLeft) {
            return CamrecError(.diskFull, "disk full while writing: free some space and try again")
        }
        return CamrecError(.failure, "\(failure.source.name): \(failure.message)")
    }

    /// The sound source (the element named "audiosrc") could not start.
    package static func soundError(for failure: ElementFailure) -> CamrecError {
        let debug = failure.debug + " " + failure.message
        let detail = failure.message
        if debug.contains("busy") || failure.isResourceError(.busy) {
            return CamrecError(.cameraBusy, "the sound source is busy: another program is using it; close that program, or record through the sound server (--audio default): \(detail)")
        }
        if debug.contains("Permission denied") || debug.contains("Access denied") || failure.isResourceError(.notAuthorized) {
            return CamrecError(.permissionDenied, "permission denied opening the sound source: add yourself to the audio group (sudo usermod -aG audio $USER) and log in again: \(detail)")
        }
        if failure.isResourceError(.notFound) || debug.contains("No such") {
            return CamrecError(.noCamera, "the sound source is not there: \(detail); camrec devices lists sound sources")
        }
        return CamrecError(.failure, "the sound source cannot record: \(detail); camrec devices lists sound sources")
    }
}
