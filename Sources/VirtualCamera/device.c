/* The emulated devices: lazy set-up from CAMREC_VCAM, open/release of a device
 * file, the parts of the buffer queue that open/close/poll need, and replugging.
 *
 * A replug (replug=DELAY after fault=unplug@N) happens lazily: the first call that asks
 * where the device is (stat, open, access, readlink, realpath, a listing) DELAY or more
 * after the unplug brings it back, with nothing running in the background. The device
 * then is a new instance of the same camera: power-on format and controls, an empty
 * queue, and a new plug_gen, so that files opened before the unplug stay dead (ENODEV).
 *
 * The application's fd is an eventfd (EFD_SEMAPHORE) whose counter always equals
 * the number of finished buffers waiting for DQBUF, so the application's own
 * poll()/ppoll() works natively. The file keeps a private duplicate of it so the
 * producer never writes to an fd number the application has closed and reused. */
#define _GNU_SOURCE
#include "vcam.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static vcam_device devices[VCAM_MAX_DEVICES];
static int ndevices;
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

/* The device's lock and its condition variable (timed waits on CLOCK_MONOTONIC). */
static void device_sync_init(vcam_device *d) {
    pthread_mutex_init(&d->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&d->cond, &ca);
    pthread_condattr_destroy(&ca);
}

static void after_fork_child(void) {
    vcam_fd_forget_all();
    vcam_names_after_fork();
    for (int i = 0; i < ndevices; i++) {
        vcam_device *d = &devices[i];
        device_sync_init(d);
        d->streaming = d->thread_running = d->producer_alive = 0;
        d->owner = NULL;
        d->mem = NULL; /* the child keeps the mapping; it is freed when the child exits */
        d->memfd = -1;
        d->nbufs = 0;
    }
}

/* Power-on state: the first format's first mode at its highest rate, default controls. */
static void power_on(vcam_device *d) {
    d->fmt = d->cfg.formats[0];
    const vcam_mode *m = &d->cfg.modes[d->fmt][0];
    d->width = m->width;
    d->height = m->height;
    d->fps = m->fps[0];
    vcam_controls_init(&d->look, &d->cfg);
    d->look_gen++;
}

static void devices_init(void) {
    static vcam_config configs[VCAM_MAX_DEVICES];
    int n = vcam_config_parse(getenv("CAMREC_VCAM"), configs, VCAM_MAX_DEVICES);
    for (int i = 0; i < n; i++) {
        vcam_device *d = &devices[i];
        d->cfg = configs[i];
        d->index = i;
        device_sync_init(d);
        power_on(d);
        d->memfd = -1;
    }
    ndevices = n;
    vcam_names_init(devices, n);
    if (n > 0) pthread_atfork(NULL, NULL, after_fork_child);
}

int vcam_device_count(void) {
    pthread_once(&devices_once, devices_init);
    return ndevices;
}

vcam_device *vcam_device_at(int index) {
    return index >= 0 && index < vcam_device_count() ? &devices[index] : NULL;
}

int64_t vcam_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The camera comes back as a new instance of itself (device lock held). The producer
 * stopped itself at the unplug (it sets unplugged and leaves its loop without letting go
 * of the lock), so it is past touching the buffers or the lock and can be reaped here. */
static void replug_locked(vcam_device *dev) {
    dev->streaming = 0;
    dev->stream_error = 0;
    dev->stream_gen++;
    pthread_cond_broadcast(&dev->cond);
    /* the old owner's mappings stay valid (they hold the memfd); its fd stays dead */
    vcam_free_buffers_locked(dev);
    if (dev->thread_running) {
        pthread_join(dev->thread, NULL);
        dev->thread_running = 0;
    }
    power_on(dev);
    dev->at_replug_path = dev->cfg.replug_path[0] != 0;
    dev->plug_gen++;
    dev->unplugged = 0;
}

static int where_locked(vcam_device *dev) {
    if (dev->unplugged && dev->cfg.replug_ns >= 0 && vcam_now_ns() - dev->unplugged_at >= dev->cfg.replug_ns)
        replug_locked(dev);
    return dev->unplugged || dev->cfg.open_errno == ENOENT ? -1
           : dev->at_replug_path                            ? VCAM_REPLUG_NODE
                                                            : VCAM_NODE;
}

int vcam_device_where(vcam_device *dev) {
    pthread_mutex_lock(&dev->lock);
    int where = where_locked(dev);
    pthread_mutex_unlock(&dev->lock);
    return where;
}

const char *vcam_node_path(const vcam_device *dev, int node) {
    return node == VCAM_REPLUG_NODE ? dev->cfg.replug_path : dev->cfg.path;
}

int vcam_open(vcam_device *dev, int node, int flags) {
    pthread_mutex_lock(&dev->lock);
    int err = where_locked(dev) != node ? ENOENT : dev->cfg.open_errno;
    unsigned gen = dev->plug_gen; /* an unplug from here on makes this file dead, as it should */
    pthread_mutex_unlock(&dev->lock);
    if (err) {
        errno = err;
        return -1;
    }
    if ((flags & O_ACCMODE) == O_WRONLY) { /* a capture device cannot be opened write-only */
        errno = EINVAL;
        return -1;
    }
    int efd = eventfd(0, EFD_SEMAPHORE | ((flags & O_NONBLOCK) ? EFD_NONBLOCK : 0) |
                             ((flags & O_CLOEXEC) ? EFD_CLOEXEC : 0));
    if (efd < 0) return -1;
    vcam_file *f = calloc(1, sizeof *f);
    int own = f ? fcntl(efd, F_DUPFD_CLOEXEC, 0) : -1;
    if (f) {
        /* complete before vcam_fd_add publishes it: from then on another thread's
         * poll() or ioctl() on this fd number (a reused one) can reach the file */
        f->dev = dev;
        f->efd = own;
        f->plug_gen = gen;
        f->node = node;
    }
    if (own < 0 || vcam_fd_add(efd, f) != 0) {
        int saved = f ? (own < 0 ? errno : EMFILE) : ENOMEM;
        if (own >= 0) vcam_real_close(own);
        vcam_real_close(efd);
        free(f);
        errno = saved;
        return -1;
    }
    return efd;
}

