/* The V4L2 ioctls an emulated device answers, with the semantics that
 * GStreamer's v4l2src and FFmpeg's v4l2 input depend on (docs/virtual-camera.md,
 * "What the consumers rely on"):
 * ENUM_* end with EINVAL, EXPBUF answers ENOTTY so MMAP is chosen, the buffer
 * queue has one owner file, and DQBUF after POLLIN never fails. */
#define _GNU_SOURCE
#include "vcam.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CAPTURE V4L2_BUF_TYPE_VIDEO_CAPTURE

static int offered_index(const vcam_config *c, uint32_t fourcc) {
    for (int i = 0; i < c->nformats; i++)
        if (vcam_format_fourcc(c->formats[i]) == fourcc) return c->formats[i];
    return -1;
}

const vcam_mode *vcam_find_mode(const vcam_config *c, int fmt, uint32_t w, uint32_t h) {
    for (int i = 0; i < c->nmodes[fmt]; i++)
        if (c->modes[fmt][i].width == w && c->modes[fmt][i].height == h) return &c->modes[fmt][i];
    return NULL;
}

static uint32_t sizeimage(uint32_t w, uint32_t h) { return w * h * 2; }

static void fill_pix(struct v4l2_pix_format *p, int fmt, uint32_t w, uint32_t h) {
    memset(p, 0, sizeof *p);
    p->width = w;
    p->height = h;
    p->pixelformat = vcam_format_fourcc(fmt);
    p->field = V4L2_FIELD_NONE;
    p->bytesperline = fmt == VCAM_YUYV ? w * 2 : 0;
    p->sizeimage = sizeimage(w, h);
    /* what uvcvideo reports; TRY and S must agree for v4l2src */
    p->colorspace = V4L2_COLORSPACE_SRGB;
}

/* The format a TRY_FMT/S_FMT request lands on: same fourcc if offered, nearest size. */
static void choose_format(const vcam_device *dev, const struct v4l2_pix_format *req, int *fmt,
                          const vcam_mode **mode) {
    int f = offered_index(&dev->cfg, req->pixelformat);
    if (f < 0) f = dev->cfg.formats[0];
    const vcam_mode *best = &dev->cfg.modes[f][0];
    long best_d = -1;
    for (int i = 0; i < dev->cfg.nmodes[f]; i++) {
        const vcam_mode *m = &dev->cfg.modes[f][i];
        long d = labs((long)m->width - (long)req->width) + labs((long)m->height - (long)req->height);
        if (best_d < 0 || d < best_d) best = m, best_d = d;
    }
    *fmt = f;
    *mode = best;
}

static uint32_t nearest_rate(const vcam_mode *m, const struct v4l2_fract *tpf) {
    if (tpf->numerator == 0 || tpf->denominator == 0) return m->fps[0];
    double want = (double)tpf->denominator / tpf->numerator, best_d = -1;
    uint32_t best = m->fps[0];
    for (int i = 0; i < m->nfps; i++) {
        double d = want > m->fps[i] ? want - m->fps[i] : m->fps[i] - want;
        if (best_d < 0 || d < best_d) best = m->fps[i], best_d = d;
    }
    return best;
}

static int rate_supported(const vcam_mode *m, uint32_t fps) {
    for (int i = 0; i < m->nfps; i++)
        if (m->fps[i] == fps) return 1;
    return 0;
}

static void fill_buffer(const vcam_device *dev, int i, struct v4l2_buffer *b) {
    const vcam_buffer *vb = &dev->bufs[i];
    memset(b, 0, sizeof *b);
    b->index = (uint32_t)i;
    b->type = CAPTURE;
    b->memory = V4L2_MEMORY_MMAP;
    b->m.offset = (uint32_t)(dev->buflen * (size_t)i);
    b->length = (uint32_t)dev->buflen;
    b->field = V4L2_FIELD_NONE;
    b->bytesused = vb->bytesused;
    b->sequence = vb->sequence;
    b->timestamp = vb->timestamp;
    b->flags = vb->flags | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
    if (vb->state == BUF_QUEUED || vb->state == BUF_FILLING) b->flags |= V4L2_BUF_FLAG_QUEUED;
    if (vb->state == BUF_DONE) b->flags |= V4L2_BUF_FLAG_DONE;
}

