import Foundation
import Testing

/// The emulated camera's buffers count in a process's resident memory as a real camera's do:
/// once, in the application's own mappings (a real camera's hardware writes frames without a
/// mapping in the process). Benchmarks compare tools' peak RSS with these buffers inside
/// (BENCHMARKS.md section 11), so counting them twice would inflate every tool's figure.
@Suite("VirtualCamera memory", .serialized)
struct VirtualCameraMemoryTests: VirtualCameraHarness {
    @Test("every streamed buffer is resident once: the process's shared memory is the buffers' size, not twice it",
          arguments: [4, 12])
    func buffersCountOnce(buffers: Int) throws {
        try withScratch { dir in
            let program = try compileC(Self.source, named: "rss", in: dir)
            let run = try ChildProcess.run(program, ["/dev/video5", String(buffers)],
                                           environment: try env([VirtualCameraDevice(path: "/dev/video5", formats: ["yuyv"],
                                                                                     sizes: ["640x480@30"])]),
                                           timeout: 60)
            try expectSuccess(run)
            // "buffers N length L frames F shmem K" (K in kB, RssShmem of /proc/self/status)
            let words = run.stdoutText.split(separator: " ").map(String.init)
            let fields = Dictionary(stride(from: 0, to: words.count - 1, by: 2).map { (words[$0], words[$0 + 1]) }) { $1 }
            let count = try #require(fields["buffers"].flatMap { Int($0) }, "\(run.stdoutText)")
            let length = try #require(fields["length"].flatMap { Int($0) }, "\(run.stdoutText)")
            let frames = try #require(fields["frames"].flatMap { Int($0) }, "\(run.stdoutText)")
            let shmem = try #require(fields["shmem"].flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                                     "\(run.stdoutText)")
            #expect(count == buffers)
            #expect(frames >= 5 * buffers, "every buffer filled at least 3 times, and twice more after one is unmapped")
            let expected = count * length
            // Each buffer once (the driver-style mapping the program made); twice would be 2 × expected.
            #expect(shmem * 1024 >= expected * 9 / 10 && shmem * 1024 <= expected * 11 / 10,
                    "RssShmem \(shmem) kB for \(count) buffers of \(length) bytes (\(expected / 1024) kB once)")
        }
    }

    /// Streams `argv[2]` buffers from `argv[1]`, reads every filled byte, and prints the
    /// process's resident shared memory while all buffers are still mapped; then unmaps one
    /// buffer and streams on (the camera must not write into a mapping that is gone).
    static let source = #"""
    #include <fcntl.h>
    #include <linux/videodev2.h>
    #include <poll.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ioctl.h>
    #include <sys/mman.h>
    int main(int argc, char **argv) {
        int fd = open(argv[1], O_RDWR);
        if (fd < 0) { perror("open"); return 1; }
        struct v4l2_requestbuffers req = {0};
        req.count = (unsigned)atoi(argv[2]);
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        req.memory = V4L2_MEMORY_MMAP;
        if (ioctl(fd, VIDIOC_REQBUFS, &req) < 0) { perror("REQBUFS"); return 1; }
        unsigned char *mem[32];
        unsigned length = 0;
        for (unsigned i = 0; i < req.count && i < 32; i++) {
            struct v4l2_buffer b = {0};
            b.type = req.type; b.memory = req.memory; b.index = i;
            if (ioctl(fd, VIDIOC_QUERYBUF, &b) < 0) { perror("QUERYBUF"); return 1; }
            length = b.length;
            mem[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, b.m.offset);
            if (mem[i] == MAP_FAILED) { perror("mmap"); return 1; }
            if (ioctl(fd, VIDIOC_QBUF, &b) < 0) { perror("QBUF"); return 1; }
        }
        int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (ioctl(fd, VIDIOC_STREAMON, &type) < 0) { perror("STREAMON"); return 1; }
        unsigned long sum = 0;
        unsigned frames = 0;
        while (frames < 3 * req.count) {
            struct pollfd p = { fd, POLLIN, 0 };
            if (poll(&p, 1, 5000) <= 0) { fprintf(stderr, "no frame in 5 s\n"); return 1; }
            struct v4l2_buffer b = {0};
            b.type = req.type; b.memory = req.memory;
            if (ioctl(fd, VIDIOC_DQBUF, &b) < 0) { perror("DQBUF"); return 1; }
            for (unsigned k = 0; k < b.bytesused; k += 64) sum += mem[b.index][k];
            frames++;
            if (ioctl(fd, VIDIOC_QBUF, &b) < 0) { perror("QBUF"); return 1; }
        }
        FILE *status = fopen("/proc/self/status", "r");
        char line[256];
        long shmem = -1;
        while (status && fgets(line, sizeof line, status))
            if (strncmp(line, "RssShmem:", 9) == 0) shmem = atol(line + 9);
        /* A buffer unmapped while streaming: the camera goes on filling it elsewhere. */
        if (munmap(mem[0], length) != 0) { perror("munmap"); return 1; }
        for (unsigned more = 0; more < 2 * req.count; frames++, more++) {
            struct pollfd p = { fd, POLLIN, 0 };
            if (poll(&p, 1, 5000) <= 0) { fprintf(stderr, "no frame in 5 s after munmap\n"); return 1; }
            struct v4l2_buffer b = {0};
            b.type = req.type; b.memory = req.memory;
            if (ioctl(fd, VIDIOC_DQBUF, &b) < 0) { perror("DQBUF"); return 1; }
            if (b.index != 0) for (unsigned k = 0; k < b.bytesused; k += 64) sum += mem[b.index][k];
            if (ioctl(fd, VIDIOC_QBUF, &b) < 0) { perror("QBUF"); return 1; }
        }
        if (ioctl(fd, VIDIOC_STREAMOFF, &type) < 0) { perror("STREAMOFF"); return 1; }
        printf("buffers %u length %u frames %u shmem %ld\n", req.count, length, frames, shmem);
        fprintf(stderr, "checksum %lu\n", sum);
        return shmem < 0;
    }
    """#
}