/* Read the counter down to zero without blocking, whatever the fd's mode. */
void vcam_drain_eventfd(int efd) {
    struct pollfd p = {.fd = efd, .events = POLLIN};
    uint64_t v;
    while (vcam_real_poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
        if (read(efd, &v, sizeof v) != sizeof v && errno != EINTR) break;
    }
}

/* Stops the producer; the caller joins the thread after unlocking (it takes the lock). */
void vcam_stop_streaming_locked(vcam_device *dev, pthread_t *join, int *must_join) {
    *must_join = 0;
    if (dev->cfg.trace_buffers && dev->streaming)
        fprintf(stderr, "camrec VirtualCamera: %s: stream ended: %ld frames delivered, %ld lost for lack of a queued buffer\n",
                dev->cfg.path, dev->stream_delivered, dev->stream_overruns);
    if (dev->thread_running) {
        *join = dev->thread;
        *must_join = 1;
        dev->thread_running = 0;
    }
    dev->streaming = 0;
    dev->stream_error = 0;
    dev->stream_gen++;
    /* STREAMOFF returns every buffer to the application */
    for (int i = 0; i < dev->nbufs; i++) dev->bufs[i].state = BUF_DEQUEUED;
    dev->queued.count = dev->done.count = 0;
    if (dev->owner) {
        vcam_drain_eventfd(dev->owner->efd);
        /* wake a poll() blocked on the fd: it will see POLLERR (not streaming) */
        uint64_t one = 1;
        if (write(dev->owner->efd, &one, sizeof one) < 0) { /* counter full: already awake */ }
    }
    pthread_cond_broadcast(&dev->cond);
}

/* How many app_map entries are set, over all devices: munmap looks no further when 0. */
static atomic_int app_mappings;

int vcam_has_app_mappings(void) { return atomic_load_explicit(&app_mappings, memory_order_acquire) > 0; }

void vcam_note_app_mapping_locked(vcam_device *dev, int index, void *mapping) {
    dev->app_map[index] = mapping;
    atomic_fetch_add_explicit(&app_mappings, 1, memory_order_release);
}

static void forget_app_mapping_locked(vcam_device *dev, int index) {
    if (!dev->app_map[index]) return;
    dev->app_map[index] = NULL;
    atomic_fetch_sub_explicit(&app_mappings, 1, memory_order_release);
}

void vcam_forget_mappings(const void *addr, size_t len) {
    const uint8_t *start = addr, *end = start + len;
    for (int d = 0; d < vcam_device_count(); d++) {
        vcam_device *dev = &devices[d];
        pthread_mutex_lock(&dev->lock);
        for (int i = 0; i < VCAM_MAX_BUFFERS; i++) {
            const uint8_t *m = dev->app_map[i];
            if (!m || m + dev->buflen <= start || m >= end) continue;
            /* a frame being written into it is finished first (the producer holds no
             * lock while it renders) */
            while (dev->writing == m) pthread_cond_wait(&dev->cond, &dev->lock);
            forget_app_mapping_locked(dev, i);
        }
        pthread_mutex_unlock(&dev->lock);
    }
}

void vcam_free_buffers_locked(vcam_device *dev) {
    /* a stopped producer may still be finishing a frame in the buffers */
    while (dev->producer_alive) pthread_cond_wait(&dev->cond, &dev->lock);
    /* the owner's mappings stay valid (they hold the memfd); frames no longer go there */
    for (int i = 0; i < VCAM_MAX_BUFFERS; i++) forget_app_mapping_locked(dev, i);
    if (dev->mem) vcam_real_munmap(dev->mem, dev->buflen * (size_t)dev->nbufs);
    if (dev->memfd >= 0) vcam_real_close(dev->memfd);
    dev->mem = NULL;
    dev->memfd = -1;
    dev->nbufs = 0;
    dev->buflen = 0;
    dev->owner = NULL;
}

void vcam_file_release(vcam_file *f) {
    vcam_device *dev = f->dev;
    pthread_t thread;
    int must_join = 0;
    pthread_mutex_lock(&dev->lock);
    if (dev->owner == f) {
        vcam_stop_streaming_locked(dev, &thread, &must_join);
    }
    pthread_mutex_unlock(&dev->lock);
    if (must_join) pthread_join(thread, NULL);
    pthread_mutex_lock(&dev->lock);
    if (dev->owner == f) vcam_free_buffers_locked(dev);
    pthread_mutex_unlock(&dev->lock);
    vcam_real_close(f->efd);
}

/* Like vb2: POLLERR when the queue is not streaming on this file, is in error or the
 * device is gone (for this file: also after a replug). */
int vcam_poll_error(vcam_file *f) {
    vcam_device *dev = f->dev;
    pthread_mutex_lock(&dev->lock);
    int err = 0;
    if (vcam_file_gone_locked(f)) err = POLLERR | POLLHUP;
    else if (dev->owner != f || !dev->streaming || dev->stream_error) err = POLLERR;
    pthread_mutex_unlock(&dev->lock);
    return err;
}
