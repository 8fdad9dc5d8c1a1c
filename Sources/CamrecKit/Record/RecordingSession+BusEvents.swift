import GStreamer

/// What each bus message means to the recording's machine.
extension RecordingSession {
    /// The machine's event for a bus message; nil for messages it does not care about.
    func event(for message: Message, at now: ContinuousClock.Instant) -> RecordingMachine.Event? {
        switch message {
        case .endOfStream:
            // With segments, splitmuxsink finalises the last movies on threads of their own
            // and says so for each (none when nothing was recorded).
            return .endOfStream(finalising: elements.muxer != nil && gate.frames > 0 ? plan.openMovies : [], at: now)
        case .element(_, "level", let fields):
            // --on-sound: the sound's level goes to the clips' trigger; nothing for the machine.
            clips?.heard(fields)
            return nil
        case .element(let source, "splitmuxsink-fragment-closed", let fields):
            guard let muxer = elements.muxer, source.is(muxer), let location = fields.string("location"),
                  let index = plan.openMovie(at: location) else { return nil }
            return .movieClosed(index, open: plan.openMovies)
        case .application(_, RecordingControl.Wake.limit):
            return .limitReached(now)
        case .application(_, RecordingControl.Wake.stop):
            let (reason, count) = control.pendingStop
            return .stopRequested(reason ?? .signal, count: count, now)
        case .application(_, MovieFeeds.endedMessage):
            // A canvas's movie ends only its cell: the others are sent EOS.
            return .sourceEnded(message: movieFeeds?.failureMessage, endsItself: config.composition == nil, now)
        case .application(_, LoadShedWatch.wake):
            return shedding.map { .warning($0.warning) }
        case .application(_, EncoderPaceWatch.wake):
            return encoderPace?.takeWarning().map { .warning($0) }
        case .application(_, RecordingControl.Wake.noSound):
            return .noSound
        case .application(_, RecordingControl.Wake.corruptFrame):
            return .firstCorruptFrame
        case .application(_, RecordingControl.Wake.splitFailed):
            return .failed(.signal(object: elements.muxer?.name ?? "mux", name: "split-at-running-time"))
        case .error(var failure):
            // A file sink names the claimed file by its descriptor: say its name instead.
            failure.message = plan.readable(failure.message)
            failure.debug = plan.readable(failure.debug)
            if let camera = elements.camera, failure.source.is(camera) {
                return .cameraFailed(failure, framesRecorded: gate.frames, now)
            }
            if let event = canvas?.cameraFailed(failure, framesRecorded: gate.frames, at: now) { return event }
            if let sound, failure.source.is(sound.source) {
                return .soundFailed(failure, framesRecorded: gate.frames)
            }
            if failure.isResourceError(.noSpaceLeft) { return .diskFull }
            return .failed(.element(failure))
        case .warning(let failure):
            return .warning("\(failure.source.name): \(plan.readable(failure.message))")
        default:
            return nil
        }
    }
}
