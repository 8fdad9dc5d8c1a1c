import MP4
import Matroska

/// The structure of a Matroska file as far as finishing it needs: where the segment, the
/// seek entries, the duration and each cluster are, which blocks are whole on disk, and
/// whether the file was finalised (a known segment size and an index, `Cues`).
///
/// matroskamux writes a segment of unknown size, placeholders for the seek entries and the
/// duration, then clusters (each one's size filled in when it is done); only finalising
/// writes the index and the real values. A crash leaves the placeholders and possibly a
/// last cluster cut inside a block.
struct MatroskaLayout {
    /// One track's number, type (1 video, 2 audio), codec and default frame duration.
    struct TrackInfo: Equatable {
        var number: UInt64
        var type: UInt64
        var codec: String
        /// Nanoseconds, when the file gives it.
        var defaultDuration: UInt64?
    }

    /// A `Seek` entry of a seek head: which element it points at and where its position lies.
    struct SeekEntry: Equatable {
        var start: UInt64
        var end: UInt64
        var target: UInt32?
        var position: EBML.Element?
    }

    /// A cluster: where it is, its size field, and where its kept part ends.
    struct Cluster: Equatable {
        var element: EBML.Element
        /// The end of its last whole child (its end when it is whole).
        var keptEnd: UInt64
        /// Whether the file ends inside it (its size field must shrink).
        var isTorn: Bool
    }

    /// Where an index entry points: the first keyframe of a cluster.
    struct CueCandidate: Equatable {
        var time: Int64
        var track: UInt64
        var clusterStart: UInt64
    }

    /// The DocType: "matroska" or "webm".
    var docType = ""
    var segment: EBML.Element
    var tracks: [TrackInfo] = []
    var timestampScale: UInt64 = 1_000_000
    var seeks: [SeekEntry] = []
    /// The body of Info's Duration (a 4- or 8-byte float), when there is one.
    var durationField: EBML.Element?
    /// Whole elements directly in the segment before `keptEnd`: ID and start.
    var topLevel: [(id: UInt32, start: UInt64)] = []
    var clusters: [Cluster] = []
    var cues: [CueCandidate] = []
    /// Whole blocks per track number.
    var blocks: [UInt64: Int] = [:]
    /// The latest end of a whole block (timestamp plus duration), in timestamp-scale units.
    var endTime: Double = 0
    /// Where the part that is kept ends: after the last whole block.
    var keptEnd: UInt64 = 0
    /// Whether the segment holds an index (`Cues`).
    var hasIndex = false
    /// Whether the walk reached the end of the segment (or file) without a torn element.
    var reachedEnd = false

    /// Seconds from the segment's start to the end of the last whole block.
    var seconds: Double {
        max(endTime, 0) * Double(timestampScale) / 1e9
    }

    /// The video track (the first of type 1), else the first track.
    var mainTrack: TrackInfo? { tracks.first { $0.type == 1 } ?? tracks.first }

    /// Whether the file is a finalised movie: a known segment size that the file holds,
    /// an index, and nothing torn.
    var isFinalised: Bool {
        guard let end = segment.end else { return false }
        return hasIndex && reachedEnd && end <= fileSize
    }

    /// The file's size.
    var fileSize: UInt64 = 0

    /// Why a file is not a Matroska movie this can read.
    enum Refusal: Error, Equatable {
        case notMatroska(String)
        case truncatedHeader(String)
    }

    /// Scans the file at `file`.
    static func scan(_ file: SampleFile) throws(Refusal) -> MatroskaLayout {
        var reader = WindowedFile(file: file)
        guard let header = reader.element(at: 0), header.id == EBML.ID.header else {
            throw .notMatroska("not an EBML file")
        }
        guard let headerEnd = header.end, headerEnd <= file.size else {
            throw .truncatedHeader("the file ends inside its EBML header")
        }
        let docType = Self.docType(reader: &reader, header: header)
        guard docType == "matroska" || docType == "webm" else {
            throw .notMatroska("an EBML file of type '\(docType)', not Matroska")
        }
        var offset = headerEnd
        var segment: EBML.Element?
        while let element = reader.element(at: offset) {
            if element.id == EBML.ID.segment {
                segment = element
                break
            }
            guard element.id == EBML.ID.void, let end = element.end, end <= file.size else { break }
            offset = end
        }
        guard let segment else {
            throw .truncatedHeader("the file ends before its Matroska segment starts")
        }
        var layout = MatroskaLayout(segment: segment)
        layout.docType = docType
        layout.fileSize = file.size
        layout.keptEnd = segment.body
        var walker = Walker(reader: reader, layout: layout)
        walker.walkSegment()
        guard !walker.layout.tracks.isEmpty else {
            throw .truncatedHeader("the file ends before its track list (Tracks) is whole")
        }
        return walker.layout
    }

    private static func docType(reader: inout WindowedFile, header: EBML.Element) -> String {
        for child in reader.children(of: header) where child.id == EBML.ID.docType {
            if let docType = reader.text(child) { return docType }
        }
        return ""
    }
}
