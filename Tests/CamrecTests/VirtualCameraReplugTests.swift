import Foundation
import Testing

extension VirtualCameraTests {
    /// `replug=` (the camera comes back after `fault=unplug@N`), `byid=`/`bypath=` (udev's
    /// /dev/v4l links) and `bus=`: checked by a V4L2 program of our own and by v4l2src, each in
    /// one process (a camera's plug state lives in the process that preloads the library).
    /// Nothing sleeps and hopes: the programs wait for the node to exist, with a deadline.
    @Suite("VirtualCamera: replug and stable names")
    struct Replug: VirtualCameraHarness {
        static let byID = "usb-Vendor_Cam_1234-video-index0"
        static let byPath = "pci-0000:00:14.0-usb-0:1:1.0-video-index0"

        @Test("replug=500: the camera comes back at its path as the same camera; old fds stay dead; frames go on from sequence 0, once unplugged")
        func replugInPlace() throws {
            let run = try replugProbe(
                spec: "/dev/video0,card=Vendor Cam,bus=usb-0000:00:14.0-1,fault=unplug@3,replug=500,byid=\(Self.byID),bypath=\(Self.byPath)",
                node: "/dev/video0", newNode: "/dev/video0", delayMilliseconds: 500)
            expectChecks(run, including: [
                "the device comes back", "not before DELAY after the unplug", "the old fd stays dead after the replug (fstat works)",
                "QUERYCAP card and bus_info are the same camera's", "controls are back at power-on defaults",
                "frames again from sequence 0, stamped after the gap",
                "no second unplug after 3 more frames; closing the old fd did not disturb the stream",
                "by-id after the replug: readlink is ../../video0",
            ])
            #expect(run.stdoutText.contains("identity Vendor Cam | usb-0000:00:14.0-1"), "\(run.stdoutText)")
        }

        @Test("replug=300@/dev/video5: the camera comes back at another node, the old one stays gone, the links follow it")
        func replugElsewhere() throws {
            let run = try replugProbe(
                spec: "/dev/video0,fault=unplug@3,replug=300@/dev/video5,byid=\(Self.byID),bypath=\(Self.byPath)",
                node: "/dev/video0", newNode: "/dev/video5", delayMilliseconds: 300)
            expectChecks(run, including: [
                "the replug path is absent before the unplug", "the device comes back", "the old path stays gone",
                "by-id after the replug: readlink is ../../video5", "by-id after the replug: realpath is /dev/video5",
                "by-path after the replug: realpath is /dev/video5", "QUERYCAP card and bus_info are the same camera's",
            ])
            // the default bus_info is the device's own, whatever its node
            #expect(run.stdoutText.contains("identity camrec VirtualCamera | platform:camrec-vcam-0"), "\(run.stdoutText)")
        }

        /// Two cameras, both unplugged after 2 frames, the first one earlier. By the time the
        /// second is back (300 ms after its own unplug), the first would have been too with any
        /// replug delay up to 300 ms: it stays gone.
        @Test("without replug= (or with replug=never) an unplugged camera never comes back", arguments: ["", ",replug=never"])
        func neverComesBack(_ key: String) throws {
            try withScratch { dir in
                let probe = try compileC(ReplugProbe.text, named: "replug", in: dir)
                let run = try ChildProcess.run(
                    probe, ["never", "/dev/video0", "/dev/video1"],
                    environment: try env(spec: "/dev/video0,fault=unplug@2,byid=lost-camera\(key);/dev/video1,fault=unplug@2,replug=300,byid=back-camera"),
                    timeout: 60)
                expectChecks(run, including: [
                    "the second comes back", "the first, unplugged earlier, is still gone, and its link",
                    "by-id lists only the one that came back",
                ])
            }
        }

