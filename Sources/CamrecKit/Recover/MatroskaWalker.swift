import MP4

extension MatroskaLayout {
    /// The walk over the segment's children and the clusters' blocks.
    struct Walker {
        var reader: WindowedFile
        var layout: MatroskaLayout
        /// The last gap between two blocks of each track: a block's duration when nothing gives one.
        var lastGap: [UInt64: Int64] = [:]
        var lastTime: [UInt64: Int64] = [:]

        mutating func walkSegment() {
            let limit = min(layout.segment.end ?? reader.size, reader.size)
            var offset = layout.segment.body
            var sawCluster = false
            while offset < limit {
                guard let element = reader.element(at: offset) else { return }
                if element.id == EBML.ID.cluster {
                    sawCluster = true
                    guard let next = cluster(element, limit: limit) else { return }
                    offset = next
                    continue
                }
                // Anything else must be whole, with a known size.
                guard let end = element.end, end <= limit else { return }
                switch element.id {
                case EBML.ID.seekHead: seekHead(element, end: end)
                case EBML.ID.info: info(element, end: end)
                case EBML.ID.tracks: trackList(element, end: end)
                case EBML.ID.cues: layout.hasIndex = true
                default: break
                }
                layout.topLevel.append((element.id, element.start))
                if !sawCluster { layout.keptEnd = end }
                offset = end
            }
            layout.reachedEnd = true
        }

        /// Reads one cluster's blocks; returns where the next element starts, or nil when
        /// the file ends inside the cluster (it is then the last one kept).
        mutating func cluster(_ cluster: EBML.Element, limit: UInt64) -> UInt64? {
            let end = min(cluster.end ?? limit, limit)
            var offset = cluster.body
            var timestamp: Int64 = 0
            var keptEnd = cluster.body
            var blocksInCluster = 0
            var cue: CueCandidate?
            var torn = false
            while offset < end {
                guard let child = reader.element(at: offset) else {
                    torn = true
                    break
                }
                if cluster.size == nil, EBML.ID.topLevel.contains(child.id) { break }
                guard let childEnd = child.end, childEnd <= end else {
                    torn = true
                    break
                }
                switch child.id {
                case EBML.ID.clusterTimestamp:
                    timestamp = Int64(clamping: reader.unsigned(child) ?? 0)
                case EBML.ID.simpleBlock:
                    if let block = block(at: child.body, end: childEnd, clusterTime: timestamp, duration: nil) {
                        blocksInCluster += 1
                        if cue == nil, block.keyframe, block.track == layout.mainTrack?.number {
                            cue = CueCandidate(time: block.time, track: block.track, clusterStart: cluster.start)
                        }
                    }
                case EBML.ID.blockGroup:
                    if let block = blockGroup(child, end: childEnd, clusterTime: timestamp) {
                        blocksInCluster += 1
                        if cue == nil, block.keyframe, block.track == layout.mainTrack?.number {
                            cue = CueCandidate(time: block.time, track: block.track, clusterStart: cluster.start)
                        }
                    }
                default:
                    break
                }
                keptEnd = childEnd
                offset = childEnd
            }
            // A cluster whose declared size runs past the end of the file is torn even when
            // the file happens to end between two of its blocks.
            if let declared = cluster.end, declared > limit { torn = true }
            // A cluster cut before its first block adds nothing: the kept part ends before it.
            guard blocksInCluster > 0 else { return torn ? nil : offset }
            layout.clusters.append(Cluster(element: cluster, keptEnd: keptEnd, isTorn: torn))
            layout.topLevel.append((EBML.ID.cluster, cluster.start))
            if let cue { layout.cues.append(cue) }
            layout.keptEnd = keptEnd
            return torn ? nil : offset
        }

        private struct Block {
            var track: UInt64
            var time: Int64
            var keyframe: Bool
        }

