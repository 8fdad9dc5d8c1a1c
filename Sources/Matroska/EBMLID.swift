extension EBML {
    /// The element IDs camrec reads or writes, each named once (Matroska's specification
    /// names; IDs include their marker bits).
    public enum ID {
        // EBML header
        public static let header: UInt32 = 0x1A45_DFA3
        public static let ebmlVersion: UInt32 = 0x4286
        public static let ebmlReadVersion: UInt32 = 0x42F7
        public static let ebmlMaxIDLength: UInt32 = 0x42F2
        public static let ebmlMaxSizeLength: UInt32 = 0x42F3
        public static let docType: UInt32 = 0x4282
        public static let docTypeVersion: UInt32 = 0x4287
        public static let docTypeReadVersion: UInt32 = 0x4285
        // Anywhere
        public static let void: UInt32 = 0xEC
        public static let crc32: UInt32 = 0xBF
        // Segment and its top-level elements
        public static let segment: UInt32 = 0x1853_8067
        public static let seekHead: UInt32 = 0x114D_9B74
        public static let info: UInt32 = 0x1549_A966
        public static let tracks: UInt32 = 0x1654_AE6B
        public static let cluster: UInt32 = 0x1F43_B675
        public static let cues: UInt32 = 0x1C53_BB6B
        public static let attachments: UInt32 = 0x1941_A469
        public static let chapters: UInt32 = 0x1043_A770
        public static let tags: UInt32 = 0x1254_C367
        /// The elements that may sit directly in a segment: one of them ends a cluster of unknown size.
        public static let topLevel: Set<UInt32> = [seekHead, info, tracks, cluster, cues, attachments, chapters, tags]
        // SeekHead
        public static let seek: UInt32 = 0x4DBB
        public static let seekID: UInt32 = 0x53AB
        public static let seekPosition: UInt32 = 0x53AC
        // Info
        public static let timestampScale: UInt32 = 0x2A_D7B1
        public static let duration: UInt32 = 0x4489
        public static let title: UInt32 = 0x7BA9
        /// The segment's date: nanoseconds since 2001-01-01T00:00:00 UTC (signed, 8 bytes).
        public static let dateUTC: UInt32 = 0x4461
        public static let muxingApp: UInt32 = 0x4D80
        public static let writingApp: UInt32 = 0x5741
        // Tracks
        public static let trackEntry: UInt32 = 0xAE
        public static let trackNumber: UInt32 = 0xD7
        public static let trackType: UInt32 = 0x83
        public static let codecID: UInt32 = 0x86
        public static let codecPrivate: UInt32 = 0x63A2
        public static let defaultDuration: UInt32 = 0x23_E383
        public static let contentEncodings: UInt32 = 0x6D80
        public static let name: UInt32 = 0x536E
        public static let language: UInt32 = 0x22_B59C
        public static let languageBCP47: UInt32 = 0x22_B59D
        public static let flagDefault: UInt32 = 0x88
        public static let flagForced: UInt32 = 0x55AA
        public static let video: UInt32 = 0xE0
        public static let pixelWidth: UInt32 = 0xB0
        public static let pixelHeight: UInt32 = 0xBA
        public static let audio: UInt32 = 0xE1
        // Cluster
        public static let clusterTimestamp: UInt32 = 0xE7
        public static let simpleBlock: UInt32 = 0xA3
        public static let blockGroup: UInt32 = 0xA0
        public static let block: UInt32 = 0xA1
        public static let blockDuration: UInt32 = 0x9B
        public static let referenceBlock: UInt32 = 0xFB
        // Cues
        public static let cuePoint: UInt32 = 0xBB
        public static let cueTime: UInt32 = 0xB3
        public static let cueTrackPositions: UInt32 = 0xB7
        public static let cueTrack: UInt32 = 0xF7
        public static let cueClusterPosition: UInt32 = 0xF1
        // Chapters
        public static let editionEntry: UInt32 = 0x45B9
        public static let editionUID: UInt32 = 0x45BC
        public static let chapterAtom: UInt32 = 0xB6
        public static let chapterUID: UInt32 = 0x73C4
        public static let chapterTimeStart: UInt32 = 0x91
        public static let chapterTimeEnd: UInt32 = 0x92
        public static let chapterDisplay: UInt32 = 0x80
        public static let chapString: UInt32 = 0x85
        public static let chapLanguage: UInt32 = 0x437C
        // Tags
        public static let tag: UInt32 = 0x7373
        public static let targets: UInt32 = 0x63C0
        public static let targetTrackUID: UInt32 = 0x63C5
    }
}
