@testable import CamrecKit
import Foundation
import Testing

/// Issue 29 item 7: once the run is stopping, retention deletes nothing to make room
/// (`--min-free`): no movie will be written into that room. `--keep` still bounds the series.
@Suite struct RetentionStoppingTests {
    func segments(in dir: URL, retention: RetentionPolicy) throws -> (SegmentSettings, [String]) {
        let naming = try SegmentNaming(output: dir.appendingPathComponent("cam.mp4").path, utc: true)
        var paths: [String] = []
        for counter in 1...4 {
            let path = naming.path(counter: counter, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(counter)))
            try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(counter - 10))],
                                                  ofItemAtPath: path)
            paths.append(path)
        }
        return (SegmentSettings(length: .seconds(1), naming: naming, retention: retention), paths)
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func item7_minFreeDeletesNothingOnceStopping() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // More free space than any disk has: the rule can never be met.
        let (settings, paths) = try segments(in: dir, retention: RetentionPolicy(minFree: Int64.max / 2))
        let keeper = RetentionKeeper(policy: settings.retention, naming: settings.naming)
        let stopping = keeper.apply(stopping: true)
        #expect(stopping.deleted.isEmpty, "deleted \(stopping.deleted.map(\.path)) while stopping")
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // While recording the same rule deletes all but the newest (and says it stays short).
        let recording = keeper.apply()
        #expect(recording.deleted.map(\.path) == Array(paths.dropLast()))
        #expect(recording.stillShort)
    }

    @Test func item7_keepStillBoundsTheSeriesWhenStopping() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (settings, paths) = try segments(in: dir, retention: RetentionPolicy(keep: 2, minFree: Int64.max / 2))
        let result = RetentionKeeper(policy: settings.retention, naming: settings.naming).apply(stopping: true)
        #expect(result.deleted.map(\.path) == Array(paths.prefix(2)))
        #expect(result.deleted.allSatisfy { $0.rule == .keep })
        #expect(!result.stillShort)
    }
}