        /// A block's track, time and keyframe flag; counts it.
        private mutating func block(at offset: UInt64, end: UInt64, clusterTime: Int64, duration: Int64?,
                                    keyframe groupKeyframe: Bool? = nil) -> Block? {
            let bytes = reader.bytes(at: offset, count: Int(min(12, end - offset)))
            guard let (track, length) = EBML.vint(bytes), bytes.count >= length + 3 else { return nil }
            let base = bytes.startIndex + length
            let relative = Int64(Int16(bitPattern: UInt16(bytes[base]) << 8 | UInt16(bytes[base + 1])))
            let time = clusterTime &+ relative
            let keyframe = groupKeyframe ?? (bytes[base + 2] & 0x80 != 0)
            layout.blocks[track, default: 0] += 1
            if let previous = lastTime[track], time > previous { lastGap[track] = time - previous }
            lastTime[track] = time
            let defaultDuration = layout.tracks.first { $0.number == track }?.defaultDuration.map {
                Double($0) / Double(max(layout.timestampScale, 1))
            }
            let lasts = duration.map(Double.init) ?? defaultDuration ?? lastGap[track].map(Double.init) ?? 0
            layout.endTime = max(layout.endTime, Double(time) + lasts)
            return Block(track: track, time: time, keyframe: keyframe)
        }

        private mutating func blockGroup(_ group: EBML.Element, end: UInt64, clusterTime: Int64) -> Block? {
            var offset = group.body
            var blockBody: (UInt64, UInt64)?
            var duration: Int64?
            var referenced = false
            while offset < end, let child = reader.element(at: offset), let childEnd = child.end, childEnd <= end {
                switch child.id {
                case EBML.ID.block: blockBody = (child.body, childEnd)
                case EBML.ID.blockDuration: duration = reader.unsigned(child).map { Int64(clamping: $0) }
                case EBML.ID.referenceBlock: referenced = true
                default: break
                }
                offset = childEnd
            }
            guard let (body, bodyEnd) = blockBody else { return nil }
            return block(at: body, end: bodyEnd, clusterTime: clusterTime, duration: duration, keyframe: !referenced)
        }

        private mutating func seekHead(_ head: EBML.Element, end: UInt64) {
            var offset = head.body
            while offset < end, let seek = reader.element(at: offset), let seekEnd = seek.end, seekEnd <= end {
                if seek.id == EBML.ID.seek {
                    var entry = SeekEntry(start: seek.start, end: seekEnd)
                    var inner = seek.body
                    while inner < seekEnd, let child = reader.element(at: inner), let childEnd = child.end, childEnd <= seekEnd {
                        if child.id == EBML.ID.seekID, let size = child.size, size <= 4 {
                            entry.target = reader.bytes(at: child.body, count: Int(size)).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                        } else if child.id == EBML.ID.seekPosition {
                            entry.position = child
                        }
                        inner = childEnd
                    }
                    layout.seeks.append(entry)
                }
                offset = seekEnd
            }
        }

        private mutating func info(_ info: EBML.Element, end: UInt64) {
            var offset = info.body
            while offset < end, let child = reader.element(at: offset), let childEnd = child.end, childEnd <= end {
                if child.id == EBML.ID.timestampScale, let scale = reader.unsigned(child), scale > 0 {
                    layout.timestampScale = scale
                } else if child.id == EBML.ID.duration, child.size == 4 || child.size == 8 {
                    layout.durationField = child
                }
                offset = childEnd
            }
        }

        private mutating func trackList(_ tracks: EBML.Element, end: UInt64) {
            var offset = tracks.body
            while offset < end, let entry = reader.element(at: offset), let entryEnd = entry.end, entryEnd <= end {
                if entry.id == EBML.ID.trackEntry {
                    var track = TrackInfo(number: 0, type: 0, codec: "", defaultDuration: nil)
                    var inner = entry.body
                    while inner < entryEnd, let child = reader.element(at: inner), let childEnd = child.end, childEnd <= entryEnd {
                        switch child.id {
                        case EBML.ID.trackNumber: track.number = reader.unsigned(child) ?? 0
                        case EBML.ID.trackType: track.type = reader.unsigned(child) ?? 0
                        case EBML.ID.defaultDuration: track.defaultDuration = reader.unsigned(child)
                        case EBML.ID.codecID:
                            if let size = child.size, size <= 64 {
                                track.codec = String(decoding: reader.bytes(at: child.body, count: Int(size)).prefix { $0 != 0 },
                                                     as: UTF8.self)
                            }
                        default: break
                        }
                        inner = childEnd
                    }
                    if track.number > 0 { layout.tracks.append(track) }
                }
                offset = entryEnd
            }
        }
    }
}
