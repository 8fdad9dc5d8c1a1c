/* The streaming thread of a device: paces frames on CLOCK_MONOTONIC at the
 * negotiated rate, fills the oldest queued buffer, marks it done and adds 1 to
 * the owner's eventfd. Faults and quirks (drop, empty, corrupt, slow, dark,
 * unplug) and what the motion scene shows (objects, ramp, noise) are decided here. At an
 * unplug the producer leaves its loop at once, without letting go of the lock, so whoever
 * sees `unplugged` also sees it gone (replug relies on it).
 *
 * Rendering happens outside the device lock so QBUF/DQBUF on other threads are
 * never held up by an encoder. */
#define _GNU_SOURCE
#include "vcam.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fmt, fps;
    int h264_period; /* h264_i_frame_period: frames between IDRs, 0 = fps */
    vcam_pattern pattern;
    int8_t *noise; /* noise=LEVEL: the noise table, or NULL */
    vcam_jpeg *jpeg;
    vcam_h264 *h264;
} renderer;

static struct timespec to_timespec(int64_t ns) {
    struct timespec t = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    return t;
}

/* Returns NULL, or what failed (the caller frees a partial renderer). */
static const char *renderer_init(renderer *r, int fmt, int w, int h, int fps, const vcam_look *look,
                                 const vcam_config *cfg) {
    memset(r, 0, sizeof *r);
    r->fmt = fmt;
    r->fps = fps;
    r->h264_period = look->h264_i_period;
    if (vcam_pattern_init(&r->pattern, w, h, fmt == VCAM_YUYV, look) != 0) return "no memory for the picture";
    r->pattern.still = cfg->still;
    if (cfg->noise_level > 0 && !(r->noise = vcam_noise_new(cfg->noise_level))) return "no memory for the noise";
    if (fmt == VCAM_MJPEG && !(r->jpeg = vcam_jpeg_new(&r->pattern)))
        return "the MJPEG encoder (libturbojpeg) did not start";
    if (fmt == VCAM_H264 && !(r->h264 = vcam_h264_new(&r->pattern, fps)))
        return "the H.264 encoder (libx264) did not start";
    return NULL;
}

static void renderer_free(renderer *r) {
    vcam_jpeg_free(r->jpeg);
    vcam_h264_free(r->h264);
    vcam_pattern_free(&r->pattern);
    free(r->noise);
}

/* A control changed: only the background strip depends on controls. */
static void renderer_relook(renderer *r, const vcam_look *look) {
    r->h264_period = look->h264_i_period;
    vcam_pattern fresh;
    if (vcam_pattern_init(&fresh, r->pattern.w, r->pattern.h, r->pattern.yuyv, look) != 0) return;
    fresh.still = r->pattern.still;
    vcam_pattern_free(&r->pattern);
    r->pattern = fresh; /* same address: the encoders keep their pointer */
    if (r->jpeg) vcam_jpeg_invalidate(r->jpeg);
}

static size_t render(renderer *r, uint32_t seq, const vcam_fx *fx, uint8_t *dst, size_t cap, uint32_t *flags) {
    switch (r->fmt) {
    case VCAM_YUYV: {
        size_t n = (size_t)r->pattern.w * (size_t)r->pattern.h * 2;
        if (n > cap) return 0;
        vcam_compose_yuyv(&r->pattern, seq, fx, dst);
        return n;
    }
    case VCAM_MJPEG:
        *flags |= V4L2_BUF_FLAG_KEYFRAME;
        return vcam_jpeg_frame(r->jpeg, seq, fx, dst, cap);
    default: {
        int key = 0;
        size_t n = vcam_h264_frame(r->h264, seq, fx, r->h264_period > 0 ? r->h264_period : r->fps, dst, cap, &key);
        *flags |= key ? V4L2_BUF_FLAG_KEYFRAME : V4L2_BUF_FLAG_PFRAME;
        return n;
    }
    }
}

static void notify(vcam_device *dev) {
    uint64_t one = 1;
    while (write(dev->owner->efd, &one, sizeof one) < 0 && errno == EINTR) {
    }
    pthread_cond_broadcast(&dev->cond);
}

