@testable import CamrecKit
import Foundation
import Synchronization
import Testing

/// What replaced full Foundation in camrec's sources (issue 14 point 5): the same results as
/// the NSString, String(format:), Thread and NSCondition they stand in for, and a guard that
/// keeps full Foundation out of the release binary.
@Suite struct EssentialsTests {
    /// NSString's documented results (its own methods trap on some of these paths in this
    /// toolchain's Foundation, e.g. deletingLastPathComponent of "b", so they are written out):
    /// path → last component, folder, extension, without extension.
    @Test(arguments: [
        ("/a/b.mp4", "b.mp4", "/a", "mp4", "/a/b"),
        ("b.mp4", "b.mp4", "", "mp4", "b"),
        ("a/b", "b", "a", "", "a/b"),
        ("/a/b/", "b", "/a", "", "/a/b"),
        ("/", "/", "/", "", "/"),
        ("b", "b", "", "", "b"),
        (".hidden", ".hidden", "", "", ".hidden"),
        ("a/.hidden", ".hidden", "a", "", "a/.hidden"),
        ("a.b/c", "c", "a.b", "", "a.b/c"),
        ("/b.mp4", "b.mp4", "/", "mp4", "/b"),
        ("x.tar.gz", "x.tar.gz", "", "gz", "x.tar"),
    ])
    func pathNameAsNSString(_ row: (String, String, String, String, String)) {
        let (path, last, folder, ext, stem) = row
        #expect(PathName.last(path) == last)
        #expect(PathName.deletingLast(path) == folder)
        #expect(PathName.pathExtension(path) == ext)
        #expect(PathName.deletingExtension(path) == stem)
    }

    /// The empty path (NSString's own lastPathComponent traps on it in this toolchain's Foundation).
    @Test func pathNameOfNothing() {
        #expect(PathName.last("") == "")
        #expect(PathName.deletingLast("") == "")
        #expect(PathName.pathExtension("") == "")
        #expect(PathName.deletingExtension("") == "")
    }

    @Test func pathNameAppending() {
        #expect(PathName.appending("a", "b.mp4") == "a/b.mp4")
        #expect(PathName.appending("a/", "b.mp4") == "a/b.mp4")
        #expect(PathName.appending("", "b.mp4") == "b.mp4")
        #expect(PathName.appending("/", "b.mp4") == "/b.mp4")
    }

    @Test func cFormatMatchesStringFormat() {
        #expect(String(cFormat: "%.3f s", 1.23456) == String(format: "%.3f s", 1.23456))
        #expect(String(cFormat: "%02ld:%02ld:%02ld", 1, 2, 3) == "01:02:03")
        #expect(String(cFormat: ".%03ld", 5) == ".005")
        #expect(String(cFormat: "%.1f MB", 3.45) == String(format: "%.1f MB", 3.45))
        let long = String(repeating: "x", count: 400)
        #expect(String(cFormat: long + "%ld", 7) == long + "7")
    }

    @Test func trimmingWhitespace() {
        #expect("  still \n".trimmingWhitespace == "still")
        #expect("\t\n".trimmingWhitespace == "")
        #expect("a b".trimmingWhitespace == "a b")
    }

    @Test func namedThreadRunsWithItsName() {
        let seen = Mutex<String?>(nil)
        let done = ThreadCondition()
        NamedThread.start("camrec-test-thread-long-name") {
            var name = [CChar](repeating: 0, count: 32)
            let handle = pthread_self()
            typealias GetName = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>, Int) -> Int32
            if let get = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getname_np") {
                _ = unsafeBitCast(get, to: GetName.self)(handle, &name, name.count)
            }
            done.withLock {
                seen.withLock { $0 = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
                done.broadcast()
            }
        }
        done.withLock {
            let deadline = ContinuousClock.now + .seconds(5)
            while seen.withLock({ $0 }) == nil && ContinuousClock.now < deadline { done.wait(seconds: 0.1) }
        }
        // The kernel keeps 15 bytes of a thread's name.
        #expect(seen.withLock { $0 } == "camrec-test-thr")
    }

    @Test func conditionWaitTimesOut() {
        let condition = ThreadCondition()
        let start = ContinuousClock.now
        let signalled = condition.withLock { condition.wait(seconds: 0.05) }
        #expect(!signalled)
        #expect(ContinuousClock.now - start >= .milliseconds(45))
        let dated = condition.withLock { condition.wait(until: Date().addingTimeInterval(0.02)) }
        #expect(!dated)
    }

    /// One `import Foundation` anywhere in the sources links all of Foundation, CoreFoundation and
    /// ICU into the release binary again, with their start-up and megabytes of resident memory
    /// (BENCHMARKS.md section 5): sources import FoundationEssentials (tests may use Foundation).
    @Test func sourcesDoNotImportFullFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "import" || (words.first == "@_exported" && words.dropFirst().first == "import"),
                   let module = words.last, ["Foundation", "FoundationNetworking", "FoundationXML"].contains(module) {
                    offenders.append(file)
                }
            }
        }
        #expect(offenders.isEmpty, "import FoundationEssentials instead of Foundation in \(offenders)")
    }
}
