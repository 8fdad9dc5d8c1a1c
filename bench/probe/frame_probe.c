/*
 * frame_probe: a tiny LD_PRELOAD library for bench/run (not part of camrec).
 *
 * Loaded in front of libVirtualCamera.so (LD_PRELOAD="frame_probe.so:libVirtualCamera.so"),
 * it forwards every ioctl to the next library and, when BENCH_PROBE_LOG names a file,
 * appends one line per VIDIOC_STREAMON and per VIDIOC_DQBUF:
 *
 *   reqbufs COUNT            (the number of buffers the driver granted)
 *   streamon NOW
 *   dqbuf SEQUENCE TIMESTAMP NOW
 *
 * NOW is CLOCK_MONOTONIC when the ioctl returned; TIMESTAMP is the buffer's own
 * timestamp (the emulated camera sets it to the frame's due time on CLOCK_MONOTONIC), so
 * the harness can tell when the frame it finds in a file was captured. The same probe runs
 * in camrec, gst-launch-1.0 and ffmpeg, so it costs them all the same (one clock read and a
 * short write per frame; only the first BENCH_PROBE_MAX frames are logged, default 120).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*ioctl_fn)(int, unsigned long, ...);

static ioctl_fn next_ioctl;
static int log_fd = -1;
static long max_frames = 120;
static atomic_long frames_logged;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void setup(void) {
    next_ioctl = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
    const char *path = getenv("BENCH_PROBE_LOG");
    if (path && *path)
        log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const char *max = getenv("BENCH_PROBE_MAX");
    if (max && *max)
        max_frames = atol(max);
}

static void write_line(const char *line, int length) {
    if (log_fd >= 0 && length > 0) {
        ssize_t ignored = write(log_fd, line, (size_t)length);
        (void)ignored;
    }
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    pthread_once(&once, setup);
    int result = next_ioctl(fd, request, arg);
    if (result != 0 || log_fd < 0)
        return result;
    if (request == VIDIOC_REQBUFS) {
        char line[64];
        int length = snprintf(line, sizeof line, "reqbufs %u\n", ((const struct v4l2_requestbuffers *)arg)->count);
        write_line(line, length);
    } else if (request == VIDIOC_STREAMON || request == VIDIOC_DQBUF) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        char line[128];
        int length = 0;
        if (request == VIDIOC_STREAMON) {
            length = snprintf(line, sizeof line, "streamon %ld.%09ld\n", (long)now.tv_sec, now.tv_nsec);
        } else if (atomic_fetch_add(&frames_logged, 1) < max_frames) {
            const struct v4l2_buffer *buffer = arg;
            length = snprintf(line, sizeof line, "dqbuf %u %ld.%06ld %ld.%09ld\n", buffer->sequence,
                              (long)buffer->timestamp.tv_sec, (long)buffer->timestamp.tv_usec,
                              (long)now.tv_sec, now.tv_nsec);
        }
        write_line(line, length);
    }
    return result;
}
