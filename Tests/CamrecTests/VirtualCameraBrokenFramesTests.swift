import Foundation
import Testing

extension VirtualCameraTests {
    /// `empty=every:N` and `corrupt=every:N`, read back twice: by a V4L2 program of our own
    /// (what the device delivers) and by v4l2src (what a GStreamer application gets).
    @Suite("VirtualCamera: broken frames")
    struct BrokenFrames: VirtualCameraHarness {
        /// One dequeued buffer as the capture program printed it.
        struct Buffer: Sendable, CustomStringConvertible {
            var sequence: Int
            var bytesused: Int
            var flags: UInt32
            /// Microseconds on CLOCK_MONOTONIC.
            var timestamp: Int64
            var description: String { "seq \(sequence): \(bytesused) bytes, flags 0x\(String(flags, radix: 16))" }
        }

        static let flagKeyframe: UInt32 = 0x8, flagError: UInt32 = 0x40

        @Test("empty=every:4: sequence numbers 3, 7, 11 … arrive with bytesused 0, their own timestamp and no flag",
              arguments: ["YUYV", "MJPG", "H264"])
        func emptyAtTheDevice(fourcc: String) throws {
            try withScratch { dir in
                let (buffers, _) = try capture(fourcc, spec: "/dev/video0,empty=every:4", count: 12, in: dir)
                for buffer in buffers {
                    #expect((buffer.sequence % 4 == 3) == (buffer.bytesused == 0), "\(buffer)")
                    if buffer.bytesused == 0 {
                        #expect(buffer.flags & (Self.flagError | Self.flagKeyframe) == 0, "\(buffer)")
                    }
                }
                #expect(buffers.filter { $0.bytesused == 0 }.count >= 2, "\(buffers)")
                // timestamps are the frames' due times: 1/30 s per sequence number, empty or not
                let first = try #require(buffers.first)
                for buffer in buffers.dropFirst() {
                    let expected = Double(buffer.sequence - first.sequence) * 1_000_000 / 30
                    #expect(abs(Double(buffer.timestamp - first.timestamp) - expected) < 2, "\(buffer)")
                }
            }
        }

        struct V4l2srcCase: Sendable, CustomStringConvertible {
            let caps: String
            /// true: v4l2src pushes the empty buffer downstream; false: it drops it
            let passesEmptyBuffers: Bool
            var description: String { caps }
        }

        @Test("what v4l2src 1.22 does with bytesused 0: pushes a 0-byte buffer (MJPEG, H.264), drops it as truncated (YUYV)",
              arguments: [
                  V4l2srcCase(caps: "image/jpeg,width=640,height=480", passesEmptyBuffers: true),
                  V4l2srcCase(caps: "video/x-h264,width=640,height=480", passesEmptyBuffers: true),
                  V4l2srcCase(caps: "video/x-raw,format=YUY2,width=640,height=480", passesEmptyBuffers: false),
              ])
        func emptyThroughV4l2src(_ test: V4l2srcCase) throws {
            let run = try gst("v4l2src device=/dev/video0 num-buffers=16 ! \(test.caps) ! fakesink silent=false",
                              spec: "/dev/video0,empty=every:4", verbose: true,
                              extra: ["GST_DEBUG": "v4l2src:2,v4l2bufferpool:2", "GST_DEBUG_NO_COLOR": "1"])
            try expectSuccess(run)
            let pushed = fakesinkBuffers(run.stdoutText)
            try #require(pushed.count == 16, "\(run.stdoutText)")
            // v4l2src 1.22 numbers the first buffer 0 and every later one sequence + 1
            #expect(pushed[0].offset == 0)
            let later = pushed.dropFirst().map { (sequence: $0.offset - 1, size: $0.size) }
            if test.passesEmptyBuffers {
                for buffer in later {
                    #expect((buffer.sequence % 4 == 3) == (buffer.size == 0), "\(later)")
                }
                #expect(later.contains { $0.size == 0 }, "\(later)")
                #expect(!run.stderr.contains("Dropping truncated buffer"), "\(run.stderr)")
            } else {
                #expect(later.allSatisfy { $0.sequence % 4 != 3 && $0.size == 640 * 480 * 2 }, "\(later)")
                #expect(run.stderr.contains("Dropping truncated buffer, this is likely a driver bug."), "\(run.stderr)")
                #expect(run.stderr.contains("lost frames detected: count = 1"), "\(run.stderr)")
            }
        }

