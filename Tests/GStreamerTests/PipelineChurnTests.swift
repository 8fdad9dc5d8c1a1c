import CGStreamer
import Foundation
import GStreamer
import Testing

/// Builds, runs and tears down small pipelines, as a long-lived program that records again
/// and again does: nothing may be left behind.
///
/// The short checks here run in `swift test`. The long measurement (50 warm-up cycles, then
/// the growth of resident memory over 500 more) is a benchmark, not a test: `bench/run`
/// runs `pipelineChurnMemory` below in a process of its own with
/// `CAMREC_PIPELINE_CHURN=50,500` (see bench/benchlib/churn.py and bench/README.md).
@Suite struct PipelineChurnTests {
    /// 50 cycles, each checked object by object with weak references: the pipeline, every
    /// element, the pad a probe was on, the bus, and the probe's closure are all released
    /// once the cycle's last wrapper goes. Exact, and independent of the machine's load or
    /// of what other tests allocate meanwhile.
    @Test func everyCycleReleasesEverything() throws {
        for index in 0..<50 {
            let watches = try PipelineChurn.watchedCycle()
            // GStreamer may drop its last reference a moment later on a thread of its own
            // (an asynchronous state change finishing): wait for it, generously.
            let released = Wait.until { !watches.objects.values.contains { $0.isAlive } && !watches.probeClosure.isAlive }
            for (name, watch) in watches.objects.sorted(by: { $0.key < $1.key }) where watch.isAlive {
                Issue.record("cycle \(index): \(name) outlived its pipeline by 30 s")
            }
            #expect(!watches.probeClosure.isAlive, "cycle \(index): the probe's closure was not released")
            if !released { break }
        }
    }

    /// Resident memory over 50 cycles (after 10 to warm up caches, plugins and thread
    /// pools), with a generous bound: a gross leak (frames, whole pipelines) shows, noise
    /// does not. Other tests run in this process at the same time, so the cycles run in a
    /// child process of their own: the test binary again, with only this test.
    ///
    /// In that child (`CAMREC_PIPELINE_CHURN=WARMUP,CYCLES`) the test only measures and
    /// writes what it found as JSON to `CAMREC_PIPELINE_CHURN_REPORT`; bench/ runs it so with
    /// 500 cycles.
    @Test func pipelineChurnMemory() throws {
        let environment = ProcessInfo.processInfo.environment
        if let spec = environment[PipelineChurn.cyclesVariable] {
            let counts = spec.split(separator: ",").compactMap { Int($0) }
            try #require(counts.count == 2, "\(PipelineChurn.cyclesVariable)=\(spec): want WARMUP,CYCLES")
            let measurement = try PipelineChurn.measure(warmup: counts[0], cycles: counts[1])
            let report = try #require(environment[PipelineChurn.reportVariable], "no \(PipelineChurn.reportVariable)")
            try JSONEncoder().encode(measurement).write(to: URL(fileURLWithPath: report))
            return
        }
        let measurement = try PipelineChurn.measureInChild(warmup: 10, cycles: 50)
        #expect(measurement.cycles == 50)
        #expect(measurement.growthBytes < 8 * 1024 * 1024,
                "resident memory grew by \(measurement.growthBytes) bytes over 50 pipelines")
    }
}

/// The build/run/teardown cycle of `PipelineChurnTests` and of bench/'s churn measurement.
enum PipelineChurn {
    static let cyclesVariable = "CAMREC_PIPELINE_CHURN"
    static let reportVariable = "CAMREC_PIPELINE_CHURN_REPORT"

    /// A source, caps, a tee and two branches: elements, static and request pads, caps,
    /// queues' threads and a bus per cycle.
    static let description = "videotestsrc num-buffers=2 name=src ! video/x-raw,width=64,height=48 ! capsfilter name=caps"
        + " ! tee name=t ! queue name=q1 ! fakesink name=sink1 t. ! queue name=q2 ! fakesink name=tap"
    static let elementNames = ["src", "caps", "t", "q1", "sink1", "q2", "tap"]

    /// What one cycle measured, as bench/ reads it.
    struct Measurement: Codable {
        var warmup: Int
        var cycles: Int
        var residentBefore: Int
        var residentAfter: Int
        var growthBytes: Int { residentAfter - residentBefore }

        enum CodingKeys: String, CodingKey {
            case warmup, cycles
            case residentBefore = "rss_before_bytes"
            case residentAfter = "rss_after_bytes"
        }
    }

    /// One cycle: build, probe, run to end of stream, remove the probe, tear down.
    static func cycle() throws {
        let pipeline = try Pipeline.parse(description)
        let pad = try pipeline.element(named: "src").staticPad("src")
        let token = pad.addProbe(.buffer) { _ in .pass }
        _ = try runToEnd(pipeline)
        token.remove()
    }

    /// Weak pointers to everything one cycle made, taken while it ran.
    struct Watches {
        var objects: [String: FinalisationWatch]
        var probeClosure: CanaryWatch
    }

    /// A cycle whose objects are watched; returns once every wrapper of the cycle is gone.
    static func watchedCycle() throws -> Watches {
        var objects: [String: FinalisationWatch] = [:]
        let canary = Canary()
        let probeClosure = CanaryWatch(canary)
        do {
            let pipeline = try Pipeline.parse(description)
            objects["pipeline"] = FinalisationWatch(pipeline)
            for name in elementNames { objects[name] = FinalisationWatch(try pipeline.element(named: name)) }
            let bus = try #require(pipeline.bus)
            objects["bus"] = FinalisationWatch(bus)
            let pad = try pipeline.element(named: "src").staticPad("src")
            objects["src pad"] = FinalisationWatch(pad)
            let token = pad.addProbe(.buffer) { [canary] _ in
                _ = canary
                return .pass
            }
            // Parsed messages hold their source objects: keep only the answer, not them.
            let ended = try runToEnd(pipeline).contains(.endOfStream)
            #expect(ended)
            token.remove()
            // Torn down, only our wrapper holds the pipeline (once GStreamer's own threads
            // are done with it).
            #expect(Wait.until { pipeline.referenceCount == 1 }, "the pipeline keeps \(pipeline.referenceCount) references")
        }
        return Watches(objects: objects, probeClosure: probeClosure)
    }

    /// Resident memory of this process in bytes, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// `warmup` cycles (caches, plugin loading, thread pools), then resident memory before and
    /// after `cycles` more. Meaningful only in a process that does nothing else meanwhile.
    static func measure(warmup: Int, cycles: Int) throws -> Measurement {
        for _ in 0..<warmup { try cycle() }
        let before = residentBytes()
        for _ in 0..<cycles { try cycle() }
        return Measurement(warmup: warmup, cycles: cycles, residentBefore: before, residentAfter: residentBytes())
    }

    /// Runs `pipelineChurnMemory` in a child process (the test binary again) and returns what
    /// it measured there.
    static func measureInChild(warmup: Int, cycles: Int) throws -> Measurement {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-churn-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "pipelineChurnMemory"]
        var environment = ProcessInfo.processInfo.environment
        environment[cyclesVariable] = "\(warmup),\(cycles)"
        environment[reportVariable] = report.path
        child.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-churn-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let log = try FileHandle(forWritingTo: output)
        child.standardOutput = log
        child.standardError = log
        try child.run()
        child.waitUntilExit()
        try? log.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        try #require(child.terminationStatus == 0, "the child failed: \(text)")
        let data = try #require(try? Data(contentsOf: report), "the child wrote no report: \(text)")
        return try JSONDecoder().decode(Measurement.self, from: data)
    }
}