        @Test("v4l2src through a by-id link: fails at the unplug, then a new pipeline streams from the camera at its new node")
        func gstreamerAfterReplug() throws {
            try withScratch { dir in
                let flags = try ChildProcess.run("pkg-config", ["--cflags", "--libs", "gstreamer-1.0"])
                try #require(flags.status == 0, "\(flags.stderr)")
                let program = try compileC(GStreamerReplugProgram.text, named: "gst-replug", in: dir,
                                           flags: flags.stdoutText.split(whereSeparator: \.isWhitespace).map(String.init))
                let out = dir.appendingPathComponent("after.mkv")
                // overrun=wait: a loaded machine delays frames instead of losing them
                let run = try ChildProcess.run(
                    program, ["/dev/v4l/by-id/\(Self.byID)", out.path],
                    environment: try env(spec: "/dev/video0,formats=mjpeg,fault=unplug@10,replug=300@/dev/video4,byid=\(Self.byID),overrun=wait"),
                    timeout: 90)
                expectChecks(run, including: [
                    "the first pipeline fails at the unplug: Could not read from resource.", "the device comes back",
                    "a new pipeline streams 30 frames from it",
                ])
                try expectStamps(out, (0..<30).map { UInt32($0) })
            }
        }

        @Test("bad replug=, byid=, bypath= and bus= values are reported and ignored; a name or path two devices would share is kept by the first")
        func badValues() throws {
            let run = try gst("v4l2src device=/dev/video0 num-buffers=2 ! video/x-raw,width=640,height=480 ! fakesink",
                              spec: "/dev/video0,replug=soon,byid=a/b,bypath=..,bus=0123456789012345678901234567890123456789;/dev/video1,byid=same,replug=1s@/dev/video0;/dev/video2,byid=same")
            try expectSuccess(run)
            for shown in ["bad value 'replug=soon'", "bad value 'byid=a/b'", "bad value 'bypath=..'",
                          "bad value 'bus=0123456789012345678901234567890123456789'",
                          "path another device has 'replug=...@/dev/video0'", "name another device has 'byid=same'"] {
                #expect(run.stderr.contains("camrec VirtualCamera: ignoring \(shown) in CAMREC_VCAM"), "\(run.stderr)")
            }
        }

        // MARK: helpers

        private func replugProbe(spec: String, node: String, newNode: String, delayMilliseconds: Int) throws -> ChildProcessResult {
            var result: ChildProcessResult?
            try withScratch { dir in
                let probe = try compileC(ReplugProbe.text, named: "replug", in: dir)
                result = try ChildProcess.run(
                    probe, ["replug", node, newNode, Self.byID, Self.byPath, String(delayMilliseconds)],
                    environment: try env(spec: spec), timeout: 60)
            }
            return try #require(result)
        }

        /// No check failed, the program got to its end, and `including` were among the checks passed.
        private func expectChecks(_ run: ChildProcessResult, including expected: [String],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
            let lines = run.stdoutText.split(whereSeparator: \.isNewline).map(String.init)
            let log = "exit \(run.status)\(run.timedOut ? " (timed out)" : ""): \(run.stdoutText)\(run.stderr)"
            #expect(run.status == 0 && !run.timedOut, "\(log)", sourceLocation: sourceLocation)
            #expect(lines.filter { $0.hasPrefix("FAIL") } == [], "\(log)", sourceLocation: sourceLocation)
            #expect(lines.last == "done", "\(log)", sourceLocation: sourceLocation)
            for check in expected {
                #expect(lines.contains("ok \(check)"), "missing 'ok \(check)': \(log)", sourceLocation: sourceLocation)
            }
        }
    }
}

/// `replug replug NODE NEWNODE BYID BYPATH DELAY_MS`: a device with fault=unplug@3 and
/// replug=DELAY_MS (at NEWNODE when it differs from NODE) and the two links, followed through
/// the unplug and the replug. `replug never GONE BACK`: see `neverComesBack`.
/// Each check prints "ok NAME" or "FAIL NAME"; the last line is "done".
private enum ReplugProbe {
    static let text = #"""
    #define _GNU_SOURCE
    #include <dirent.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <limits.h>
    #include <linux/videodev2.h>
    #include <poll.h>
    #include <stdint.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ioctl.h>
    #include <sys/stat.h>
    #include <time.h>
    #include <unistd.h>

