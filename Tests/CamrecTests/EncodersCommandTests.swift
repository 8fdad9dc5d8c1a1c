import Foundation
import Testing

/// `camrec encoders` end to end, with the fake hardware encoders (Tests/Fixtures/
/// FakeHardwareEncoder) loaded through GST_PLUGIN_PATH: the working fake is listed as
/// hardware that works and is auto's choice, the broken one as hardware that does not work
/// (with GStreamer's reason) and is tried first, x264enc as software that works.
@Suite struct EncodersCommandTests {
    func encoders(_ lines: [[String: Any]], codec: String) -> [[String: Any]] {
        lines.filter { $0["codec"] as? String == codec }
    }

    func line(_ lines: [[String: Any]], _ factory: String, codec: String = "h264") throws -> [String: Any] {
        try #require(lines.first { $0["factory"] as? String == factory && $0["codec"] as? String == codec },
                     "\(factory) is not listed: \(lines.map { $0["factory"] as? String ?? "?" })")
    }

    @Test func jsonListsTheFakeHardwareEncodersAndX264WithWhetherEachWorks() throws {
        let result = try CamrecBinary.run(["encoders", "--json"], environment: FakeHardwareEncoder.environment(), timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        // Only encoder lines, one per line of stdout.
        #expect(!lines.isEmpty && lines.allSatisfy { $0["type"] as? String == "encoder" })
        #expect(lines.count == result.stdoutText.split(separator: "\n").count)

        let working = try line(lines, FakeHardwareEncoder.working)
        #expect(working["hardware"] as? Bool == true && working["works"] as? Bool == true && working["auto"] as? Bool == true, "\(working)")
        #expect(working["reason"] == nil && working["plugin"] as? String == "fakehwenc" && working["rank"] as? Int == 0)

        let broken = try line(lines, FakeHardwareEncoder.broken)
        #expect(broken["hardware"] as? Bool == true && broken["works"] as? Bool == false && broken["auto"] as? Bool == false, "\(broken)")
        #expect((broken["reason"] as? String ?? "").hasPrefix("no device"), "\(broken)")

        let x264 = try line(lines, "x264enc")
        #expect(x264["hardware"] as? Bool == false && x264["works"] as? Bool == true && x264["auto"] as? Bool == false, "\(x264)")
        #expect(x264["long_name"] as? String == "x264 H.264 Encoder" && x264["plugin"] as? String == "x264")

        // H.264's in auto's order: the broken fake (tried first), the working one, then x264enc.
        let h264 = encoders(lines, codec: "h264").compactMap { $0["factory"] as? String }
        #expect(Array(h264.prefix(3)) == [FakeHardwareEncoder.broken, FakeHardwareEncoder.working, "x264enc"], "\(h264)")
        // One choice of auto per codec; Motion JPEG's is jpegenc.
        for codec in ["h264", "h265", "mjpeg"] {
            #expect(encoders(lines, codec: codec).filter { $0["auto"] as? Bool == true }.count == 1, "\(codec)")
        }
        let jpeg = try line(lines, "jpegenc", codec: "mjpeg")
        #expect(jpeg["hardware"] as? Bool == false && jpeg["works"] as? Bool == true && jpeg["auto"] as? Bool == true, "\(jpeg)")
    }

    @Test func withoutHardwareX264IsAutosChoice() throws {
        let result = try CamrecBinary.run(["encoders", "--json"], timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        #expect(!lines.contains { $0["hardware"] as? Bool == true }, "this machine has no hardware encoder")
        let x264 = try line(lines, "x264enc")
        #expect(x264["works"] as? Bool == true && x264["auto"] as? Bool == true, "\(x264)")
    }

    @Test func humanOutputHasOneLinePerEncoder() throws {
        let result = try CamrecBinary.run(["encoders"], environment: FakeHardwareEncoder.environment(), timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let working = try #require(lines.first { $0.contains(FakeHardwareEncoder.working) }, "\(result.stdoutText)")
        #expect(working.hasPrefix("h264 ") && working.contains(" hardware ") && working.hasSuffix("works  (auto's choice)"), "\(working)")
        let broken = try #require(lines.first { $0.contains(FakeHardwareEncoder.broken) })
        #expect(broken.contains(" hardware ") && broken.contains("does not work: no device"), "\(broken)")
        let x264 = try #require(lines.first { $0.contains(" x264enc ") })
        #expect(x264.contains(" software ") && x264.hasSuffix("works"), "\(x264)")
    }

    @Test func noTrialOnlyLists() throws {
        let result = try CamrecBinary.run(["encoders", "--json", "--no-trial"], environment: FakeHardwareEncoder.environment())
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let broken = try line(lines, FakeHardwareEncoder.broken)
        #expect(broken["hardware"] as? Bool == true)
        #expect(lines.allSatisfy { $0["works"] == nil && $0["auto"] == nil && $0["reason"] == nil })
    }

    @Test func anArgumentIsAUsageError() throws {
        let result = try CamrecBinary.run(["encoders", "x264enc"])
        #expect(result.status == 64, "\(result.stderr)")
    }
}