        @Test("corrupt=every:3: MJPEG frames 2, 5, 8 … are cut half-way through the scan and padded with garbage to full size; the stamp survives; v4l2src passes them on unchanged")
        func corruptFrames() throws {
            try withScratch { dir in
                let brokenDir = dir.appendingPathComponent("broken"), wholeDir = dir.appendingPathComponent("whole")
                for folder in [brokenDir, wholeDir] {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
                // frames are the same bytes in every run, so a run without corrupt= is the reference
                let (broken, _) = try capture("MJPG", spec: "/dev/video0,corrupt=every:3", count: 12, in: brokenDir)
                let (whole, _) = try capture("MJPG", spec: "/dev/video0", count: 12, in: wholeDir)
                let wholeSequences = Set(whole.map(\.sequence))
                var cut = 0
                for buffer in broken where wholeSequences.contains(buffer.sequence) {
                    let data = try Data(contentsOf: brokenDir.appendingPathComponent("\(buffer.sequence).bin"))
                    let good = try Data(contentsOf: wholeDir.appendingPathComponent("\(buffer.sequence).bin"))
                    #expect(good.suffix(2) == Data([0xFF, 0xD9]), "\(buffer): the reference ends with EOI")
                    #expect(buffer.flags & Self.flagKeyframe != 0, "\(buffer)")
                    guard buffer.sequence % 3 == 2 else {
                        #expect(data == good, "\(buffer) is whole")
                        continue
                    }
                    cut += 1
                    #expect(data.count == good.count, "\(buffer): bytesused covers the garbage, the size of the whole frame")
                    let kept = zip(data, good).prefix { $0 == $1 }.count
                    #expect(kept > good.count / 3 && kept < good.count * 2 / 3, "\(buffer): cut at \(kept) of \(good.count)")
                    #expect(!data.dropFirst(kept).contains(0xFF), "\(buffer): the garbage holds no marker, no EOI")
                    let image = dir.appendingPathComponent("cut-\(buffer.sequence).jpg")
                    try data.write(to: image)
                    #expect(try FrameStampReader.sequence(inImage: image) == UInt32(buffer.sequence))
                }
                #expect(cut >= 2, "\(broken)")

                let run = try gst("v4l2src device=/dev/video0 num-buffers=12 ! image/jpeg,width=640,height=480 ! multifilesink location=\(dir.path)/gst-%02d.jpg",
                                  spec: "/dev/video0,corrupt=every:3")
                try expectSuccess(run)
                let captured = Set(broken.map(\.sequence))
                var passedOn = 0
                for index in 0..<12 {
                    let file = dir.appendingPathComponent(String(format: "gst-%02d.jpg", index))
                    let sequence = try #require(try FrameStampReader.sequence(inImage: file), "\(file.lastPathComponent)")
                    guard captured.contains(Int(sequence)) else { continue }
                    let reference = try Data(contentsOf: brokenDir.appendingPathComponent("\(sequence).bin"))
                    #expect(try Data(contentsOf: file) == reference, "v4l2src's buffer for frame \(sequence)")
                    if sequence % 3 == 2 { passedOn += 1 }
                }
                #expect(passedOn >= 2)
            }
        }

        @Test("corrupt= leaves other formats whole and says so once per device; a bad every:N value is reported and ignored")
        func corruptOnlyForMJPEG() throws {
            try withScratch { dir in
                let (buffers, stderr) = try capture("YUYV", spec: "/dev/video0,corrupt=every:3,empty=every:0", count: 6,
                                                    rounds: 2, in: dir)
                #expect(buffers.count == 12)
                #expect(buffers.allSatisfy { $0.bytesused == 640 * 480 * 2 }, "\(buffers)")
                let note = "camrec VirtualCamera: /dev/video0: corrupt= applies to MJPEG only; YUYV frames are delivered whole"
                #expect(stderr.components(separatedBy: note).count == 2, "\(stderr)")
                #expect(stderr.contains("camrec VirtualCamera: ignoring bad value 'empty=every:0' in CAMREC_VCAM"), "\(stderr)")
            }
        }

        // MARK: helpers

        /// Streams `count` buffers 640x480 (`rounds` times, STREAMOFF in between) with our own
        /// V4L2 program; each buffer's bytes are left in `dir` as SEQUENCE.bin.
        private func capture(_ fourcc: String, spec: String, count: Int, rounds: Int = 1, in dir: URL) throws
            -> (buffers: [Buffer], stderr: String) {
            let program = try compileC(CaptureProbe.text, named: "capture", in: dir)
            let run = try ChildProcess.run(program, ["/dev/video0", fourcc, "640", "480", "\(count)", dir.path, "\(rounds)"],
                                           environment: try env(spec: spec), timeout: 120)
            let lines = run.stdoutText.split(whereSeparator: \.isNewline)
            try #require(run.status == 0 && !run.timedOut && lines.last == "done",
                         "exit \(run.status): \(run.stdoutText)\(run.stderr)")
            let buffers = lines.compactMap { line -> Buffer? in
                let fields = line.split(separator: " ")
                guard fields.count == 5, fields[0] == "buffer", let sequence = Int(fields[1]),
                      let bytesused = Int(fields[2]), let flags = UInt32(fields[3].dropFirst(2), radix: 16),
                      let timestamp = Int64(fields[4]) else { return nil }
                return Buffer(sequence: sequence, bytesused: bytesused, flags: flags, timestamp: timestamp)
            }
            try #require(buffers.count == count * rounds, "\(run.stdoutText)")
            return (buffers, run.stderr)
        }