    /* Each check prints "ok NAME" or "FAIL NAME"; "skip NAME" when the machine was too slow
     * for a check that depends on being quick. The last line is "done". */
    static int failures;
    static void check(int ok, const char *name) {
        if (ok) printf("ok %s\n", name);
        else printf("FAIL %s (errno %d %s)\n", name, errno, strerror(errno)), failures++;
    }

    static int64_t now_us(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
    }

    static int exists(const char *path) {
        struct stat st;
        return stat(path, &st) == 0;
    }

    /* Waits for a path to exist: 1 when it does, 0 after timeout_ms. */
    static int wait_for(const char *path, int timeout_ms) {
        int64_t deadline = now_us() + (int64_t)timeout_ms * 1000;
        while (now_us() < deadline) {
            if (exists(path)) return 1;
            usleep(2000);
        }
        return exists(path);
    }

    static int querycap(int fd, struct v4l2_capability *cap) {
        memset(cap, 0, sizeof *cap);
        return ioctl(fd, VIDIOC_QUERYCAP, cap);
    }

    /* Sets up MMAP streaming with 4 buffers (no mapping needed to dequeue). */
    static int start(int fd) {
        struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        f.fmt.pix.width = 640, f.fmt.pix.height = 480, f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
        struct v4l2_requestbuffers rb = {.count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        if (ioctl(fd, VIDIOC_S_FMT, &f) || ioctl(fd, VIDIOC_REQBUFS, &rb)) return -1;
        for (unsigned i = 0; i < rb.count; i++) {
            struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
            if (ioctl(fd, VIDIOC_QBUF, &b)) return -1;
        }
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        return ioctl(fd, VIDIOC_STREAMON, &type);
    }

    typedef struct {
        int frames;       /* dequeued */
        uint32_t first_seq, last_seq;
        int64_t last_ts;  /* us, CLOCK_MONOTONIC */
        int64_t first_ts;
        int in_order;     /* sequence numbers rose by one */
        int hangup;       /* poll reported POLLERR|POLLHUP */
    } run;

    /* Dequeues until `count` frames (count > 0) or until the device goes (count 0). */
    static run stream(int fd, int count) {
        run r = {.in_order = 1};
        for (;;) {
            if (count > 0 && r.frames >= count) break;
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, 5000) != 1) break;
            if (p.revents & POLLERR) {
                r.hangup = (p.revents & POLLHUP) != 0;
                break;
            }
            struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
            if (ioctl(fd, VIDIOC_DQBUF, &b)) break;
            int64_t ts = (int64_t)b.timestamp.tv_sec * 1000000 + b.timestamp.tv_usec;
            if (r.frames == 0) r.first_seq = b.sequence, r.first_ts = ts;
            else r.in_order &= b.sequence == r.last_seq + 1;
            r.last_seq = b.sequence;
            r.last_ts = ts;
            r.frames++;
            ioctl(fd, VIDIOC_QBUF, &b);
        }
        return r;
    }

    static int listed(const char *dir, const char *name, unsigned char type) {
        DIR *d = opendir(dir);
        if (!d) return 0;
        int found = 0;
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, name) == 0 && e->d_type == type) found = 1;
        closedir(d);
        return found;
    }

    static int link_is(const char *link, const char *text) {
        char buf[PATH_MAX];
        ssize_t n = readlink(link, buf, sizeof buf);
        return n == (ssize_t)strlen(text) && memcmp(buf, text, (size_t)n) == 0;
    }

    static int resolves_to(const char *path, const char *node) {
        char buf[PATH_MAX];
        char *r = realpath(path, buf);
        char *m = realpath(path, NULL);
        int ok = r && strcmp(r, node) == 0 && m && strcmp(m, node) == 0;
        free(m);
        return ok;
    }

    static int gone(const char *path) {
        struct stat st;
        char buf[64];
        errno = 0;
        int ok = stat(path, &st) == -1 && errno == ENOENT;
        ok &= lstat(path, &st) == -1 && errno == ENOENT;
        ok &= access(path, F_OK) == -1 && errno == ENOENT;
        ok &= open(path, O_RDWR) == -1 && errno == ENOENT;
        ok &= readlink(path, buf, sizeof buf) == -1 && errno == ENOENT;
        ok &= realpath(path, NULL) == NULL && errno == ENOENT;
        return ok;
    }

    /* The link and its directory entries, while the device is at `node`. */
    static void check_link(const char *dir, const char *name, const char *node, const char *what) {
        char link[PATH_MAX], text[PATH_MAX], label[PATH_MAX + 256];
        snprintf(link, sizeof link, "%s/%s", dir, name);
        snprintf(text, sizeof text, "../../%s", node + 5);
        struct stat st, nst, dst;
        snprintf(label, sizeof label, "%s: lstat is a link, stat the node", what);
        check(lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && st.st_size == (off_t)strlen(text) &&
                  stat(link, &st) == 0 && S_ISCHR(st.st_mode) && stat(node, &nst) == 0 && st.st_rdev == nst.st_rdev,
              label);
        snprintf(label, sizeof label, "%s: readlink is %s", what, text);
        check(link_is(link, text), label);
        snprintf(label, sizeof label, "%s: realpath is %s", what, node);
        check(resolves_to(link, node) && resolves_to(node, node), label);
        snprintf(label, sizeof label, "%s: listed in %s, which is a directory", what, dir);
        check(listed(dir, name, DT_LNK) && listed(dir, ".", DT_DIR) && stat(dir, &dst) == 0 && S_ISDIR(dst.st_mode),
              label);
        snprintf(label, sizeof label, "%s: open follows it, O_NOFOLLOW does not", what);
        int fd = open(link, O_RDWR), nofollow = open(link, O_RDWR | O_NOFOLLOW);
        int nofollow_errno = errno;
        struct v4l2_capability cap;
        check(fd >= 0 && querycap(fd, &cap) == 0 && nofollow == -1 && nofollow_errno == ELOOP && access(link, R_OK | W_OK) == 0,
              label);
        if (fd >= 0) close(fd);
    }

    /* replug NODE NEWNODE BYID BYPATH DELAY_MS
     * The device at NODE has fault=unplug@3 and replug=DELAY_MS (at NEWNODE when it differs). */
    static int replug(char **argv) {
        const char *node = argv[2], *newnode = argv[3], *byid = argv[4], *bypath = argv[5];
        int delay_us = atoi(argv[6]) * 1000;
        int moved = strcmp(node, newnode) != 0;
        char idlink[PATH_MAX], pathlink[PATH_MAX];
        snprintf(idlink, sizeof idlink, "/dev/v4l/by-id/%s", byid);
        snprintf(pathlink, sizeof pathlink, "/dev/v4l/by-path/%s", bypath);

        check_link("/dev/v4l/by-id", byid, node, "by-id before the unplug");
        check_link("/dev/v4l/by-path", bypath, node, "by-path before the unplug");
        check(listed("/dev/v4l", "by-id", DT_DIR) && listed("/dev/v4l", "by-path", DT_DIR), "/dev/v4l lists by-id and by-path");
        if (moved) check(gone(newnode), "the replug path is absent before the unplug");

        int fd = open(idlink, O_RDWR);
        struct v4l2_capability before, after;
        check(fd >= 0 && querycap(fd, &before) == 0, "open through by-id, QUERYCAP");
        struct v4l2_control bright = {.id = V4L2_CID_BRIGHTNESS, .value = 40};
        check(ioctl(fd, VIDIOC_S_CTRL, &bright) == 0, "brightness set to 40");
        check(start(fd) == 0, "stream");
        run r = stream(fd, 0);
        check(r.hangup && r.frames >= 1 && r.frames <= 3 && r.first_seq == 0 && r.in_order,
              "unplug@3: frames then POLLERR|POLLHUP");
        /* absent until DELAY after the unplug, which came after the last frame's due time */
        if (now_us() + 50000 < r.last_ts + delay_us) {
            check(gone(node) && gone(idlink) && gone(pathlink), "the node and its links are gone after the unplug");
            check(!listed("/dev/v4l/by-id", byid, DT_LNK), "by-id lists no link while unplugged");
        } else {
            printf("skip absence checks: %lld us passed since the last frame\n", (long long)(now_us() - r.last_ts));
            fflush(stdout);
        }
        struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        check(ioctl(fd, VIDIOC_DQBUF, &b) == -1 && errno == ENODEV && querycap(fd, &after) == -1 && errno == ENODEV,
              "the old fd answers ENODEV");

        check(wait_for(newnode, 20000), "the device comes back");
        int64_t back = now_us();
        check(back >= r.last_ts + delay_us, "not before DELAY after the unplug");
        if (moved) check(gone(node), "the old path stays gone");

        struct pollfd p = {.fd = fd, .events = POLLIN};
        struct stat st;
        check(poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) == (POLLERR | POLLHUP) &&
                  querycap(fd, &after) == -1 && errno == ENODEV && fstat(fd, &st) == 0,
              "the old fd stays dead after the replug (fstat works)");

        check_link("/dev/v4l/by-id", byid, newnode, "by-id after the replug");
        check_link("/dev/v4l/by-path", bypath, newnode, "by-path after the replug");

        int fresh = open(newnode, O_RDWR);
        check(fresh >= 0 && querycap(fresh, &after) == 0, "open the replugged node");
        check(strcmp((char *)before.card, (char *)after.card) == 0 && strcmp((char *)before.bus_info, (char *)after.bus_info) == 0,
              "QUERYCAP card and bus_info are the same camera's");
        printf("identity %s | %s\n", (char *)after.card, (char *)after.bus_info);
        struct v4l2_control got = {.id = V4L2_CID_BRIGHTNESS};
        check(ioctl(fresh, VIDIOC_G_CTRL, &got) == 0 && got.value == 0, "controls are back at power-on defaults");
        check(start(fresh) == 0, "stream again");
        run again = stream(fresh, 3);
        check(close(fd) == 0, "close the old fd while the new one streams");
        run more = stream(fresh, 5);
        check(again.frames == 3 && again.first_seq == 0 && again.in_order && again.first_ts >= r.last_ts + delay_us,
              "frames again from sequence 0, stamped after the gap");
        check(more.frames == 5 && more.first_seq == 3 && more.in_order && !more.hangup,
              "no second unplug after 3 more frames; closing the old fd did not disturb the stream");
        printf("gap %lld us\n", (long long)(again.first_ts - r.last_ts));
        close(fresh);
        return 0;
    }

    /* never GONE BACK DELAY_MS: both have fault=unplug@2; GONE never comes back, BACK after DELAY_MS. */
    static int never(char **argv) {
        const char *lost = argv[2], *back = argv[3];
        int fa = open(lost, O_RDWR), fb = open(back, O_RDWR);
        check(fa >= 0 && fb >= 0 && start(fa) == 0, "open both, stream the first");
        run ra = stream(fa, 0);
        check(ra.hangup, "the first is unplugged");
        check(start(fb) == 0, "stream the second");
        run rb = stream(fb, 0);
        check(rb.hangup, "the second is unplugged, later");
        check(wait_for(back, 20000), "the second comes back");
        check(gone(lost) && gone("/dev/v4l/by-id/lost-camera"), "the first, unplugged earlier, is still gone, and its link");
        check(!listed("/dev/v4l/by-id", "lost-camera", DT_LNK) && listed("/dev/v4l/by-id", "back-camera", DT_LNK),
              "by-id lists only the one that came back");
        close(fa);
        close(fb);
        return 0;
    }

    int main(int argc, char **argv) {
        setvbuf(stdout, NULL, _IONBF, 0);
        if (argc < 2) return 64;
        if (strcmp(argv[1], "replug") == 0 && argc == 7) replug(argv);
        else if (strcmp(argv[1], "never") == 0 && argc == 4) never(argv);
        else return 64;
        printf("done\n");
        return failures ? 1 : 0;
    }
    """#
}

/// `gst-replug DEVICE OUT`: GStreamer's v4l2src, one process, two pipelines around a replug.
private enum GStreamerReplugProgram {
    static let text = #"""
    #include <gst/gst.h>
    #include <stdio.h>
    #include <string.h>
    #include <sys/stat.h>
    #include <time.h>
    #include <unistd.h>

    /* gstreplug DEVICE OUT: v4l2src on DEVICE until the camera is unplugged, then, once DEVICE
     * exists again, 30 MJPEG frames from it into OUT (Matroska). Prints "ok …"/"FAIL …", then "done". */
    static int failures;
    static void check(int ok, const char *name, const char *detail) {
        printf("%s %s%s%s\n", ok ? "ok" : "FAIL", name, detail ? ": " : "", detail ? detail : "");
        failures += !ok;
    }

    /* Runs a pipeline to its end: 1 for EOS, 0 for an error (its message in `error`). */
    static int run(const char *description, char *error, size_t cap) {
        GError *parse_error = NULL;
        GstElement *pipeline = gst_parse_launch(description, &parse_error);
        if (!pipeline) {
            snprintf(error, cap, "parse: %s", parse_error ? parse_error->message : "?");
            g_clear_error(&parse_error);
            return 0;
        }
        gst_element_set_state(pipeline, GST_STATE_PLAYING);
        GstBus *bus = gst_element_get_bus(pipeline);
        GstMessage *msg = gst_bus_timed_pop_filtered(bus, 30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
        int eos = msg && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_EOS;
        if (!msg) snprintf(error, cap, "timed out");
        else if (!eos) {
            GError *e = NULL;
            gst_message_parse_error(msg, &e, NULL);
            snprintf(error, cap, "%s", e ? e->message : "?");
            g_clear_error(&e);
        }
        if (msg) gst_message_unref(msg);
        gst_object_unref(bus);
        gst_element_set_state(pipeline, GST_STATE_NULL);
        gst_object_unref(pipeline);
        return eos;
    }

    int main(int argc, char **argv) {
        setvbuf(stdout, NULL, _IONBF, 0);
        if (argc != 3) return 64;
        gst_init(NULL, NULL);
        const char *device = argv[1], *out = argv[2];
        char description[1024], error[512] = "";
        snprintf(description, sizeof description,
                 "v4l2src device=%s ! image/jpeg,width=640,height=480,framerate=30/1 ! fakesink", device);
        int eos = run(description, error, sizeof error);
        check(!eos && strstr(error, "Could not read from resource"), "the first pipeline fails at the unplug", error);

        struct stat st;
        int back = 0;
        for (int i = 0; i < 10000 && !back; i++) { /* 20 s */
            back = stat(device, &st) == 0;
            if (!back) usleep(2000);
        }
        check(back, "the device comes back", NULL);
        snprintf(description, sizeof description,
                 "v4l2src device=%s num-buffers=30 ! image/jpeg,width=640,height=480,framerate=30/1 ! jpegparse ! "
                 "matroskamux ! filesink location=%s", device, out);
        error[0] = 0;
        eos = run(description, error, sizeof error);
        check(eos, "a new pipeline streams 30 frames from it", error[0] ? error : NULL);
        printf("done\n");
        return failures ? 1 : 0;
    }
    """#
}
