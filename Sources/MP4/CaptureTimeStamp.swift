#if canImport(Glibc)
import Glibc
#endif

/// When a movie's first frame was captured, as written into a finished MP4 or QuickTime
/// movie: the movie, track and media headers' creation times (whole seconds, as the
/// format has them, which ffprobe shows as `creation_time`) and a QuickTime metadata box
/// (`moov/meta`, handler `mdta`) whose `com.apple.quicktime.creationdate` holds the time
/// to the millisecond with its zone (ffprobe: a format tag of that name; exiftool:
/// `Keys:CreationDate`), with the camera's name as `com.apple.quicktime.model`.
public struct CaptureTimeStamp: Sendable, Equatable {
    /// The moment, in milliseconds since 1970-01-01 UTC.
    public var unixMilliseconds: Int64
    /// The zone it is written in: seconds east of UTC (e.g. 3600 for +01:00).
    public var utcOffsetSeconds: Int
    /// The camera's name; nil when not known.
    public var model: String?
    /// The program that recorded the movie, e.g. "camrec 1.4".
    public var software: String?
    /// Where, as ISO 6709 text (`+48.8584+002.2945+035.000/`); nil when not known.
    public var location: String?

    /// A stamp of the moment `unixMilliseconds`, written in the zone `utcOffsetSeconds` east of UTC.
    public init(unixMilliseconds: Int64, utcOffsetSeconds: Int, model: String? = nil, software: String? = nil,
                location: String? = nil) {
        self.unixMilliseconds = unixMilliseconds
        self.utcOffsetSeconds = utcOffsetSeconds
        self.model = model
        self.software = software
        self.location = location
    }

    /// The whole second the moment falls in (what the headers hold).
    public var unixSeconds: Int64 { Self.floorDivide(unixMilliseconds, 1000) }

    /// The moment `milliseconds` later, in the same zone.
    public func adding(milliseconds: Int64) -> CaptureTimeStamp {
        var later = self
        later.unixMilliseconds += milliseconds
        return later
    }