static void *producer_main(void *arg) {
    vcam_device *dev = arg;
    pthread_setname_np(pthread_self(), "vcam-producer"); /* lets benchmarks attribute our CPU */
    pthread_mutex_lock(&dev->lock);
    unsigned gen = dev->stream_gen;
    vcam_look look = dev->look;
    unsigned look_gen = dev->look_gen;
    int fmt = dev->fmt, w = (int)dev->width, h = (int)dev->height, fps = (int)dev->fps;
    const vcam_config cfg = dev->cfg;
    pthread_mutex_unlock(&dev->lock);

    renderer r;
    const char *failure = renderer_init(&r, fmt, w, h, fps, &look, &cfg);
    int ok = failure == NULL;
    if (!ok)
        fprintf(stderr, "camrec VirtualCamera: %s: cannot stream %s %dx%d: %s\n", cfg.path,
                fmt == VCAM_YUYV ? "YUYV" : fmt == VCAM_MJPEG ? "MJPEG" : "H.264", w, h, failure);

    pthread_mutex_lock(&dev->lock);
    if (cfg.corrupt_every && fmt != VCAM_MJPEG && !dev->corrupt_noted) {
        dev->corrupt_noted = 1;
        fprintf(stderr, "camrec VirtualCamera: %s: corrupt= applies to MJPEG only; %s frames are delivered whole\n",
                cfg.path, fmt == VCAM_YUYV ? "YUYV" : "H.264");
    }
    if (!ok && dev->stream_gen == gen) {
        /* like a driver's vb2_queue_error(): poll reports POLLERR, DQBUF fails with EIO,
         * until STREAMOFF; never a stream that silently delivers nothing */
        dev->stream_error = EIO;
        notify(dev);
    }
    /* dump=PATH: what the camera sent, byte for byte, for tests of passthrough */
    int dump_fd = ok && cfg.dump[0] ? open(cfg.dump, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
    if (ok && cfg.dump[0] && dump_fd < 0)
        fprintf(stderr, "camrec VirtualCamera: %s: cannot open dump=%s: %s\n", cfg.path, cfg.dump, strerror(errno));
    const int64_t period = 1000000000LL / fps;
    /* late=D: a camera slow to start streaming (the first frame is due D + one period
     * after STREAMON), as UVC cameras differ by hundreds of milliseconds */
    int64_t prev_due = vcam_now_ns() + cfg.late_ns;
    uint32_t slowed_seq = UINT32_MAX;
    while (ok && dev->stream_gen == gen && dev->streaming && !dev->unplugged) {
        uint32_t seq = dev->sequence;
        int64_t stall = 0;
        if (cfg.slow_every && (seq + 1) % (uint32_t)cfg.slow_every == 0 && slowed_seq != seq) {
            stall = cfg.slow_ns; /* the stream stalls once, later frames keep the cadence */
            slowed_seq = seq;
        }
        /* in a dark scene, auto-exposure with exposure_auto_priority exposes for two frame
         * intervals: the camera delivers at half the rate, as UVC webcams do in low light */
        int64_t due = prev_due + period * (vcam_look_slows_rate(&dev->look) ? 2 : 1) + stall;
        struct timespec ts = to_timespec(due);
        int rc = 0;
        while (dev->stream_gen == gen && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&dev->cond, &dev->lock, &ts);
        if (dev->stream_gen != gen) break;
        /* flash=PERIOD: the first frame whose timestamp (the microseconds the buffer
         * carries) is at or after a multiple of PERIOD on CLOCK_MONOTONIC; decided from
         * the previous frame's due time, delivered or not, so a lost flash stays lost */
        int flash = cfg.flash_ns > 0 &&
                    due / 1000 * 1000 / cfg.flash_ns > prev_due / 1000 * 1000 / cfg.flash_ns;
        prev_due = due;
        if (cfg.drop_every && (seq + 1) % (uint32_t)cfg.drop_every == 0) {
            dev->sequence++; /* a lost frame: the sequence number is used up */
            pthread_cond_broadcast(&dev->cond); /* a starve= wait counts due frames */
            continue;
        }
        if (cfg.overrun_wait) {
            /* overrun=wait: the frame waits for a buffer and keeps its due time (tests
             * that need every frame on a loaded machine; real hardware drops it) */
            while (dev->stream_gen == gen && dev->streaming && !dev->unplugged && dev->queued.count == 0)
                pthread_cond_wait(&dev->cond, &dev->lock);
            if (dev->stream_gen != gen || !dev->streaming || dev->unplugged) break;
        }
        /* No buffer queued when the frame was due: the hardware drops it. Judged at its due
         * time, not when this thread gets to it: a producer thread starved of CPU (an
         * overloaded machine: it renders in the application's process) must not hold frames
         * for an application that had no buffer queued then, as no real camera waits. The
         * queue is FIFO and only this thread takes from it, so a buffer was queued at `due`
         * exactly when the oldest one now was queued by then. */
        if (dev->queued.count == 0 ||
            (!cfg.overrun_wait && dev->bufs[vcam_ring_first(&dev->queued)].queued_ns > due)) {
            dev->sequence++; /* no buffer queued: the hardware drops the frame */
            dev->stream_overruns++;
            if (cfg.trace_buffers)
                fprintf(stderr, "camrec VirtualCamera: %s: frame %u lost: no buffer queued\n", cfg.path, seq);
            pthread_cond_broadcast(&dev->cond); /* a starve= wait counts due frames */
            continue;
        }
        int i = vcam_ring_pop(&dev->queued);
        dev->bufs[i].state = BUF_FILLING;
        /* into the application's own mapping when it has one (see app_map) */
        uint8_t *dst = dev->app_map[i] ? dev->app_map[i] : dev->mem + dev->buflen * (size_t)i;
        dev->writing = dst;
        size_t cap = dev->buflen;
        int relook = dev->look_gen != look_gen;
        look = dev->look;
        look_gen = dev->look_gen;
        pthread_mutex_unlock(&dev->lock);

        if (relook) renderer_relook(&r, &look);
        int gain = cfg.dark_frames > 0 && seq < (uint32_t)cfg.dark_frames && vcam_look_adapts(&look)
                       ? (int)(256LL * seq / cfg.dark_frames) : 256;
        if (flash) gain = VCAM_FLASH;
        const vcam_fx fx = vcam_frame_fx(&cfg, seq, gain, r.noise);
        int empty = cfg.empty_every && (seq + 1) % (uint32_t)cfg.empty_every == 0;
        uint32_t flags = 0;
        size_t n = 0;
        /* an empty H.264 frame is still encoded: the frames after it refer to it, as
         * after a real loss in transit, and the IDR cadence stays the same */
        if (!empty || fmt == VCAM_H264) n = render(&r, seq, &fx, dst, cap, &flags);
        if (n && fmt == VCAM_MJPEG && cfg.corrupt_every && (seq + 1) % (uint32_t)cfg.corrupt_every == 0)
            vcam_jpeg_truncate(dst, n, seq);
        if (empty) n = 0, flags = 0; /* bytesused 0, nothing flagged: no ERROR, no KEYFRAME */
        for (size_t done = 0; dump_fd >= 0 && done < n;) {
            ssize_t w = write(dump_fd, dst + done, n - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            done += (size_t)w;
        }

        pthread_mutex_lock(&dev->lock);
        dev->writing = NULL;
        pthread_cond_broadcast(&dev->cond); /* an munmap may wait for this frame */
        if (dev->stream_gen != gen) break; /* STREAMOFF already returned the buffer */
        vcam_buffer *b = &dev->bufs[i];
        b->state = BUF_DONE;
        b->bytesused = (uint32_t)n;
        b->flags = n || empty ? flags : V4L2_BUF_FLAG_ERROR;
        b->sequence = seq;
        /* latency=D: exposed D before it is delivered, as a real camera's frame is */
        b->timestamp.tv_sec = (due - cfg.latency_ns) / 1000000000;
        b->timestamp.tv_usec = (due - cfg.latency_ns) % 1000000000 / 1000;
        if (cfg.trace_frames)
            fprintf(stderr, "camrec VirtualCamera: %s: frame %u at %ld.%06ld%s%s\n", cfg.path, seq,
                    (long)b->timestamp.tv_sec, (long)b->timestamp.tv_usec, flash ? " flash" : "",
                    fx.object_steps ? " object" : "");
        vcam_ring_push(&dev->done, i);
        dev->sequence++;
        dev->delivered++;
        dev->stream_delivered++;
        notify(dev);
        if (cfg.unplug_after >= 0 && !dev->unplug_done && dev->delivered >= cfg.unplug_after) {
            /* once per process: a camera that replug= brings back stays */
            dev->unplugged = dev->unplug_done = 1;
            dev->unplugged_at = vcam_now_ns();
            notify(dev); /* wakes poll(): the poll wrapper then reports POLLERR|POLLHUP */
        }
    }
    dev->producer_alive = 0;
    pthread_cond_broadcast(&dev->cond);
    pthread_mutex_unlock(&dev->lock);
    renderer_free(&r); /* also undoes a partial renderer_init */
    if (dump_fd >= 0) close(dump_fd);
    return NULL;
}

/* Called with the device lock held, from STREAMON. */
int vcam_producer_start(vcam_device *dev) {
    while (dev->producer_alive) pthread_cond_wait(&dev->cond, &dev->lock); /* a stale one is exiting */
    if (dev->thread_running) { /* stopped but not joined: it has exited, reap it */
        pthread_join(dev->thread, NULL);
        dev->thread_running = 0;
    }
    sigset_t all, old;
    sigfillset(&all);
    /* the thread inherits a full mask: the host's signal handlers never run on it */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&dev->thread, NULL, producer_main, dev);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        dev->streaming = 0;
        return -ENOMEM;
    }
    dev->thread_running = 1;
    dev->producer_alive = 1;
    return 0;
}