        /// Size and offset of every buffer fakesink got, from its `last-message` under `gst-launch-1.0 -v`.
        private func fakesinkBuffers(_ log: String) -> [(size: Int, offset: Int)] {
            log.split(whereSeparator: \.isNewline).compactMap { line in
                guard let match = line.firstMatch(of: #/chain +\*+ \(fakesink0:sink\) \((\d+) bytes, .*? offset: (\d+),/#),
                      let size = Int(match.1), let offset = Int(match.2) else { return nil }
                return (size, offset)
            }
        }
    }
}

/// `capture DEVICE FOURCC WIDTH HEIGHT COUNT DIR [ROUNDS]`: sets the format, maps 8 buffers,
/// streams COUNT buffers ROUNDS times and prints "buffer SEQUENCE BYTESUSED FLAGS TIMESTAMP_US"
/// for each, leaving its bytes in DIR/SEQUENCE.bin; "done" at the end, "FAIL ..." on an error.
private enum CaptureProbe {
    static let text = #"""
    #define _GNU_SOURCE
    #include <errno.h>
    #include <fcntl.h>
    #include <linux/videodev2.h>
    #include <poll.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ioctl.h>
    #include <sys/mman.h>
    #include <unistd.h>

    #define NBUF 8

    static int fail(const char *what) {
        printf("FAIL %s (errno %d %s)\n", what, errno, strerror(errno));
        return 1;
    }

    int main(int argc, char **argv) {
        setvbuf(stdout, NULL, _IONBF, 0);
        if (argc != 7 && argc != 8) return 64;
        int rounds = argc == 8 ? atoi(argv[7]) : 1;
        const char *dev = argv[1], *fourcc = argv[2], *outdir = argv[6];
        int count = atoi(argv[5]);
        int fd = open(dev, O_RDWR);
        if (fd < 0) return fail("open");
        struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        f.fmt.pix.width = (unsigned)atoi(argv[3]);
        f.fmt.pix.height = (unsigned)atoi(argv[4]);
        f.fmt.pix.pixelformat = v4l2_fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
        if (ioctl(fd, VIDIOC_S_FMT, &f) != 0 || f.fmt.pix.pixelformat != v4l2_fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]))
            return fail("S_FMT");
        struct v4l2_requestbuffers rb = {.count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        if (ioctl(fd, VIDIOC_REQBUFS, &rb) != 0 || rb.count > NBUF) return fail("REQBUFS");
        void *maps[NBUF];
        for (unsigned i = 0; i < rb.count; i++) {
            struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
            if (ioctl(fd, VIDIOC_QUERYBUF, &b) != 0) return fail("QUERYBUF");
            maps[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd, b.m.offset);
            if (maps[i] == MAP_FAILED) return fail("mmap");
            if (ioctl(fd, VIDIOC_QBUF, &b) != 0) return fail("QBUF");
        }
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        for (int round = 0; round < rounds; round++) {
            if (round > 0) /* STREAMOFF returned every buffer */
                for (unsigned i = 0; i < rb.count; i++) {
                    struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
                    if (ioctl(fd, VIDIOC_QBUF, &b) != 0) return fail("QBUF after STREAMOFF");
                }
            if (ioctl(fd, VIDIOC_STREAMON, &type) != 0) return fail("STREAMON");
            for (int n = 0; n < count; n++) {
                struct pollfd p = {.fd = fd, .events = POLLIN};
                int rc = poll(&p, 1, 30000); /* a bound for a stuck stream, not a pace */
                if (rc != 1 || !(p.revents & POLLIN) || (p.revents & POLLERR)) return fail("poll");
                struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
                if (ioctl(fd, VIDIOC_DQBUF, &b) != 0) return fail("DQBUF");
                char path[4096];
                snprintf(path, sizeof path, "%s/%u.bin", outdir, b.sequence);
                FILE *out = fopen(path, "wb");
                if (!out || fwrite(maps[b.index], 1, b.bytesused, out) != b.bytesused || fclose(out) != 0)
                    return fail("write");
                printf("buffer %u %u 0x%x %lld\n", b.sequence, b.bytesused, b.flags,
                       (long long)b.timestamp.tv_sec * 1000000 + b.timestamp.tv_usec);
                if (ioctl(fd, VIDIOC_QBUF, &b) != 0) return fail("QBUF again");
            }
            if (ioctl(fd, VIDIOC_STREAMOFF, &type) != 0) return fail("STREAMOFF");
        }
        close(fd);
        printf("done\n");
        return 0;
    }
    """#
}
