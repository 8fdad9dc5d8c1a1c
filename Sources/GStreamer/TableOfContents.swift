import CGStreamer

/// A table of contents as GStreamer carries it (`GstToc`, in TOC events and messages, and
/// set on muxers through `GstTocSetter`), reduced to what camrec keeps: editions of
/// chapters, each chapter with its times and title (nested chapters are not kept).
public struct TableOfContents: Sendable, Equatable {
    /// One chapter.
    public struct Chapter: Sendable, Equatable {
        /// Where it starts and ends (ns); nil when the TOC says nothing.
        public var start: UInt64?
        public var stop: UInt64?
        /// Its first title, if any.
        public var title: String?

        /// A chapter.
        public init(start: UInt64?, stop: UInt64?, title: String?) {
            self.start = start
            self.stop = stop
            self.title = title
        }
    }

    /// The editions, in order (a TOC whose chapters sit at its root is one edition).
    public var editions: [[Chapter]]

    /// A table of contents.
    public init(editions: [[Chapter]]) {
        self.editions = editions
    }

    /// Reads a `GstToc` (borrowed).
    init(reading toc: OpaquePointer) {
        var editions: [[Chapter]] = []
        var rootChapters: [Chapter] = []
        Self.forEach(gst_toc_get_entries(toc)) { entry in
            if gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_EDITION {
                var chapters: [Chapter] = []
                Self.forEach(gst_toc_entry_get_sub_entries(entry)) { chapters.append(Self.chapter(entry: $0)) }
                editions.append(chapters)
            } else {
                rootChapters.append(Self.chapter(entry: entry))
            }
        }
        if !rootChapters.isEmpty { editions.append(rootChapters) }
        self.editions = editions
    }

    private static func forEach(_ list: UnsafeMutablePointer<GList>?, _ body: (OpaquePointer) -> Void) {
        var node = list
        while let current = node {
            if let data = current.pointee.data { body(OpaquePointer(data)) }
            node = current.pointee.next
        }
    }

    private static func chapter(entry: OpaquePointer) -> Chapter {
        var start: gint64 = -1
        var stop: gint64 = -1
        let timed = gst_toc_entry_get_start_stop_times(entry, &start, &stop) != 0
        let title = gst_toc_entry_get_tags(entry).flatMap { TagListText.string($0, "title") }
        return Chapter(
            start: timed && start >= 0 ? UInt64(start) : nil, stop: timed && stop >= 0 ? UInt64(stop) : nil,
            title: title
        )
    }

    /// A new `GstToc` of global scope holding one edition per ``editions`` entry (transfer full).
    func make() -> OpaquePointer? {
        guard let toc = gst_toc_new(GST_TOC_SCOPE_GLOBAL) else { return nil }
        for (editionNumber, chapters) in editions.enumerated() {
            guard let edition = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_EDITION, "edition-\(editionNumber + 1)") else { continue }
            for (number, chapter) in chapters.enumerated() {
                guard let entry = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_CHAPTER, "chapter-\(editionNumber + 1)-\(number + 1)")
                else { continue }
                gst_toc_entry_set_start_stop_times(
                    entry, chapter.start.map { gint64($0) } ?? -1, chapter.stop.map { gint64($0) } ?? -1
                )
                if let title = chapter.title, !title.isEmpty, let tags = gst_tag_list_new_empty() {
                    TagListText.set(tags, "title", title)
                    gst_toc_entry_set_tags(entry, tags)  // takes the list
                }
                gst_toc_entry_append_sub_entry(edition, entry)  // takes the entry
            }
            gst_toc_append_entry(toc, edition)  // takes the edition
        }
        return toc
    }
}

extension Pad {
    /// The table of contents the pad carried (its sticky TOC event), if any: matroskademux
    /// sends the file's chapters on every source pad.
    public var tableOfContents: TableOfContents? {
        guard let event = gst_pad_get_sticky_event(padPointer, GST_EVENT_TOC, 0) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self)) }
        var toc: OpaquePointer?
        gst_event_parse_toc(event, &toc, nil)
        guard let toc else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(toc).assumingMemoryBound(to: GstMiniObject.self)) }
        return TableOfContents(reading: toc)
    }
}

extension Element {
    /// Gives a muxer that implements `GstTocSetter` (matroskamux) the chapters to write;
    /// false when the element does not implement it. Set it before the muxer writes its
    /// header (before the first buffer).
    @discardableResult
    public func setTableOfContents(_ contents: TableOfContents) -> Bool {
        guard isInstance(of: gst_toc_setter_get_type()),
              let toc = contents.make()
        else { return false }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(toc).assumingMemoryBound(to: GstMiniObject.self)) }
        gst_toc_setter_set_toc(OpaquePointer(elementPointer), toc)
        return true
    }
}
