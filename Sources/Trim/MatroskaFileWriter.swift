import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import MP4
import Matroska

/// camrec's own small Matroska writer, for ``MatroskaCopyWriter``: an EBML header, one
/// segment of known size whose seek head is written last into space kept for it, and
/// clusters of blocks given as bytes (copied blocks keep theirs; only their timecode moves).
/// Writes through a buffer of a few megabytes: a long cut is a few hundred write calls.
final class MatroskaFileWriter {
    /// The space kept for the seek head after the segment's header.
    static let seekHeadSpace = 256
    /// A cluster is closed once it holds this many bytes (or at the next video keyframe).
    static let clusterLimit = 8 << 20

    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far, buffered ones included.
    private(set) var position: UInt64 = 0
    private var segmentSizeAt: UInt64 = 0
    /// Where the segment's body starts (positions in the seek head and Cues count from it).
    private(set) var segmentBody: UInt64 = 0
    private var seekHeadAt: UInt64 = 0
    /// Top-level elements written, by ID, for the seek head.
    private var placed: [(id: UInt32, position: UInt64)] = []

    /// Creates (or empties) `path`.
    init(path: String) throws(CamrecError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .failed("cannot create \(path)") }
        buffer.reserveCapacity(Self.bufferSize + (1 << 20))
    }

    deinit { close(descriptor) }

    private static let bufferSize = 4 << 20

    func append(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        position += UInt64(bytes.count)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    func flush() throws {
        var done = 0
        while done < buffer.count {
            let written = buffer.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return write(descriptor, base + done, bytes.count - done)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.writeError(path)
            }
            done += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func overwrite(_ bytes: [UInt8], at offset: UInt64) throws {
        try flush()
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw Self.writeError(path) }
    }

    private static func writeError(_ path: String) -> any Error {
        errno == ENOSPC
            ? MP4Error("no space left on the device writing \(path)", isNoSpace: true)
            : CamrecError.failed("cannot write \(path)")
    }

    // MARK: The file's parts

    /// The EBML header (doctype "matroska": trim marks a `.webm` output afterwards) and the
    /// segment's header, with its size and seek head to come.
    func begin() throws {
        let header = EBML.element(EBML.ID.header,
            EBML.unsigned(EBML.ID.ebmlVersion, 1) + EBML.unsigned(EBML.ID.ebmlReadVersion, 1)
                + EBML.unsigned(EBML.ID.ebmlMaxIDLength, 4) + EBML.unsigned(EBML.ID.ebmlMaxSizeLength, 8)
                + EBML.element(EBML.ID.docType, Array("matroska".utf8)) + EBML.unsigned(EBML.ID.docTypeVersion, 4)
                + EBML.unsigned(EBML.ID.docTypeReadVersion, 2)
        )
        try append(header)
        try append(EBML.idBytes(EBML.ID.segment))
        segmentSizeAt = position
        try append([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        segmentBody = position
        seekHeadAt = position
        try append(EBML.void(total: Self.seekHeadSpace) ?? [])
    }

    /// A whole top-level element, listed in the seek head.
    func appendTopLevel(_ id: UInt32, element: [UInt8]) throws {
        placed.append((id, position))
        try append(element)
    }

    /// The segment info: the source's timestamp scale and title, the cut's duration (ticks),
    /// and its date (`DateUTC`, ns since 2001-01-01 UTC) when known.
    static func info(timestampScale: UInt64, duration: Double, title: [UInt8]?, dateUTC: Int64? = nil) -> [UInt8] {
        let durationBytes = EBML.bigEndian(duration.bitPattern, length: 8)
        let app = Array("camrec".utf8)
        let date = dateUTC.map { EBML.element(EBML.ID.dateUTC, EBML.bigEndian(UInt64(bitPattern: $0), length: 8)) } ?? []
        return EBML.element(EBML.ID.info,
            EBML.unsigned(EBML.ID.timestampScale, timestampScale) + EBML.element(EBML.ID.duration, durationBytes)
                + EBML.element(EBML.ID.muxingApp, app) + EBML.element(EBML.ID.writingApp, app) + date + (title ?? [])
        )
    }

    /// A `Chapters` element: each edition's chapters, times in nanoseconds from the output's 0.
    static func chapters(_ editions: [[MatroskaSource.ChapterMark]]) -> [UInt8] {
        var body: [UInt8] = []
        var nextUID: UInt64 = 1
        for (number, edition) in editions.enumerated() {
            var atoms = EBML.unsigned(EBML.ID.editionUID, UInt64(number + 1))
            for mark in edition {
                let uid = mark.uid ?? nextUID
                nextUID += 1
                let display = EBML.element(EBML.ID.chapString, Array(mark.chapter.title.utf8))
                    + EBML.element(EBML.ID.chapLanguage, Array(mark.language.utf8))
                atoms += EBML.element(EBML.ID.chapterAtom,
                    EBML.unsigned(EBML.ID.chapterUID, uid)
                        + EBML.unsigned(EBML.ID.chapterTimeStart, UInt64(max(0, mark.chapter.start)))
                        + (mark.chapter.end.map { EBML.unsigned(EBML.ID.chapterTimeEnd, UInt64(max(0, $0))) } ?? [])
                        + EBML.element(EBML.ID.chapterDisplay, display)
                )
            }
            body += EBML.element(EBML.ID.editionEntry, atoms)
        }
        return EBML.element(EBML.ID.chapters, body)
    }

    /// One cluster: its timestamp (ticks) and its blocks' bytes. Returns where it starts.
    @discardableResult
    func appendCluster(time: Int64, blocks: [UInt8]) throws -> UInt64 {
        let start = position
        let stamp = EBML.unsigned(EBML.ID.clusterTimestamp, UInt64(max(0, time)))
        let size = UInt64(stamp.count + blocks.count)
        try append(EBML.idBytes(EBML.ID.cluster) + (EBML.sizeField(size, length: 8) ?? []) + stamp)
        try append(blocks)
        return start
    }

    /// The `Cues` of the video track: a point per cluster that starts on a keyframe.
    func appendCues(_ points: [(time: Int64, cluster: UInt64)], track: UInt64) throws {
        guard !points.isEmpty else { return }
        var body: [UInt8] = []
        for point in points {
            let positions = EBML.unsigned(EBML.ID.cueTrack, track)
                + EBML.unsigned(EBML.ID.cueClusterPosition, point.cluster - segmentBody)
            body += EBML.element(EBML.ID.cuePoint,
                EBML.unsigned(EBML.ID.cueTime, UInt64(max(0, point.time))) + EBML.element(EBML.ID.cueTrackPositions, positions)
            )
        }
        try appendTopLevel(EBML.ID.cues, element: EBML.element(EBML.ID.cues, body))
    }

    /// Writes the seek head into its space and the segment's size, and flushes.
    func finish() throws {
        try flush()
        let end = position
        var seeks: [UInt8] = []
        for (id, at) in placed {
            seeks += EBML.element(EBML.ID.seek,
                EBML.element(EBML.ID.seekID, EBML.idBytes(id)) + EBML.unsigned(EBML.ID.seekPosition, at - segmentBody)
            )
        }
        var seekHead = EBML.element(EBML.ID.seekHead, seeks)
        let left = Self.seekHeadSpace - seekHead.count
        guard left == 0 || left >= 2, let filler = left == 0 ? [] : EBML.void(total: left) else {
            throw CamrecError.failed("the seek head does not fit in the space kept for it")
        }
        seekHead += filler
        try overwrite(seekHead, at: seekHeadAt)
        guard let size = EBML.sizeField(end - segmentBody, length: 8) else { throw CamrecError.failed("the segment is too large") }
        try overwrite(size, at: segmentSizeAt)
    }
}
