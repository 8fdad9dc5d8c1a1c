import CFileTimes
import CamrecCore
import MP4
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

/// `camrec recover`: turns a movie that was never finalised (a `kill -9`, a power cut, a
/// full disk) into a finished one by a stream copy of everything that is whole on disk.
///
/// MP4 and MOV (fragmented, as camrec records them) become plain movies through the MP4
/// module (``CompleteFragments``, ``MovieWriter``); Matroska is finished in a copy
/// (``MatroskaFinisher``). A file that is already finished is reported and left alone.
/// The input is only ever read, unless the destination is ``RecoverDestination/inPlace``,
/// where the finished movie replaces it by one atomic rename. Every output is written to
/// a hidden temporary file beside it, checked by reading it back, flushed, and only then
/// given its name.
public enum MovieRecovery {
    /// Recovers `input` to `destination`.
    ///
    /// - Throws: invalid input (65) for what is not a movie or holds nothing whole; usage
    ///   (64) for an `-o` name of another container; cannot create output (73) for an
    ///   output that exists without `force` or a folder that cannot be written; disk full
    ///   (74); failure (1) for a file another process has open or that changed meanwhile;
    ///   interrupted when `control` was abandoned. Nothing is left behind on any of them.
    public static func recover(_ input: String, to destination: RecoverDestination, force: Bool,
                               control: RecoverControl) throws(CamrecError) -> RecoverResult {
        if let removed = try removeIfEmpty(input) { return removed }
        let source = try RecoverSource(path: input)
        guard let container = MediaContainer.recoverable(head: source.head) else {
            throw CamrecError(.invalidInput, "\(input) is not a movie (neither MP4/MOV nor Matroska): nothing to recover")
        }
        if let holder = OpenFiles.holders(of: input).first {
            throw CamrecError(.failure, "\(input) is open in process \(holder) (a recording still running?): "
                              + "recover it once that process has ended")
        }
        if container.isISO {
            return try recoverISO(source, container: container, to: destination, force: force, control: control)
        }
        return try recoverMatroska(source, to: destination, force: force, control: control)
    }

    // MARK: - MP4 and MOV

    private static func recoverISO(_ source: RecoverSource, container: MediaContainer, to destination: RecoverDestination,
                                   force: Bool, control: RecoverControl) throws(CamrecError) -> RecoverResult {
        let input = source.path
        if let movie = try? Movie.read(path: input) {
            let tracks = movie.tracks.map(describe)
            return RecoverResult(input: input, status: .complete, container: container, frames: frames(tracks),
                                 duration: duration(tracks), bytes: Int64(source.size), lostTailBytes: 0, tracks: tracks,
                                 message: "already a finished movie: left as it is")
        }
        let movie: CompleteFragments
        do {
            movie = try CompleteFragments.read(path: input)
        } catch {
            throw isoRefusal(input, error, size: source.size)
        }
        guard !movie.tracks.isEmpty else {
            return try removeFrameless(input, because: "the recording stopped before its first fragment was on disk")
        }
        let tracks = movie.tracks.map(describe)
        let output = try RecoverOutput.prepare(for: source, container: container, destination: destination,
                                               force: force, control: control)
        // Frames no box indexed (killed before the first moov, or inside the fragment being
        // written) were found by walking their H.264 data: said, with any assumed rate.
        var note: String?
        if movie.unindexedFrames > 0 {
            note = "\(movie.unindexedFrames) frame\(movie.unindexedFrames == 1 ? "" : "s") had no index yet and were found in the data"
            if movie.assumedFrameRate { note? += " (timed at 30 frames per second: the stream does not give its rate)" }
        }
        return try publish(output, input: input, container: container, tracks: tracks,
                           lostTailBytes: Int64(movie.fileSize - min(movie.completeEnd, movie.fileSize)), message: note) { () throws(CamrecError) in
            do {
                try MovieWriter.write(path: output.temporary, sourcePath: input, fileType: movie.fileType,
                                      movieTimescale: movie.movieTimescale, tracks: movie.tracks, metadata: movie.metadata)
            } catch let error as MP4Error {
                throw error.isNoSpace
                    ? CamrecError(.diskFull, "\(error.message); nothing was written")
                    : CamrecError(.cannotCreateOutput, error.message)
            } catch {
                throw CamrecError(.failure, "cannot write \(output.temporary): \(error)")
            }
            // Read back by the same reader as any plain movie: the table must give every sample.
            let written = try? Movie.read(path: output.temporary)
            guard let written, written.tracks.map(\.samples.count) == movie.tracks.map(\.samples.count) else {
                throw CamrecError(.failure, "the movie written from \(input) does not read back whole; nothing was kept")
            }
            stampCaptureTime(of: input, into: output.temporary)
        }
    }

