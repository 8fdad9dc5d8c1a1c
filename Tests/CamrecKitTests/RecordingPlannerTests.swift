@testable import CamrecKit
import Foundation
import Testing

/// The planner's rules, request by request, without a camera or GStreamer: every name a
/// run writes, and every request it refuses.
@Suite struct RecordingPlannerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A request for `output` from `devices`, with the stills a command line without
    /// `--stills` gives, changed by `change`.
    static func request(_ output: String, _ devices: [String] = [], stills pattern: String? = nil,
                        _ change: (inout RecordingRequest) throws -> Void = { _ in }) throws -> RecordingRequest {
        let stills = try StillSettings.resolve(pattern: pattern, format: nil, every: nil, moviePath: output)
        var request = RecordingRequest(output: output, devices: devices, stills: stills)
        request.stillsPattern = pattern
        try change(&request)
        return request
    }

    static func segments(_ output: String, length: TimeSpec? = .minutes(10)) throws -> SegmentSettings {
        SegmentSettings(length: length, naming: try SegmentNaming(output: output, utc: true))
    }

    static func plan(_ request: RecordingRequest, _ paths: [String] = ["/dev/video0", "/dev/video2"]) throws -> RecordingPlan {
        try RecordingPlanner.plan(request, devicePaths: Array(paths.prefix(max(1, request.devices.count))), now: now)
    }

    /// The usage error a request gets, or nil.
    static func refusal(_ request: RecordingRequest, _ paths: [String] = ["/dev/video0", "/dev/video2"]) -> String? {
        do {
            _ = try plan(request, paths)
            return nil
        } catch let error as CamrecError {
            #expect(error.kind == .usage)
            return error.message
        } catch {
            Issue.record("not a CamrecError: \(error)")
            return "\(error)"
        }
    }

    @Test func oneCameraWritesOutputWithStillsAndClipsBesideIt() throws {
        let plan = try Self.plan(try Self.request("day/out.mp4") { $0.clips = ClipSettings() })
        #expect(plan.topology == .oneCamera)
        #expect(plan.movies.map(\.movie) == ["day/out.mp4"])
        #expect(plan.movies[0].stills.naming.path(1) == "day/out-still-0001.jpg")
        #expect(plan.movies[0].clipNaming?.path(counter: 1, date: Self.now) == "day/out-clip-0001.mp4")
        #expect(plan.cameraStills.isEmpty)
        #expect(plan.warnings.isEmpty)
    }

    @Test func aSeriesNamesStillsAndClipsAfterItsPlainNameAndKeepsClipsInCheck() throws {
        let retention = RetentionPolicy(keep: 5, keepBytes: nil, minFree: nil)
        let plan = try Self.plan(try Self.request("cam-%Y%m%d.mp4") {
            $0.segments = try Self.segments("cam-%Y%m%d.mp4")
            $0.segmentGiven = true
            $0.clips = ClipSettings()
            $0.retention = retention
            $0.force = true
        })
        let outputs = plan.movies[0]
        #expect(outputs.segments?.naming.path(counter: 1, date: Self.now) == "cam-20270115.mp4")
        #expect(outputs.stills.naming.path(1) == "cam-still-0001.jpg")
        #expect(outputs.clipNaming?.path(counter: 1, date: Self.now) == "cam-clip-0001.mp4")
        #expect(outputs.clips?.retention == retention)
        #expect(plan.warnings == ["--force does nothing with --segment: movies of a segmented run never replace a file (a taken name gets -2)"])
    }

    @Test func aFieldInAPlainMovieNameIsUsedAsWrittenWithAWarning() throws {
        let plan = try Self.plan(try Self.request("cam-%Y.mp4"))
        #expect(plan.movies[0].movie == "cam-%Y.mp4")
        #expect(plan.warnings.count == 1)
        #expect(plan.warnings.first?.contains("used as written") == true)
    }

    @Test func severalCamerasGetNumberedMoviesStillsAndClips() throws {
        let plan = try Self.plan(try Self.request("m.mp4", ["0", "2"]) { $0.clips = ClipSettings() })
        #expect(plan.topology == .separateMovies(allOrNothing: false))
        #expect(plan.movies.map(\.movie) == ["m-1.mp4", "m-2.mp4"])
        #expect(plan.movies.map { $0.stills.naming.path(1) } == ["m-1-still-0001.jpg", "m-2-still-0001.jpg"])
        #expect(plan.movies.map { $0.clipNaming?.path(counter: 1, date: Self.now) } == ["m-1-clip-0001.mp4", "m-2-clip-0001.mp4"])
    }

    @Test func anOutputPatternTakesEachCamerasIndexAndDevice() throws {
        let plan = try Self.plan(try Self.request("lab-{device}-{index}.mkv", ["0", "2"]) { $0.outputPerDevice = true })
        #expect(plan.movies.map(\.movie) == ["lab-video0-1.mkv", "lab-video2-2.mkv"])
    }

    @Test func eachCamerasSeriesIsItsOwnWithItsStillsAndClips() throws {
        // Clips of a segmented run of several cameras are each camera's own (camera 1's and
        // camera 2's once both read OUTPUT's name, and were refused as the same clips).
        let plan = try Self.plan(try Self.request("m.mp4", ["0", "2"]) {
            $0.segments = try Self.segments("m.mp4")
            $0.segmentGiven = true
            $0.clips = ClipSettings()
        })
        #expect(plan.movies.map { $0.segments?.naming.path(counter: 3, date: Self.now) } == ["m-1-0003.mp4", "m-2-0003.mp4"])
        #expect(plan.movies.map { $0.stills.naming.path(1) } == ["m-1-still-0001.jpg", "m-2-still-0001.jpg"])
        #expect(plan.movies.map { $0.clipNaming?.path(counter: 1, date: Self.now) } == ["m-1-clip-0001.mp4", "m-2-clip-0001.mp4"])
    }

    @Test func stillsAndClipsPatternsAreMadeEachCamerasOwn() throws {
        let plan = try Self.plan(try Self.request("m.mp4", ["0", "2"], stills: "shots/{device}-%03d.jpg") {
            $0.clips = ClipSettings()
            $0.clipsPattern = "clips/ev-%04d.mp4"
        })
        #expect(plan.movies.map { $0.stills.naming.path(1) } == ["shots/video0-001.jpg", "shots/video2-001.jpg"])
        #expect(plan.movies.map { $0.clipNaming?.path(counter: 1, date: Self.now) } == ["clips/ev-0001-1.mp4", "clips/ev-0001-2.mp4"])
        let numbered = try Self.plan(try Self.request("m.mp4", ["0", "2"], stills: "shots/img-%04d.png"))
        #expect(numbered.movies.map { $0.stills.naming.path(1) } == ["shots/img-0001-1.png", "shots/img-0001-2.png"])
        #expect(numbered.movies[0].stills.format == .png)
        let folder = try Self.plan(try Self.request("m.mp4", ["0", "2"], stills: "shots/"))
        #expect(folder.movies.map { $0.stills.naming.path(1) } == ["shots/m-1-still-0001.jpg", "shots/m-2-still-0001.jpg"])
    }

    @Test func aCanvasIsOneMovieWithItsOwnAndEachCamerasStills() throws {
        let plan = try Self.plan(try Self.request("both.mp4", ["0", "2"], stills: "s/{device}-%02d.jpg") {
            $0.layout = .stacked
            $0.allOrNothing = true
            $0.segments = try Self.segments("both.mp4", length: nil)  // --reconnect alone
            $0.clips = ClipSettings()
            $0.clipsPattern = "c/{index}-%03d.mp4"
        })
        #expect(plan.topology == .canvas(.stacked, size: CanvasLayout.defaultCanvas, allOrNothing: true))
        #expect(plan.movies.map(\.movie) == ["both.mp4"])
        // --reconnect alone brings a camera back into the same movie: no series.
        #expect(plan.movies[0].segments == nil)
        #expect(plan.movies[0].stills.naming.path(1) == "s/canvas-01.jpg")
        #expect(plan.movies[0].clipNaming?.path(counter: 2, date: Self.now) == "c/canvas-002.mp4")
        #expect(plan.cameraStills.map { $0.naming.path(1) } == ["s/video0-01.jpg", "s/video2-01.jpg"])
        let beside = try Self.plan(try Self.request("both.mp4", ["0", "2"]) {
            $0.layout = .grid
            $0.segments = try Self.segments("both.mp4")
            $0.segmentGiven = true
        })
        #expect(beside.movies[0].segments?.naming.path(counter: 1, date: Self.now) == "both-0001.mp4")
        #expect(beside.movies[0].stills.naming.path(1) == "both-still-0001.jpg")
        #expect(beside.cameraStills.map { $0.naming.path(1) } == ["both-1-still-0001.jpg", "both-2-still-0001.jpg"])
    }

    /// Each refused request, with a word its message must hold (the option to change).
    @Test func refusedRequests() throws {
        let cases: [(String, (inout RecordingRequest) -> Void)] = [
        ("--output-per-device names the movies of several", { (r: inout RecordingRequest) in r.outputPerDevice = true; r.devices = ["0"] }),
        ("has neither {index} nor {device}", { (r: inout RecordingRequest) in r.outputPerDevice = true }),
        ("--all-or-nothing is about several cameras", { (r: inout RecordingRequest) in r.allOrNothing = true; r.devices = ["0"] }),
        ("--device 0 is given twice", { (r: inout RecordingRequest) in r.devices = ["0", "0"] }),
        ("--layout draws every camera's picture onto one canvas", { (r: inout RecordingRequest) in r.layout = .grid; r.codecCopy = true }),
        ("--layout composes several cameras", { (r: inout RecordingRequest) in r.layout = .pip(.standard); r.devices = ["0"] }),
        ("--output-per-device one per camera", { (r: inout RecordingRequest) in r.layout = .pip(.standard); r.outputPerDevice = true; r.output = "{index}.mp4" }),
        ("apply to a series: add --segment", { (r: inout RecordingRequest) in r.layout = .grid; r.retention = RetentionPolicy(keep: 2, keepBytes: nil, minFree: nil) }),
        ("--pipeline does not apply", { (r: inout RecordingRequest) in r.layout = .grid; r.customPipeline = true }),
        ]
        for (expected, change) in cases {
            let request = try Self.request("m.mp4", ["0", "2"], change)
            let message = try #require(Self.refusal(request), "\(expected)")
            #expect(message.contains(expected), "\(message)")
            // Refused before any camera is looked for.
            #expect(throws: CamrecError.self) { try RecordingPlanner.check(request) }
        }
    }

    /// Issue 31: `--settle` with `--layout` is a canvas like any other; the canvas settles
    /// once every camera's picture on it is stable.
    @Test func settlingIsAcceptedWithALayout() throws {
        for layout in CanvasLayout.allCases {
            let request = try Self.request("m.mp4", ["0", "2"]) { $0.settle = .seconds(3); $0.layout = layout }
            #expect(Self.refusal(request) == nil, "\(layout)")
            #expect(throws: Never.self) { try RecordingPlanner.check(request) }
            let plan = try Self.plan(request)
            #expect(plan.topology == .canvas(layout, size: CanvasLayout.defaultCanvas, allOrNothing: false))
            #expect(plan.movies.map(\.movie) == ["m.mp4"])
        }
    }

    @Test func windowsStreamsAndSettlingWorkWithSeveralCamerasAndOneCameraRefusesNothingHere() throws {
        let canvas = try Self.request("m.mp4", ["0", "2"]) { $0.layout = .sideBySide; $0.preview = true; $0.serve = true }
        #expect(Self.refusal(canvas) == nil)
        let separate = try Self.request("m.mp4", ["0", "2"]) { $0.settle = .seconds(2); $0.preview = true; $0.serve = true; $0.codecCopy = true }
        #expect(Self.refusal(separate) == nil)
        let one = try Self.request("m.mp4") { $0.settle = .seconds(2); $0.codecCopy = true; $0.preview = true; $0.serve = true }
        #expect(Self.refusal(one) == nil)
    }

    @Test func namesTwoCamerasWouldShareAreRefused() throws {
        let sameStills = try Self.request("m.mp4", ["a", "b"], stills: "{device}-%03d.jpg")
        #expect(Self.refusal(sameStills, ["/dev/video0", "/tmp/video0"])?.contains("cameras 1 and 2 would write the same stills") == true)
        let sameMovie = try Self.request("lab-{device}.mp4", ["a", "b"]) { $0.outputPerDevice = true }
        #expect(Self.refusal(sameMovie, ["/dev/video0", "/tmp/video0"])?.contains("two cameras would both write lab-video0.mp4") == true)
        let sameClips = try Self.request("m-{index}.mp4", ["a", "b"]) {
            $0.outputPerDevice = true
            $0.clips = ClipSettings()
            $0.clipsPattern = "ev-{device}-%03d.mp4"
        }
        #expect(Self.refusal(sameClips, ["/dev/video0", "/tmp/video0"])?.contains("would write the same clips") == true)
        // Camera 1's series (lab-1, a counter) would also read camera 10's names.
        let overlapping = try Self.request("lab-{index}%04d.mp4", (1...11).map(String.init)) {
            $0.outputPerDevice = true
            $0.segments = try Self.segments("lab-{index}%04d.mp4")
            $0.segmentGiven = true
        }
        let paths = (1...11).map { "/dev/video\($0)" }
        #expect(Self.refusal(overlapping, paths)?.contains("--segment: camera 1's movies would also match camera 10's names (lab-100001.mp4)") == true)
        let canvasStills = try Self.request("m.mp4", ["0", "2"], stills: "s-%03d.jpg") { $0.layout = .grid }
        #expect(Self.refusal(canvasStills) == nil)
    }

    @Test func destinationsAreCheckedForEveryFileOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planner-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/m-2.mp4", contents: Data())
        let taken = try Self.plan(try Self.request(folder + "/m.mp4", ["0", "2"]))
        #expect(throws: CamrecError.self) { try taken.checkDestinations(now: Self.now) }
        let forced = try Self.plan(try Self.request(folder + "/m.mp4", ["0", "2"]) { $0.force = true })
        try forced.checkDestinations(now: Self.now)
        // Standby writes no movie; a missing stills or clips folder is found at start.
        let standby = try Self.plan(try Self.request(folder + "/m.mp4", ["0", "2"]) { $0.standby = true; $0.clips = ClipSettings() })
        try standby.checkDestinations(now: Self.now)
        let noStillsFolder = try Self.plan(try Self.request(folder + "/m.mp4", stills: folder + "/missing/s-%02d.jpg"))
        #expect(throws: CamrecError.self) { try noStillsFolder.checkDestinations(now: Self.now) }
        let noClipsFolder = try Self.plan(try Self.request(folder + "/x.mp4", ["0", "2"]) {
            $0.clips = ClipSettings()
            $0.clipsPattern = folder + "/missing/c-%02d.mp4"
        })
        #expect(throws: CamrecError.self) { try noClipsFolder.checkDestinations(now: Self.now) }
    }
}
