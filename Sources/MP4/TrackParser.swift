/// Reads one `trak` box: headers, edit list, sample description and sample table.
struct TrackParser {
    let bytes: [UInt8]
    let trak: Box
    /// The size of the file the track is in: its samples cannot take more.
    let fileSize: UInt64

    func parse() throws(MP4Error) -> Track {
        let children = try boxes(in: trak)
        guard let tkhd = children.first("tkhd"), let mdia = children.first("mdia") else {
            throw MP4Error("a track has no header or media box")
        }
        let (id, header) = try trackHeader(tkhd)
        var edits: [Edit]?
        if let edts = children.first("edts"), let elst = try boxes(in: edts).first("elst") { edits = try editList(elst) }
        let media = try boxes(in: mdia)
        guard let mdhd = media.first("mdhd"), let hdlr = media.first("hdlr"), let minf = media.first("minf") else {
            throw MP4Error("track \(id) has no media header, handler or information box")
        }
        let (timescale, language) = try mediaHeader(mdhd)
        var handlerReader = ByteReader(bytes, range: hdlr.payload)
        guard handlerReader.skip(8), let handler = handlerReader.fourCC() else { throw MP4Error("track \(id): bad handler") }
        let information = try boxes(in: minf)
        guard let stbl = information.first("stbl") else { throw MP4Error("track \(id) has no sample table") }
        let mediaHeaderBox = information.first { ["vmhd", "smhd", "gmhd", "nmhd", "sthd", "hmhd"].contains($0.type) }
        let table = try boxes(in: stbl)
        let entry = try sampleEntry(table, track: id)
        let samples = try SampleTable(bytes: bytes, boxes: table, track: id, fileSize: fileSize).samples()
        return Track(
            id: id, handler: handler, timescale: timescale, language: language, header: header,
            handlerBox: Array(bytes[hdlr.start..<hdlr.end]),
            mediaHeaderBox: mediaHeaderBox.map { Array(bytes[$0.start..<$0.end]) } ?? [],
            sampleEntry: entry, edits: edits, samples: samples,
            userData: children.first("udta").flatMap { $0.end - $0.start < 1 << 20 ? Array(bytes[$0.start..<$0.end]) : nil }
        )
    }

    private func boxes(in box: Box) throws(MP4Error) -> [Box] {
        guard let children = Box.children(of: bytes, in: box.payload) else {
            throw MP4Error("the \(box.type) box is corrupt")
        }
        return children
    }

    private func trackHeader(_ box: Box) throws(MP4Error) -> (UInt32, TrackHeader) {
        var reader = ByteReader(bytes, range: box.payload)
        guard let versionAndFlags = reader.uint32() else { throw MP4Error("a track header is corrupt") }
        let wide = versionAndFlags >> 24 == 1
        guard reader.skip(wide ? 16 : 8), let id = reader.uint32(), reader.skip(4), reader.skip(wide ? 8 : 4),
              let tail = reader.take(60)
        else { throw MP4Error("a track header is corrupt") }
        return (id, TrackHeader(flags: versionAndFlags & 0xFF_FFFF, tail: tail))
    }

    private func editList(_ box: Box) throws(MP4Error) -> [Edit] {
        var reader = ByteReader(bytes, range: box.payload)
        guard let version = reader.uint8(), reader.skip(3), let count = reader.uint32() else {
            throw MP4Error("an edit list is corrupt")
        }
        var edits: [Edit] = []
        for _ in 0..<count {
            let duration: UInt64?
            let mediaTime: Int64?
            if version == 1 {
                duration = reader.uint64()
                mediaTime = reader.int64()
            } else {
                duration = reader.uint32().map(UInt64.init)
                mediaTime = reader.int32().map(Int64.init)
            }
            guard let duration, let mediaTime, let rate = reader.uint16(), reader.skip(2) else {
                throw MP4Error("an edit list is corrupt")
            }
            edits.append(Edit(segmentDuration: duration, mediaTime: mediaTime, rate: Int16(bitPattern: rate)))
        }
        return edits
    }

    private func mediaHeader(_ box: Box) throws(MP4Error) -> (UInt32, UInt16) {
        var reader = ByteReader(bytes, range: box.payload)
        guard let version = reader.uint8(), reader.skip(3), reader.skip(version == 1 ? 16 : 8),
              let timescale = reader.uint32(), timescale > 0, reader.skip(version == 1 ? 8 : 4),
              let language = reader.uint16()
        else { throw MP4Error("a media header is corrupt") }
        return (timescale, language)
    }

    private func sampleEntry(_ table: [Box], track: UInt32) throws(MP4Error) -> [UInt8] {
        guard let stsd = table.first("stsd") else { throw MP4Error("track \(track) has no sample description") }
        var reader = ByteReader(bytes, range: stsd.payload)
        guard reader.skip(4), let count = reader.uint32() else { throw MP4Error("track \(track): bad sample description") }
        guard count == 1 else { throw MP4Error("track \(track) has \(count) sample descriptions") }
        guard let entries = Box.children(of: bytes, in: reader.offset..<stsd.end), let entry = entries.first else {
            throw MP4Error("track \(track): bad sample description")
        }
        return Array(bytes[entry.start..<entry.end])
    }
}