    /// A camrec partial file killed before its capture time was written (that comes when a
    /// movie is finished) was created as its first frame came: its birth time, within a few
    /// milliseconds of that frame's capture, is written as the movie's capture time, so
    /// that `camrec ls` and `export` place it in its series. Nothing when the file system
    /// keeps no birth time, or for another program's file (a copy's birth says nothing).
    private static func stampCaptureTime(of input: String, into output: String) {
        guard RecoverNaming.finalName(ofPartial: input) != nil, CaptureTimeStamp.read(path: output) == nil else { return }
        var born: Int64 = 0
        guard camrec_file_birth(input, &born) == 0, born > 0 else { return }
        var seconds = time_t(born / 1_000_000_000)
        var local = tm()
        let offset = localtime_r(&seconds, &local) != nil ? Int(local.tm_gmtoff) : 0
        try? CaptureTimeStamp(unixMilliseconds: born / 1_000_000, utcOffsetSeconds: offset, software: "camrec recover")
            .write(into: output)
    }

    /// Writes the recovered movie with `write` into `output`'s temporary file, removes it if
    /// that fails, and otherwise moves it into place and describes the result.
    private static func publish(_ output: RecoverOutput, input: String, container: MediaContainer,
                                tracks: [RecoveredTrack], lostTailBytes: Int64, message: String? = nil,
                                write: () throws(CamrecError) -> Void) throws(CamrecError) -> RecoverResult {
        do throws(CamrecError) {
            try write()
        } catch {
            output.discard()
            throw error
        }
        let final = try output.publish()
        var result = RecoverResult(
            input: input, output: final, status: .recovered, container: container, frames: frames(tracks),
            duration: duration(tracks), bytes: OutputFile.size(of: final), lostTailBytes: lostTailBytes, tracks: tracks,
            message: message
        )
        if output.consumesInput {
            result.message = [message, "\(input) was removed: the finished movie replaces it"].compactMap { $0 }.joined(separator: "; ")
        }
        return result
    }

    /// An empty file (0 bytes) with camrec's partial name, that no process has open: nothing
    /// was recorded in it, so it is removed (and said so) rather than left for ever.
    private static func removeIfEmpty(_ input: String) throws(CamrecError) -> RecoverResult? {
        var info = stat()
        guard RecoverNaming.dropsPartialName(input), lstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              info.st_size == 0 else { return nil }
        return try removeFrameless(input, because: "it is empty: the recording stopped before its first frame")
    }

    /// Camrec's partial file `input` holds no frame: removed (it never held a recording), with
    /// a line saying so. Any other file is refused (exit 65) and left alone.
    private static func removeFrameless(_ input: String, because reason: String) throws(CamrecError) -> RecoverResult {
        guard RecoverNaming.dropsPartialName(input) else {
            throw CamrecError(.invalidInput, "\(input) holds no whole frame (\(reason)): nothing to recover")
        }
        if let holder = OpenFiles.holders(of: input).first {
            throw CamrecError(.failure, "\(input) is open in process \(holder) (a recording still running?): "
                              + "recover it once that process has ended")
        }
        guard unlink(input) == 0 else {
            throw CamrecError(.cannotCreateOutput, "\(input) holds no frame but cannot be removed: \(systemMessage(errno))")
        }
        Destination.syncFolder(of: input)
        return RecoverResult(input: input, status: .removed, message: "\(input) held no frame (\(reason)): removed")
    }

    private static func isoRefusal(_ input: String, _ error: MP4Error, size: UInt64) -> CamrecError {
        if error.message.contains("no movie box") {
            return CamrecError(.invalidInput, "\(input) has no whole movie box (moov): the recording stopped before "
                               + "its first fragment was on disk, or the file is cut short at its start; and its data is not "
                               + "H.264 video alone, which recover could index without one; nothing to recover")
        }
        return CamrecError(.invalidInput, "cannot recover \(input): \(error.message)")
    }

