import Foundation
import Testing

/// The emulated camera against the real consumers: GStreamer's v4l2src and FFmpeg's v4l2
/// input, run as child processes with the library preloaded (never this test process).
@Suite("VirtualCamera", .serialized)
struct VirtualCameraTests: VirtualCameraHarness {
    // MARK: v4l2src, one test per camera format

    @Test("v4l2src records YUYV 640x480@30: 90 paced frames stamped 0..89")
    func gstreamerYUYV() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("yuyv.mp4")
            // overrun=wait: a loaded machine that requeues a buffer late delays a frame, never loses it.
            let run = try gst("v4l2src device=/dev/video0 num-buffers=90 ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! videoconvert ! x264enc speed-preset=ultrafast ! mp4mux ! filesink location=\(out.path)", spec: "/dev/video0,overrun=wait")
            try expectSuccess(run)
            #expect(try frameCount(out) == 90)
            try expectStamps(out, (0..<90).map { UInt32($0) })
            // the 90th frame is due 3 s after STREAMON: an unpaced producer finishes far sooner
            #expect(run.seconds >= 2.9, "took \(run.seconds) s")
            #expect(run.seconds < 15, "took \(run.seconds) s")
        }
    }

    @Test("v4l2src records MJPEG 1920x1080@30: real JPEG frames stamped 0..89")
    func gstreamerMJPEG() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("mjpeg.mkv")
            let run = try gst("v4l2src device=/dev/video0 num-buffers=90 ! image/jpeg,width=1920,height=1080,framerate=30/1 ! jpegparse ! matroskamux ! filesink location=\(out.path)", spec: "/dev/video0,overrun=wait")
            try expectSuccess(run)
            #expect(try probe(out, "stream=codec_name,width,height") == "mjpeg,1920,1080")
            #expect(try frameCount(out) == 90)
            #expect(try decodeErrors(out) == "")
            try expectStamps(out, (0..<90).map { UInt32($0) })
            #expect(run.seconds >= 2.9, "took \(run.seconds) s")
        }
    }

    @Test("v4l2src records H.264 1280x720@30: IDR every second, stamped 0..89")
    func gstreamerH264() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("h264.mp4")
            let run = try gst("v4l2src device=/dev/video0 num-buffers=90 ! video/x-h264,width=1280,height=720,framerate=30/1 ! h264parse ! mp4mux ! filesink location=\(out.path)", spec: "/dev/video0,overrun=wait")
            try expectSuccess(run)
            #expect(try probe(out, "stream=codec_name,width,height") == "h264,1280,720")
            #expect(try frameCount(out) == 90)
            #expect(try decodeErrors(out) == "")
            try expectStamps(out, (0..<90).map { UInt32($0) })
            let keyframes = try ChildProcess.run(
                "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                            "-of", "csv=p=0", out.path]).stdoutText
                .split(whereSeparator: \.isNewline).enumerated().filter { $0.element.hasPrefix("K") }.map(\.offset)
            #expect(keyframes == [0, 30, 60])
            #expect(run.seconds >= 2.9, "took \(run.seconds) s")
        }
    }

    // MARK: ffmpeg -f v4l2

    @Test("ffmpeg -f v4l2 reads every input format", arguments: ["yuyv422", "mjpeg", "h264"])
    func ffmpegInput(format: String) throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("ffmpeg-\(format).mkv")
            let codec = format == "yuyv422" ? ["-c:v", "libx264", "-preset", "ultrafast"] : ["-c:v", "copy"]
            let run = try ChildProcess.run(
                "ffmpeg",
                ["-v", "error", "-f", "v4l2", "-input_format", format, "-video_size", "640x480", "-framerate", "30",
                 "-i", "/dev/video0", "-frames:v", "60"] + codec + [out.path],
                environment: try env([VirtualCameraDevice()]), timeout: 60)
            try expectSuccess(run)
            #expect(try frameCount(out) == 60)
            try expectStamps(out, (0..<60).map { UInt32($0) })
        }
    }

    // MARK: faults

    @Test("each fault mode gives v4l2src's error for it", arguments: [
        ("unplug@30", "Could not read from resource", ""),
        ("ebusy", "Could not open device '/dev/video0' for reading and writing", "Device or resource busy"),
        ("eacces", "Could not open device '/dev/video0' for reading and writing", "Permission denied"),
        ("enoent", "Cannot identify device '/dev/video0'", "No such file or directory"),
    ])
    func faults(fault: String, message: String, debug: String) throws {
        let run = try gst("v4l2src device=/dev/video0 num-buffers=90 ! video/x-raw,width=640,height=480 ! fakesink",
                          devices: [VirtualCameraDevice(fault: fault)])
        #expect(run.status != 0)
        #expect(!run.timedOut)
        let log = run.stdoutText + run.stderr
        #expect(log.contains(message), "\(log)")
        if !debug.isEmpty { #expect(log.contains(debug), "\(log)") }
    }

    @Test("an encoder that cannot start fails the stream visibly: POLLERR for v4l2src, EIO from DQBUF for ffmpeg")
    func encoderFailsToStart() throws {
        try withScratch { dir in
            // a library preloaded in front of ours whose encoder constructors fail
            let failing = try compileC(#"""
                #include <stddef.h>
                #include <stdint.h>
                #include <x264.h>
                void *tjInitCompress(void) { return NULL; }
                x264_t *x264_encoder_open(x264_param_t *param) { (void)param; return NULL; }
                """#, named: "encoders-fail.so", in: dir, flags: ["-shared", "-fPIC"])
            var environment = try env(spec: "/dev/video0")
            environment["LD_PRELOAD"] = "\(failing) \(environment["LD_PRELOAD"] ?? "")"

            let gst = try ChildProcess.run(
                "gst-launch-1.0", ["v4l2src", "device=/dev/video0", "num-buffers=5", "!", "image/jpeg,width=640,height=480",
                                   "!", "fakesink"], environment: environment, timeout: 60)
            #expect(gst.status != 0 && !gst.timedOut, "exit \(gst.status): \(gst.stderr)")
            #expect((gst.stdoutText + gst.stderr).contains("Could not read from resource"), "\(gst.stderr)")
            #expect(gst.stderr.contains("camrec VirtualCamera: /dev/video0: cannot stream MJPEG 640x480: the MJPEG encoder (libturbojpeg) did not start"), "\(gst.stderr)")

            let ffmpeg = try ChildProcess.run(
                "ffmpeg", ["-v", "error", "-f", "v4l2", "-input_format", "h264", "-video_size", "640x480",
                           "-i", "/dev/video0", "-frames:v", "5", "-f", "null", "-"], environment: environment, timeout: 60)
            #expect(ffmpeg.status != 0 && !ffmpeg.timedOut, "exit \(ffmpeg.status): \(ffmpeg.stderr)")
            #expect(ffmpeg.stderr.contains("ioctl(VIDIOC_DQBUF): Input/output error"), "\(ffmpeg.stderr)")
            #expect(ffmpeg.stderr.contains("the H.264 encoder (libx264) did not start"), "\(ffmpeg.stderr)")
        }
    }

    @Test("a bad formats= value is reported and the device keeps the default formats",
          arguments: ["bogus", "yuyv+bogus"])
    func badFormats(value: String) throws {
        // H.264 is the last default format: offered only if the whole value was ignored
        let run = try gst("v4l2src device=/dev/video0 num-buffers=2 ! video/x-h264,width=640,height=480 ! fakesink",
                          spec: "/dev/video0,formats=\(value)")
        try expectSuccess(run)
        #expect(run.stderr.contains("camrec VirtualCamera: ignoring bad value 'formats=\(value)'"), "\(run.stderr)")
    }

    @Test("drop=every:10 loses every 10th sequence number")
    func droppedFrames() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("drop.mkv")
            try expectSuccess(try gst("v4l2src device=/dev/video0 num-buffers=27 ! image/jpeg,width=640,height=480,framerate=30/1 ! jpegparse ! matroskamux ! filesink location=\(out.path)",
                                      devices: [VirtualCameraDevice(dropEvery: 10, waitOnOverrun: true)]))
            let expected = (0..<30).filter { ($0 + 1) % 10 != 0 }.map { UInt32($0) }
            try expectStamps(out, expected)
        }
    }

    /// A consumer that holds every buffer 100 ms starves a 30 fps camera: by default the
    /// frames due meanwhile are lost, as on real hardware; with overrun=wait each waits.
    @Test("overrun=drop loses the frames a slow consumer misses; overrun=wait delays them", arguments: [false, true])
    func overrun(wait: Bool) throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("overrun.mkv")
            try expectSuccess(try gst("v4l2src device=/dev/video0 num-buffers=15 ! image/jpeg,width=640,height=480,framerate=30/1 ! identity sleep-time=100000 ! jpegparse ! matroskamux ! filesink location=\(out.path)",
                                      devices: [VirtualCameraDevice(waitOnOverrun: wait)]))
            if wait {
                try expectStamps(out, (0..<15).map { UInt32($0) })
            } else {
                let stamps = try FrameStampReader.sequences(inVideo: out).compactMap { $0 }
                #expect(stamps.count == 15)
                #expect((stamps.last ?? 0) > 20, "a starved camera loses frames: \(stamps)")
            }
        }
    }

    @Test("slow=every:10:200ms stalls the stream before frames 9 and 19")
    func lateFrames() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("slow.mkv")
            try expectSuccess(try gst("v4l2src device=/dev/video0 num-buffers=25 ! image/jpeg,width=640,height=480,framerate=30/1 ! jpegparse ! matroskamux ! filesink location=\(out.path)",
                                      devices: [VirtualCameraDevice(slow: "every:10:200ms", waitOnOverrun: true)]))
            try expectStamps(out, (0..<25).map { UInt32($0) })
            let times = try frameTimes(out)
            try #require(times.count == 25)
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            for (index, gap) in gaps.enumerated() {
                if index == 8 || index == 18 { // the gap before frame 9 and frame 19
                    #expect(gap > 0.2, "gap before frame \(index + 1): \(gap)")
                } else {
                    #expect(abs(gap - 1.0 / 30) < 0.02, "gap before frame \(index + 1): \(gap)")
                }
            }
        }
    }

    @Test("dark=20 ramps up from black; the brightness control changes the picture")
    func exposureAndBrightness() throws {
        try withScratch { dir in
            let out = dir.appendingPathComponent("dark.mkv")
            try expectSuccess(try gst("v4l2src device=/dev/video0 num-buffers=25 ! image/jpeg,width=640,height=480,framerate=30/1 ! jpegparse ! matroskamux ! filesink location=\(out.path)",
                                      devices: [VirtualCameraDevice(darkFrames: 20, waitOnOverrun: true)]))
            let means = try meanLuma(out)
            try #require(means.count == 25)
            #expect(means[0] < 25, "\(means)")
            #expect(means[10] > means[0] + 20, "\(means)")
            #expect(means[24] > 90, "\(means)")
            #expect(zip(means.dropFirst(), means).prefix(19).allSatisfy { $0 >= $1 - 1 }, "\(means)")

            var brightness: [Double] = []
            for value in [-64, 64] {
                let still = dir.appendingPathComponent("b\(value).png")
                try expectSuccess(try gst("v4l2src device=/dev/video0 num-buffers=1 extra-controls=c,brightness=\(value) ! video/x-raw,width=640,height=480 ! videoconvert ! pngenc ! filesink location=\(still.path)"))
                brightness.append(try meanLuma(still).first ?? 0)
                #expect(try FrameStampReader.sequence(inImage: still) == 0)
            }
            #expect(brightness[1] > brightness[0] + 80, "\(brightness)")
        }
    }

    // MARK: interposition

    @Test("dup/fcntl/dup2/close, stat, poll and the V4L2 calls behave like a real device")
    func descriptorSemantics() throws {
        try withScratch { dir in
            let probe = try compileC(ProbeSource.text, named: "probe", in: dir)
            let regular = dir.appendingPathComponent("regular.txt").path
            let run = try ChildProcess.run(probe, ["/dev/video7", regular],
                                           environment: try env([VirtualCameraDevice(path: "/dev/video7")]))
            let lines = run.stdoutText.split(whereSeparator: \.isNewline).map(String.init)
            #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
            #expect(lines.filter { $0.hasPrefix("FAIL") } == [])
            #expect(lines.filter { $0.hasPrefix("ok ") }.count == ProbeSource.checkCount, "\(lines)")
            #expect(lines.last == "done")
        }
    }

    @Test("a process that never opens a configured path is unaffected")
    func unrelatedProcessUnaffected() throws {
        let args = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=1",
                    "-c:v", "rawvideo", "-f", "framemd5", "-"]
        let plain = try ChildProcess.run("ffmpeg", args)
        let preloaded = try ChildProcess.run("ffmpeg", args, environment: try env([VirtualCameraDevice()]))
        try expectSuccess(plain)
        try expectSuccess(preloaded)
        #expect(preloaded.stdout == plain.stdout)
        #expect(preloaded.stderr == plain.stderr)
        #expect(plain.stdout.count > 100)
    }

    // MARK: helpers

    private func probe(_ url: URL, _ entries: String) throws -> String {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                   entries, "-of", "csv=p=0", url.path])
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func frameCount(_ url: URL) throws -> Int? {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                   "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                   url.path])
        return Int(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func decodeErrors(_ url: URL) throws -> String {
        let run = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
        return run.status == 0 ? run.stderr : "exit \(run.status): \(run.stderr)"
    }

    private func frameTimes(_ url: URL) throws -> [Double] {
        try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                         "frame=pts_time", "-of", "csv=p=0", url.path])
            .stdoutText.split(whereSeparator: \.isNewline).compactMap { Double($0) }
    }

    /// Mean luma of each frame below the stamp band (0...255).
    private func meanLuma(_ url: URL) throws -> [Double] {
        let (width, height) = try FrameStampReader.dimensions(of: url)
        let band = FrameStampReader.blockSize(forWidth: width)
        let run = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", url.path, "-vf",
                                                  "format=gray,crop=\(width):\(height - band):0:\(band)", "-fps_mode",
                                                  "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        try #require(run.status == 0, "\(run.stderr)")
        let size = width * (height - band)
        let bytes = [UInt8](run.stdout)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            Double(bytes[start..<start + size].reduce(0) { $0 + Int($1) }) / Double(size)
        }
    }
}

/// A small C program that exercises the interposed calls directly, as no GStreamer
/// pipeline does all of them. Each check prints "ok NAME" or "FAIL NAME".
private enum ProbeSource {
    /// The number of check() calls in `text`.
    static let checkCount = text.components(separatedBy: "check(").count - 2

    static let text = #"""
    #define _GNU_SOURCE
    #include <errno.h>
    #include <fcntl.h>
    #include <linux/videodev2.h>
    #include <poll.h>
    #include <signal.h>
    #include <stdio.h>
    #include <string.h>
    #include <sys/ioctl.h>
    #include <sys/mman.h>
    #include <sys/stat.h>
    #include <sys/sysmacros.h>
    #include <sys/wait.h>
    #include <unistd.h>

    static void check(int ok, const char *name) {
        if (ok) printf("ok %s\n", name); else printf("FAIL %s (errno %d %s)\n", name, errno, strerror(errno));
    }
    static int querycap(int fd) { struct v4l2_capability c; return ioctl(fd, VIDIOC_QUERYCAP, &c); }

    int main(int argc, char **argv) {
        const char *dev = argv[1], *regular = argv[2];
        setvbuf(stdout, NULL, _IONBF, 0); /* every line reaches the test, even after a crash */
        struct stat st;
        check(stat(dev, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 81, "stat is a V4L2 char device");
        check(access(dev, R_OK | W_OK) == 0, "access");
        check(stat("/dev/video-not-configured-xyz", &st) == -1 && errno == ENOENT, "stat of other paths untouched");
        int fd = open(dev, O_RDWR | O_CLOEXEC);
        check(fd >= 0, "open");
        struct v4l2_capability cap;
        check(ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 && (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE)
              && (cap.device_caps & V4L2_CAP_STREAMING), "QUERYCAP");
        check(fstat(fd, &st) == 0 && S_ISCHR(st.st_mode), "fstat is a char device");
        int n = 0; struct v4l2_fmtdesc fd_ = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        for (fd_.index = 0; ioctl(fd, VIDIOC_ENUM_FMT, &fd_) == 0; fd_.index++) n++;
        check(n == 3 && errno == EINVAL, "ENUM_FMT lists 3 formats then EINVAL");
        struct v4l2_queryctrl q = {.id = V4L2_CTRL_FLAG_NEXT_CTRL}; n = 0;
        while (ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) { n++; q.id |= V4L2_CTRL_FLAG_NEXT_CTRL; }
        check(n == 18 && errno == EINVAL, "QUERYCTRL NEXT_CTRL walks 18 controls then EINVAL");
        struct v4l2_exportbuffer eb = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        check(ioctl(fd, VIDIOC_EXPBUF, &eb) == -1 && errno == ENOTTY, "EXPBUF is ENOTTY");
        struct pollfd p = {.fd = fd, .events = POLLIN};
        check(poll(&p, 1, 0) == 1 && (p.revents & POLLERR), "poll before STREAMON is POLLERR");

        int d1 = dup(fd), d2 = fcntl(fd, F_DUPFD_CLOEXEC, 50);
        check(d1 >= 0 && querycap(d1) == 0, "dup shares the device");
        check(d2 >= 50 && querycap(d2) == 0, "F_DUPFD_CLOEXEC shares the device");
        int reg = open(regular, O_RDWR | O_CREAT | O_TRUNC, 0644);
        check(reg >= 0 && write(reg, "hello", 5) == 5, "regular file open/write");
        int regdup = dup(reg);
        check(regdup >= 0 && lseek(regdup, 0, SEEK_SET) == 0, "regular file dup");
        char buf[8] = {0};
        check(read(reg, buf, 5) == 5 && memcmp(buf, "hello", 5) == 0, "regular file read through a dup'd offset");
        check(close(regdup) == 0 && querycap(reg) == -1 && errno == ENOTTY, "ioctl on a regular file untouched");
        check(dup2(d1, reg) == reg && querycap(reg) == 0, "dup2 over a regular file makes it the device");
        check(close(fd) == 0 && querycap(d1) == 0, "closing the original keeps the duplicates");

        /* stream a few frames through a duplicate, as v4l2src's pool does */
        struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        f.fmt.pix.width = 640; f.fmt.pix.height = 480; f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
        check(ioctl(d1, VIDIOC_S_FMT, &f) == 0 && f.fmt.pix.sizeimage == 640 * 480 * 2, "S_FMT YUYV 640x480");
        struct v4l2_requestbuffers rb = {.count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        check(ioctl(d1, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 4, "REQBUFS 4");
        void *maps[4]; int mapped = 1;
        for (unsigned i = 0; i < 4; i++) {
            struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
            mapped &= ioctl(d1, VIDIOC_QUERYBUF, &b) == 0;
            maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, d2, b.m.offset);
            mapped &= maps[i] != MAP_FAILED && ioctl(d1, VIDIOC_QBUF, &b) == 0;
        }
        check(mapped, "QUERYBUF, mmap through another dup, QBUF");
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        check(ioctl(d2, VIDIOC_STREAMON, &type) == 0, "STREAMON on a dup");
        int frames = 0, inorder = 1;
        for (int i = 0; i < 5; i++) {
            struct pollfd pp = {.fd = reg, .events = POLLIN};
            struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
            if (poll(&pp, 1, 2000) != 1 || !(pp.revents & POLLIN)) break;
            if (ioctl(d1, VIDIOC_DQBUF, &b) != 0) break;
            inorder &= b.sequence == (unsigned)i && b.bytesused == 640 * 480 * 2
                       && (b.flags & V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
                       && ((unsigned char *)maps[b.index])[0] > 200; /* the white stamp block */
            frames++;
            ioctl(d1, VIDIOC_QBUF, &b);
        }
        check(frames == 5 && inorder, "poll + DQBUF deliver frames 0..4");
        pid_t pid = fork();
        if (pid == 0) { /* the child has the fds but not the producer: closing must not hang */
            close(d1); close(d2); close(reg);
            _exit(0);
        }
        int status = 0, reaped = 0;
        for (int i = 0; i < 500 && !reaped; i++) { /* 5 s */
            reaped = waitpid(pid, &status, WNOHANG) == pid;
            if (!reaped) usleep(10000);
        }
        if (!reaped) { kill(pid, SIGKILL); waitpid(pid, &status, 0); }
        check(pid > 0 && reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child closes its copies");
        struct pollfd after = {.fd = d2, .events = POLLIN};
        struct v4l2_buffer ab = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        check(poll(&after, 1, 2000) == 1 && ioctl(d1, VIDIOC_DQBUF, &ab) == 0 && ab.sequence >= 5,
              "the parent streams on after the fork");
        struct v4l2_buffer nb = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        int fl = fcntl(d1, F_GETFL);
        fcntl(d1, F_SETFL, fl | O_NONBLOCK);
        ioctl(d1, VIDIOC_STREAMOFF, &type);
        check(ioctl(d1, VIDIOC_DQBUF, &nb) == -1 && errno == EINVAL, "DQBUF after STREAMOFF is EINVAL");
        for (int i = 0; i < 4; i++) munmap(maps[i], 640 * 480 * 2);
        check(close(d1) == 0 && close(d2) == 0 && close(reg) == 0, "close all duplicates");
        check(querycap(d1) == -1 && errno == EBADF, "closed fds are gone");
        int again = open(dev, O_RDWR);
        check(again >= 0 && querycap(again) == 0 && close(again) == 0, "reopen after close");
        printf("done\n");
        return 0;
    }
    """#
}