static int do_reqbufs(vcam_device *dev, vcam_file *f, struct v4l2_requestbuffers *r) {
    r->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
    if (r->type != CAPTURE || r->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    if (dev->owner && dev->owner != f) return -EBUSY;
    if (dev->streaming) return -EBUSY;
    vcam_free_buffers_locked(dev);
    if (r->count == 0) return 0;

    uint32_t n = r->count < 2 ? 2 : r->count > VCAM_MAX_BUFFERS ? VCAM_MAX_BUFFERS : r->count;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (sizeimage(dev->width, dev->height) + page - 1) / page * page;
    int memfd = memfd_create("camrec-vcam", MFD_CLOEXEC);
    if (memfd < 0) return -ENOMEM;
    void *mem = MAP_FAILED;
    if (ftruncate(memfd, (off_t)(len * n)) == 0)
        mem = vcam_real_mmap(NULL, len * n, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (mem == MAP_FAILED) {
        vcam_real_close(memfd);
        return -ENOMEM;
    }
    dev->memfd = memfd;
    dev->mem = mem;
    dev->buflen = len;
    dev->nbufs = (int)n;
    memset(dev->bufs, 0, sizeof dev->bufs);
    dev->queued.count = dev->done.count = 0;
    dev->owner = f;
    if (dev->cfg.trace_buffers) /* trace=buffers: tests see how deep a queue was asked for */
        fprintf(stderr, "camrec VirtualCamera: %s: REQBUFS %u buffers (asked for %u)\n", dev->cfg.path, n, r->count);
    r->count = n;
    return 0;
}

static int do_qbuf(vcam_device *dev, vcam_file *f, struct v4l2_buffer *b) {
    if (b->type != CAPTURE || b->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    if (dev->owner != f) return dev->owner ? -EBUSY : -EINVAL;
    if (b->index >= (uint32_t)dev->nbufs || dev->bufs[b->index].state != BUF_DEQUEUED) return -EINVAL;
    dev->bufs[b->index].state = BUF_QUEUED;
    dev->bufs[b->index].queued_ns = vcam_now_ns();
    vcam_ring_push(&dev->queued, (int)b->index);
    fill_buffer(dev, (int)b->index, b);
    pthread_cond_broadcast(&dev->cond);
    return 0;
}

static int do_dqbuf(vcam_device *dev, vcam_file *f, int fd, struct v4l2_buffer *b) {
    if (b->type != CAPTURE || b->memory != V4L2_MEMORY_MMAP) return -EINVAL;
    if (dev->owner != f) return dev->owner ? -EBUSY : -EINVAL;
    int nonblock = (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
    for (;;) {
        if (vcam_file_gone_locked(f)) return -ENODEV;
        if (!dev->streaming) return -EINVAL;
        if (dev->stream_error) return -dev->stream_error; /* as vb2: before any done buffer */
        if (dev->done.count > 0) break;
        if (nonblock) return -EAGAIN;
        pthread_cond_wait(&dev->cond, &dev->lock);
    }
    if (dev->cfg.starve_frames && dev->starved_gen != dev->stream_gen
        && dev->bufs[dev->done.idx[dev->done.head]].sequence >= (uint32_t)dev->cfg.starve_seq) {
        /* starve=FRAMES@SEQ: the capture thread takes this frame out only once FRAMES more
         * frames were due, as if it had waited that long for a CPU; the camera goes on
         * filling whatever buffers are queued and loses the frames that find none */
        unsigned gen = dev->stream_gen;
        dev->starved_gen = gen;
        uint32_t until = dev->bufs[dev->done.idx[dev->done.head]].sequence + 1 + (uint32_t)dev->cfg.starve_frames;
        while (dev->stream_gen == gen && dev->streaming && !vcam_file_gone_locked(f) && dev->sequence < until)
            pthread_cond_wait(&dev->cond, &dev->lock);
        if (vcam_file_gone_locked(f)) return -ENODEV;
        if (dev->stream_gen != gen || !dev->streaming || dev->done.count == 0) return -EINVAL;
    }
    int i = vcam_ring_pop(&dev->done);
    /* the counter is >= done.count under the lock, so this read cannot block */
    uint64_t one;
    while (read(f->efd, &one, sizeof one) < 0 && errno == EINTR) {
    }
    dev->bufs[i].state = BUF_DEQUEUED;
    fill_buffer(dev, i, b);
    return 0;
}

static int do_streamon(vcam_device *dev, vcam_file *f, const int *type) {
    if (*type != CAPTURE) return -EINVAL;
    if (dev->owner != f) return dev->owner ? -EBUSY : -EINVAL;
    if (dev->streaming) return 0;
    vcam_drain_eventfd(f->efd);
    dev->streaming = 1;
    dev->stream_error = 0;
    dev->stream_gen++;
    dev->sequence = 0;
    dev->stream_delivered = dev->stream_overruns = 0;
    return vcam_producer_start(dev);
}

static int do_fmt(vcam_device *dev, vcam_file *f, unsigned long req, struct v4l2_format *fm) {
    if (fm->type != CAPTURE) return -EINVAL;
    if (req == VIDIOC_G_FMT) {
        fill_pix(&fm->fmt.pix, dev->fmt, dev->width, dev->height);
        return 0;
    }
    int fmt;
    const vcam_mode *m;
    choose_format(dev, &fm->fmt.pix, &fmt, &m);
    if (req == VIDIOC_S_FMT) {
        if ((dev->owner && dev->owner != f) || dev->nbufs > 0) return -EBUSY;
        dev->fmt = fmt;
        dev->width = m->width;
        dev->height = m->height;
        if (!rate_supported(m, dev->fps)) dev->fps = m->fps[0];
    }
    fill_pix(&fm->fmt.pix, fmt, m->width, m->height);
    return 0;
}

static int do_parm(vcam_device *dev, unsigned long req, struct v4l2_streamparm *p) {
    if (p->type != CAPTURE) return -EINVAL;
    if (req == VIDIOC_S_PARM) {
        if (dev->streaming) return -EBUSY;
        const vcam_mode *m = vcam_find_mode(&dev->cfg, dev->fmt, dev->width, dev->height);
        if (m) dev->fps = nearest_rate(m, &p->parm.capture.timeperframe);
    }
    memset(&p->parm, 0, sizeof p->parm);
    p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    p->parm.capture.timeperframe.numerator = 1;
    p->parm.capture.timeperframe.denominator = dev->fps;
    return 0;
}

static int do_enum(vcam_device *dev, unsigned long req, void *arg) {
    const vcam_config *c = &dev->cfg;
    if (req == VIDIOC_ENUM_FMT) {
        struct v4l2_fmtdesc *d = arg;
        uint32_t index = d->index;
        if (d->type != CAPTURE || index >= (uint32_t)c->nformats) return -EINVAL;
        int fmt = c->formats[index];
        memset(d, 0, sizeof *d);
        d->index = index;
        d->type = CAPTURE;
        d->pixelformat = vcam_format_fourcc(fmt);
        d->flags = fmt == VCAM_YUYV ? 0 : V4L2_FMT_FLAG_COMPRESSED;
        snprintf((char *)d->description, sizeof d->description, "%s",
                 fmt == VCAM_YUYV ? "YUYV 4:2:2" : fmt == VCAM_MJPEG ? "Motion-JPEG" : "H.264");
        return 0;
    }
    if (req == VIDIOC_ENUM_FRAMESIZES) {
        struct v4l2_frmsizeenum *s = arg;
        int fmt = offered_index(c, s->pixel_format);
        if (fmt < 0 || s->index >= (uint32_t)c->nmodes[fmt]) return -EINVAL;
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = c->modes[fmt][s->index].width;
        s->discrete.height = c->modes[fmt][s->index].height;
        memset(s->reserved, 0, sizeof s->reserved);
        return 0;
    }
    /* VIDIOC_ENUM_FRAMEINTERVALS */
    struct v4l2_frmivalenum *iv = arg;
    int fmt = offered_index(c, iv->pixel_format);
    const vcam_mode *m = fmt < 0 ? NULL : vcam_find_mode(c, fmt, iv->width, iv->height);
    if (!m || iv->index >= (uint32_t)m->nfps) return -EINVAL;
    iv->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    iv->discrete.numerator = 1;
    iv->discrete.denominator = m->fps[iv->index];
    memset(iv->reserved, 0, sizeof iv->reserved);
    return 0;
}

static int do_querycap(vcam_device *dev, struct v4l2_capability *cap) {
    memset(cap, 0, sizeof *cap);
    snprintf((char *)cap->driver, sizeof cap->driver, "camrec-vcam");
    snprintf((char *)cap->card, sizeof cap->card, "%s", dev->cfg.card);
    /* card and bus_info identify the camera: the same after a replug, wherever its node is */
    snprintf((char *)cap->bus_info, sizeof cap->bus_info, "%s", dev->cfg.bus);
    cap->version = KERNEL_VERSION(6, 1, 0);
    cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
    cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
    return 0;
}

static int dispatch(vcam_device *dev, vcam_file *f, int fd, unsigned long req, void *arg) {
    switch (req) {
    case VIDIOC_QUERYCAP: return do_querycap(dev, arg);
    case VIDIOC_ENUM_FMT:
    case VIDIOC_ENUM_FRAMESIZES:
    case VIDIOC_ENUM_FRAMEINTERVALS: return do_enum(dev, req, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: return do_fmt(dev, f, req, arg);
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: return do_parm(dev, req, arg);
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return -EINVAL;
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: return *(int *)arg == 0 ? 0 : -EINVAL;
    case VIDIOC_REQBUFS: return do_reqbufs(dev, f, arg);
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        if (b->type != CAPTURE || b->index >= (uint32_t)dev->nbufs || dev->owner != f) return -EINVAL;
        fill_buffer(dev, (int)b->index, b);
        return 0;
    }
    case VIDIOC_QBUF: return do_qbuf(dev, f, arg);
    case VIDIOC_DQBUF: return do_dqbuf(dev, f, fd, arg);
    case VIDIOC_STREAMON: return do_streamon(dev, f, arg);
    case VIDIOC_QUERYCTRL:
    case VIDIOC_QUERYMENU:
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL:
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS: return vcam_ctrl_ioctl(dev, req, arg);
    default:
        /* EXPBUF must be ENOTTY (v4l2src would pick DMABUF otherwise); the same for
         * CREATE_BUFS, standards, selection/crop, events, priorities, DV timings. */
        return -ENOTTY;
    }
}

int vcam_ioctl(vcam_file *f, int fd, unsigned long req, void *arg) {
    vcam_device *dev = f->dev;
    if (!arg) {
        errno = EFAULT;
        return -1;
    }
    int rc;
    pthread_mutex_lock(&dev->lock);
    if (vcam_file_gone_locked(f)) {
        rc = -ENODEV;
    } else if (req == VIDIOC_STREAMOFF) {
        rc = *(int *)arg != CAPTURE ? -EINVAL : (dev->owner && dev->owner != f) ? -EBUSY : 0;
        if (rc == 0) {
            pthread_t thread;
            int must_join;
            vcam_stop_streaming_locked(dev, &thread, &must_join);
            pthread_mutex_unlock(&dev->lock);
            if (must_join) pthread_join(thread, NULL);
            return 0;
        }
    } else {
        rc = dispatch(dev, f, fd, req, arg);
    }
    pthread_mutex_unlock(&dev->lock);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return rc;
}

void *vcam_mmap(vcam_file *f, void *addr, size_t len, int prot, int flags, off_t off) {
    vcam_device *dev = f->dev;
    void *p = MAP_FAILED;
    int err = EINVAL;
    pthread_mutex_lock(&dev->lock);
    if (vcam_file_gone_locked(f)) {
        err = ENODEV;
    } else if (dev->owner == f && dev->buflen && (flags & MAP_SHARED) && off >= 0 &&
               (size_t)off % dev->buflen == 0 && (size_t)off / dev->buflen < (size_t)dev->nbufs &&
               len <= dev->buflen) {
        /* the application maps the memfd itself; its munmap is seen (vcam_forget_mappings) */
        p = vcam_real_mmap(addr, len, prot, flags, dev->memfd, off);
        err = errno;
        size_t index = (size_t)off / dev->buflen, page = (size_t)sysconf(_SC_PAGESIZE);
        /* the whole buffer: QUERYBUF's length is sizeimage, mapped up to a page boundary */
        if (p != MAP_FAILED && (prot & PROT_WRITE) && (len + page - 1) / page * page == dev->buflen &&
            !dev->app_map[index])
            vcam_note_app_mapping_locked(dev, (int)index, p);
    }
    pthread_mutex_unlock(&dev->lock);
    if (p == MAP_FAILED) errno = err;
    return p;
}