    private static func describe(_ track: OutputTrack) -> RecoveredTrack {
        let seconds = Double(track.mediaDuration) / Double(max(track.template.timescale, 1))
        return RecoveredTrack(kind: kind(track.template.handler), codec: track.template.format,
                              samples: track.samples.count, duration: (seconds * 1000).rounded() / 1000)
    }

    private static func describe(_ track: Track) -> RecoveredTrack {
        let ticks = track.samples.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
        let seconds = Double(ticks) / Double(max(track.timescale, 1))
        return RecoveredTrack(kind: kind(track.handler), codec: track.format, samples: track.samples.count,
                              duration: (seconds * 1000).rounded() / 1000)
    }

    private static func kind(_ handler: String) -> String {
        switch handler {
        case "vide": "video"
        case "soun": "audio"
        default: "other"
        }
    }

    // MARK: - Matroska

    private static func recoverMatroska(_ source: RecoverSource, to destination: RecoverDestination, force: Bool,
                                        control: RecoverControl) throws(CamrecError) -> RecoverResult {
        let input = source.path
        let layout: MatroskaLayout
        do {
            let file = try SampleFile(path: input)
            layout = try MatroskaLayout.scan(file)
        } catch let refusal as MatroskaLayout.Refusal {
            switch refusal {
            case .notMatroska(let why):
                throw CamrecError(.invalidInput, "\(input) is not a movie (\(why)): nothing to recover")
            case .truncatedHeader(let why):
                throw CamrecError(.invalidInput, "\(input) is cut short at its start (\(why)): nothing to recover")
            }
        } catch {
            throw CamrecError(.invalidInput, "cannot read \(input): \(error)")
        }
        let container: MediaContainer = layout.docType == "webm" ? .webm : .matroska
        let tracks = describe(layout)
        if layout.isFinalised {
            return RecoverResult(input: input, status: .complete, container: container, frames: frames(tracks),
                                 duration: duration(tracks), bytes: Int64(source.size), lostTailBytes: 0, tracks: tracks,
                                 message: "already a finished movie: left as it is")
        }
        guard !layout.clusters.isEmpty else {
            return try removeFrameless(input, because: "the recording stopped before its first block was on disk")
        }
        let output = try RecoverOutput.prepare(for: source, container: container, destination: destination,
                                               force: force, control: control)
        return try publish(output, input: input, container: container, tracks: tracks,
                           lostTailBytes: Int64(source.size - min(layout.keptEnd, source.size))) { () throws(CamrecError) in
            let descriptor = open(output.temporary, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CamrecError(.cannotCreateOutput, "cannot write \(output.temporary): \(systemMessage(errno))")
            }
            defer { close(descriptor) }
            try MatroskaFinisher(layout: layout).write(from: input, to: descriptor, outputPath: output.temporary)
            let written = (try? SampleFile(path: output.temporary)).flatMap { try? MatroskaLayout.scan($0) }
            guard let written, written.isFinalised, written.blocks == layout.blocks else {
                throw CamrecError(.failure, "the movie written from \(input) does not read back whole; nothing was kept")
            }
        }
    }

    private static func describe(_ layout: MatroskaLayout) -> [RecoveredTrack] {
        let seconds = (layout.seconds * 1000).rounded() / 1000
        return layout.tracks.map { track in
            RecoveredTrack(kind: track.type == 1 ? "video" : track.type == 2 ? "audio" : "other", codec: track.codec,
                           samples: layout.blocks[track.number] ?? 0, duration: track.number == layout.mainTrack?.number ? seconds : nil)
        }
    }

    // MARK: - Summaries

    /// The video frames: the first video track's samples (0 without video).
    private static func frames(_ tracks: [RecoveredTrack]) -> Int {
        tracks.first { $0.kind == "video" }?.samples ?? 0
    }

    /// The video's duration, else the longest track's.
    private static func duration(_ tracks: [RecoveredTrack]) -> Double {
        tracks.first { $0.kind == "video" }?.duration ?? tracks.compactMap(\.duration).max() ?? 0
    }
}