    /// ISO 8601 with milliseconds and the zone: 2026-12-01T10:04:30.250+01:00.
    public var iso8601: String {
        let local = unixMilliseconds + Int64(utcOffsetSeconds) * 1000
        let days = Self.floorDivide(local, 86_400_000)
        let inDay = local - days * 86_400_000
        let (year, month, day) = Self.civil(fromDays: days)
        let minutes = abs(utcOffsetSeconds) / 60
        return Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2) + "T"
            + Self.digits(Int(inDay / 3_600_000), 2) + ":" + Self.digits(Int(inDay / 60000 % 60), 2) + ":"
            + Self.digits(Int(inDay / 1000 % 60), 2) + "." + Self.digits(Int(inDay % 1000), 3)
            + (utcOffsetSeconds < 0 ? "-" : "+") + Self.digits(minutes / 60, 2) + ":" + Self.digits(minutes % 60, 2)
    }

    /// Reads `2026-12-01T10:04:30.250+01:00` (fraction optional, any number of digits;
    /// `Z` for UTC); nil for anything else.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58, bytes[16] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var milliseconds = 0
        if bytes[index] == 46 {
            index += 1
            var scale = 100
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                milliseconds += Int(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index == bytes.count - 1, bytes[index] == 90 {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == 43 || bytes[index] == 45, bytes[index + 3] == 58,
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6) {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        } else if index == bytes.count - 5 || index == bytes.count - 3, bytes[index] == 43 || bytes[index] == 45,
                  let hours = number(index + 1..<index + 3),
                  let minutes = index == bytes.count - 5 ? number(index + 3..<index + 5) : 0 {
            // The basic form of the offset (+0200, +02), as iPhones and exiftool write it.
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        } else {
            return nil
        }
        let days = Self.days(fromCivil: year, month, day)
        let local = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        self.init(unixMilliseconds: (local - Int64(offset)) * 1000 + Int64(milliseconds), utcOffsetSeconds: offset)
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let shifted = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(shifted, 400)
        let yearOfEra = shifted - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// The key that holds the time to the millisecond.
    public static let creationDateKey = "com.apple.quicktime.creationdate"

    /// Writes the stamp into the finished movie at `path`: the movie box with the stamp
    /// is appended to the file and synced, and only then the old one becomes free space
    /// (one 4-byte write, synced), so that a crash at any moment leaves a movie box that
    /// describes every sample (the samples' offsets do not move).
    ///
    /// - Throws: ``MP4Error`` when the file has no movie box or several, or is fragmented
    ///   (unfinished), or cannot be written (a box cut short is cut off again); the file is
    ///   then as it was, or holds both boxes (each describes every sample).
    public func write(into path: String) throws(MP4Error) {
        let file = try SampleFile(path: path)
        let movies = try Box.topLevel(in: file).filter { $0.type == "moov" }
        guard movies.count == 1, let old = movies.first else {
            throw MP4Error(movies.isEmpty ? "\(path) has no movie box (moov)" : "\(path) has several movie boxes")
        }
        guard old.end - old.start < 1 << 28, old.payloadStart == old.start + 8 else { throw MP4Error("the movie box of \(path) is too large") }
        let moov = try file.read(offset: UInt64(old.start), count: old.end - old.start)
        let stamped = try stamped(moov)
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MP4Error("cannot open \(path) to write: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        do {
            try Self.write(stamped, at: file.size, to: descriptor, path: path)
        } catch {
            // A movie box cut short (a full disk) would make the file unreadable: cut it off.
            _ = ftruncate(descriptor, off_t(file.size))
            _ = fsync(descriptor)
            throw error
        }
        try Self.write(Array("free".utf8), at: UInt64(old.start + 4), to: descriptor, path: path)
    }

    /// `moov` (a whole movie box) with this stamp.
    func stamped(_ moov: [UInt8]) throws(MP4Error) -> [UInt8] {
        guard let children = Box.children(of: moov, in: 8..<moov.count), Array(moov[4..<8]) == Array("moov".utf8) else {
            throw MP4Error("the movie box is corrupt")
        }
        guard children.first("mvex") == nil else { throw MP4Error("the movie is fragmented (unfinished)") }
        var bytes = moov
        let seconds1904 = UInt64(max(0, unixSeconds + 2_082_844_800))
        for child in children {
            switch child.type {
            case "mvhd": Self.setTimes(in: &bytes, header: child, to: seconds1904)
            case "trak":
                for part in Box.children(of: moov, in: child.payload) ?? [] {
                    if part.type == "tkhd" { Self.setTimes(in: &bytes, header: part, to: seconds1904) }
                    if part.type == "mdia", let mdhd = Box.children(of: moov, in: part.payload)?.first("mdhd") {
                        Self.setTimes(in: &bytes, header: mdhd, to: seconds1904)
                    }
                }
            default: break
            }
        }
        var writer = ByteWriter()
        writer.box("moov") { box in
            for child in children {
                // A QuickTime metadata box of ours from before is replaced.
                if child.type == "meta", Self.isQuickTimeMetadata(moov, child) { continue }
                box.append(Array(bytes[child.start..<child.end]))
            }
            box.append(metadataBox())
        }
        return writer.bytes
    }

    /// The `meta` box: handler `mdta`, the keys, and their values as UTF-8 text. QuickTime
    /// writes this box without version and flags.
    func metadataBox() -> [UInt8] {
        var entries = [(Self.creationDateKey, iso8601)]
        if let model { entries.append(("com.apple.quicktime.model", model)) }
        if let software { entries.append(("com.apple.quicktime.software", software)) }
        if let location { entries.append(("com.apple.quicktime.location.ISO6709", location)) }
        var writer = ByteWriter()
        writer.box("meta") { meta in
            meta.fullBox("hdlr", version: 0) { hdlr in
                hdlr.uint32(0)
                hdlr.fourCC("mdta")
                hdlr.append([UInt8](repeating: 0, count: 13))
            }
            meta.fullBox("keys", version: 0) { keys in
                keys.uint32(UInt32(entries.count))
                for (key, _) in entries {
                    keys.uint32(UInt32(8 + key.utf8.count))
                    keys.fourCC("mdta")
                    keys.append(Array(key.utf8))
                }
            }
            meta.box("ilst") { list in
                for (index, entry) in entries.enumerated() {
                    list.uint32(UInt32(8 + 16 + entry.1.utf8.count))
                    list.uint32(UInt32(index + 1))
                    list.box("data") { data in
                        data.uint32(1)   // UTF-8 text
                        data.uint32(0)   // no locale
                        data.append(Array(entry.1.utf8))
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The capture time to the millisecond a movie box holds (our `meta` key), if any.
    public static func read(moov: [UInt8]) -> String? {
        guard let top = Box.children(of: moov, in: 0..<moov.count), let box = top.first("moov"),
              let children = Box.children(of: moov, in: box.payload)
        else { return nil }
        for meta in children where meta.type == "meta" && isQuickTimeMetadata(moov, meta) {
            guard let parts = Box.children(of: moov, in: meta.payload), let keys = parts.first("keys"), let list = parts.first("ilst")
            else { continue }
            var reader = ByteReader(moov, range: keys.payload)
            guard reader.skip(4), let count = reader.uint32() else { continue }
            var names: [String] = []
            for _ in 0..<min(count, 64) {
                guard let size = reader.uint32(), size >= 8, reader.skip(4), let name = reader.take(Int(size) - 8) else { break }
                names.append(String(decoding: name, as: UTF8.self))
            }
            guard let index = names.firstIndex(of: creationDateKey) else { continue }
            for item in Box.children(of: moov, in: list.payload) ?? [] {
                var header = ByteReader(moov, range: item.start..<item.payloadStart)
                guard header.skip(4), let number = header.uint32(), number == UInt32(index + 1),
                      let data = Box.children(of: moov, in: item.payload)?.first("data"), data.payload.count >= 8
                else { continue }
                return String(decoding: moov[(data.payloadStart + 8)..<data.end], as: UTF8.self)
            }
        }
        return nil
    }

    /// The capture time a finished movie file holds (our `meta` key), if any.
    public static func read(path: String) -> CaptureTimeStamp? {
        guard let file = try? SampleFile(path: path), let boxes = try? Box.topLevel(in: file),
              let moov = boxes.last(where: { $0.type == "moov" }), moov.end - moov.start < 1 << 28,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start),
              let text = read(moov: bytes)
        else { return nil }
        return CaptureTimeStamp(iso8601: text)
    }

    /// Whether `meta` is a QuickTime metadata box (no version and flags: its first child
    /// is a handler of `mdta`).
    private static func isQuickTimeMetadata(_ bytes: [UInt8], _ meta: Box) -> Bool {
        guard let parts = Box.children(of: bytes, in: meta.payload), let hdlr = parts.first("hdlr") else { return false }
        var reader = ByteReader(bytes, range: hdlr.payload)
        return reader.skip(8) && reader.fourCC() == "mdta"
    }

    /// Sets the creation and modification times of a movie, track or media header.
    private static func setTimes(in bytes: inout [UInt8], header: Box, to seconds: UInt64) {
        let start = header.payloadStart
        guard start < bytes.count else { return }
        let wide = bytes[start] == 1
        let width = wide ? 8 : 4
        guard start + 4 + 2 * width <= header.end else { return }
        let value = wide ? seconds : min(seconds, UInt64(UInt32.max))
        for field in 0..<2 {
            for index in 0..<width {
                bytes[start + 4 + field * width + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - index)))
            }
        }
    }

    private static func write(_ bytes: [UInt8], at offset: UInt64, to descriptor: Int32, path: String) throws(MP4Error) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else {
                throw MP4Error("cannot write \(path): \(String(cString: strerror(errno)))", isNoSpace: errno == ENOSPC)
            }
            done += wrote
        }
        guard fsync(descriptor) == 0 else { throw MP4Error("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }
}
