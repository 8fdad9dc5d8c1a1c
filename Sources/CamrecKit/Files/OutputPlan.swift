/// The files a recording run makes, and what each holds when it is done.
///
/// Today a run makes one movie (and the stills the `StillTaker` writes on its own); the
/// plan owns that movie's temporary file from the claim to the commit, measures what it
/// holds when it could not be finalised, and describes each movie it completes, so that a
/// run that makes several (segments, event clips) adds them here, not in the session.
final class OutputPlan {
    /// The movie being written.
    let movie: OutputFile
    private let container: Container
    private let frameDuration: Double

    /// Claims the movie's temporary file beside `config.outputPath`.
    init(config: RecordConfig) throws(CamrecError) {
        movie = try OutputFile.claim(config.outputPath, overwrite: config.overwrite)
        container = config.container
        frameDuration = 1 / max(config.rate.framesPerSecond, 1)
    }

    /// Where the pipeline writes the movie now.
    var location: String { movie.partialPath }

    /// The bytes written so far.
    var bytesWritten: Int64 { movie.partialSize }

    /// The muxer finalised the movie: commits it under its final name.
    func commitFinalised(frames: Int, seconds: Double) throws(CamrecError) -> ResultFile {
        try movie.commit()
        return ResultFile(path: movie.finalPath, kind: "movie", duration: seconds, frames: frames,
                          bytes: OutputFile.size(of: movie.finalPath))
    }

    /// The movie could not be finalised (an abort, a full disk, a wedged muxer): keeps
    /// what plays of it, measured from the file, with a torn tail cut off, under its final
    /// name when it can be moved there. Returns nil (and removes the file) when nothing of
    /// it plays; `note` is set when the file had to stay under its temporary name.
    func keepUnfinalised() -> (file: ResultFile, note: String?)? {
        guard let measured = UnfinalisedMovie.measure(path: movie.partialPath, container: container,
                                                      frameDuration: frameDuration),
              measured.frames > 0 else {
            movie.discard()
            return nil
        }
        measured.cutTornTail(of: movie.partialPath)
        var path = movie.finalPath
        var note: String?
        do {
            try movie.commit()
        } catch {
            path = movie.partialPath
            note = error.message
        }
        let file = ResultFile(path: path, kind: "movie", duration: measured.seconds, frames: measured.frames,
                              bytes: OutputFile.size(of: path))
        return (file, note)
    }

    /// Removes the movie's temporary file: nothing worth keeping was recorded.
    func discard() {
        movie.discard()
    }
}
