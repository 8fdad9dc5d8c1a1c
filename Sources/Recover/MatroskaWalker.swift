import Matroska

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
                case EBML.ID.seekHead: seekHead(element)
                case EBML.ID.info: info(element)
                case EBML.ID.tracks: trackList(element)
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
                    if let block = blockGroup(child, clusterTime: timestamp) {
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
            guard let head = reader.blockHeader(at: offset, end: end) else { return nil }
            let track = head.track
            let time = clusterTime &+ head.relativeTime
            let keyframe = groupKeyframe ?? head.isKeyframe
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

        private mutating func blockGroup(_ group: EBML.Element, clusterTime: Int64) -> Block? {
            let (found, duration, referenced) = reader.blockGroup(group)
            guard let found, let bodyEnd = found.end else { return nil }
            return block(at: found.body, end: bodyEnd, clusterTime: clusterTime,
                         duration: duration.map { Int64(clamping: $0) }, keyframe: !referenced)
        }

        private mutating func seekHead(_ head: EBML.Element) {
            for seek in reader.children(of: head) where seek.id == EBML.ID.seek {
                guard let seekEnd = seek.end else { continue }
                var entry = SeekEntry(start: seek.start, end: seekEnd)
                for child in reader.children(of: seek) {
                    if child.id == EBML.ID.seekID, let id = reader.seekID(child) {
                        entry.target = id
                    } else if child.id == EBML.ID.seekPosition {
                        entry.position = child
                    }
                }
                layout.seeks.append(entry)
            }
        }

        private mutating func info(_ info: EBML.Element) {
            for child in reader.children(of: info) {
                if child.id == EBML.ID.timestampScale, let scale = reader.unsigned(child), scale > 0 {
                    layout.timestampScale = scale
                } else if child.id == EBML.ID.duration, child.size == 4 || child.size == 8 {
                    layout.durationField = child
                }
            }
        }

        private mutating func trackList(_ tracks: EBML.Element) {
            for entry in reader.children(of: tracks) where entry.id == EBML.ID.trackEntry {
                var track = TrackInfo(number: 0, type: 0, codec: "", defaultDuration: nil)
                for child in reader.children(of: entry) {
                    switch child.id {
                    case EBML.ID.trackNumber: track.number = reader.unsigned(child) ?? 0
                    case EBML.ID.trackType: track.type = reader.unsigned(child) ?? 0
                    case EBML.ID.defaultDuration: track.defaultDuration = reader.unsigned(child)
                    case EBML.ID.codecID: if let codec = reader.text(child) { track.codec = codec }
                    default: break
                    }
                }
                if track.number > 0 { layout.tracks.append(track) }
            }
        }
    }
}
