/* Internal declarations shared by the VirtualCamera source files.
 *
 * Layering: intercept.c (libc wrappers) -> fdtable.c (which fds are ours) ->
 * device.c / ioctl.c / controls.c (V4L2 semantics, one mutex per device) ->
 * producer.c (one streaming thread per device) -> frames.c / jpeg.c / h264.c. */
#ifndef VCAM_INTERNAL_H
#define VCAM_INTERNAL_H

#include <linux/videodev2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pollfd;
struct stat;
struct dirent64;

#define VCAM_MAX_DEVICES 8
#define VCAM_MAX_MODES 8
#define VCAM_MAX_RATES 4
#define VCAM_MAX_BUFFERS 32
#define VCAM_PATH_MAX 256
#define VCAM_NAME_MAX 128 /* a by-id or by-path link name */
#define VCAM_MAX_OBJECTS 16

enum vcam_format { VCAM_YUYV = 0, VCAM_MJPEG = 1, VCAM_H264 = 2, VCAM_FORMAT_COUNT = 3 };

typedef struct {
    uint32_t width, height;
    uint32_t fps[VCAM_MAX_RATES]; /* highest first */
    int nfps;
} vcam_mode;

/* One device as configured by CAMREC_VCAM; immutable after parsing. */
typedef struct {
    char path[VCAM_PATH_MAX];
    char card[32];
    char bus[32];         /* bus=: VIDIOC_QUERYCAP bus_info */
    int formats[VCAM_FORMAT_COUNT]; /* enum vcam_format, in ENUM_FMT order */
    int nformats;
    vcam_mode modes[VCAM_FORMAT_COUNT][VCAM_MAX_MODES];
    int nmodes[VCAM_FORMAT_COUNT];
    int open_errno;       /* fault=ebusy|eacces|enoent: open fails with this */
    long unplug_after;    /* fault=unplug@N, or -1 */
    long replug_ns;       /* replug=DELAY: back DELAY after the unplug, or -1 (never) */
    char replug_path[VCAM_PATH_MAX]; /* replug=DELAY@PATH: back at PATH, or "" (its own path) */
    char byid[VCAM_NAME_MAX];        /* byid=NAME: /dev/v4l/by-id/NAME, or "" */
    char bypath[VCAM_NAME_MAX];      /* bypath=NAME: /dev/v4l/by-path/NAME, or "" */
    long slow_every;      /* slow=every:K:Dms */
    long slow_ns;
    long late_ns;         /* late=D: each stream's first frame is due D later */
    long latency_ns;      /* latency=D: a frame's timestamp is D before its delivery */
    long drop_every;      /* drop=every:N */
    long empty_every;     /* empty=every:N */
    long corrupt_every;   /* corrupt=every:N (MJPEG) */
    long dark_frames;     /* dark=N */
    long focus_busy;      /* focusbusy=N: auto_focus_status reads busy for the first N frames */
    int scene_dark;       /* scene=dark: half the light; auto-exposure may halve the frame rate */
    int no_flash;         /* flash=none: no LED control */
    long flash_ns;        /* flash=PERIOD: frames first at or after k*PERIOD of CLOCK_MONOTONIC are white; 0: none */
    int priority_fixed;   /* priority=fixed: exposure_auto_priority is read-only (on) */
    int trace_controls;   /* trace=controls: every control write is printed on stderr */
    int trace_buffers;    /* trace=buffers: REQBUFS counts and frames lost for lack of a buffer */
    int trace_frames;     /* trace=frames: every delivered frame's sequence, timestamp and flash */
    long starve_seq;      /* starve=FRAMES@SEQ: DQBUF of frame SEQ waits until FRAMES more */
    long starve_frames;   /*   frames were due (a starved capture thread); 0: none */
    int overrun_wait;     /* overrun=wait: a frame due with no buffer queued waits for one */
    char dump[VCAM_PATH_MAX]; /* dump=PATH: every delivered frame's bytes appended to PATH, or "" */
    int h264_controls;    /* h264controls=on: the H.264 I-frame period and repeat-header controls */
    /* the motion scene (objects=, ramp=, noise=): the background stands still, and only
     * what these keys add changes from frame to frame (besides the stamp) */
    int still;            /* one of them was given: the background does not scroll */
    int objects_set;      /* objects= was given (objects=none: a still scene without objects) */
    int nobjects;         /* objects=START:FRAMES+...: object k is in frames [start, start + frames) */
    long object_start[VCAM_MAX_OBJECTS];
    long object_frames[VCAM_MAX_OBJECTS];
    long ramp_frames;     /* ramp=FRAMES[:LEVELS]: luma rises by LEVELS over FRAMES, falls back over FRAMES; 0: none */
    int ramp_levels;
    int noise_level;      /* noise=LEVEL: luma +-LEVEL per pixel and frame; 0: none */
} vcam_config;

typedef enum { BUF_DEQUEUED, BUF_QUEUED, BUF_FILLING, BUF_DONE } vcam_buf_state;

typedef struct {
    vcam_buf_state state;
    uint32_t bytesused, flags, sequence;
    struct timeval timestamp;
    int64_t queued_ns; /* CLOCK_MONOTONIC when the application last queued it (VIDIOC_QBUF) */
} vcam_buffer;

/* A ring of buffer indices (the driver's queued and done lists). */
typedef struct {
    int idx[VCAM_MAX_BUFFERS];
    int head, count;
} vcam_ring;

typedef struct vcam_file vcam_file;

/* Controls the frames depend on; a copy is taken by the producer. scene_dark is not a
 * control: scene=dark (the light in the room), copied here because the picture depends on it. */
typedef struct {
    int brightness, contrast, saturation, gain, power_line, wb_auto, wb_temperature, sharpness, backlight;
    int exposure_auto, exposure_absolute, exposure_priority, pan, tilt, focus_absolute, focus_auto, zoom;
    int focus_status; /* storage only: auto_focus_status is computed when read */
    int led_mode;
    int h264_i_period;     /* h264_i_frame_period (h264controls=on): frames between IDRs, 0 = fps */
    int repeat_seq_header; /* repeat_sequence_header (h264controls=on): storage only, SPS/PPS always repeat */
    int scene_dark;
} vcam_look;

/* Whether auto-exposure runs at half the frame rate now: a dark scene, auto exposure, and
 * exposure_auto_priority allowing it (controls.c). */
int vcam_look_slows_rate(const vcam_look *look);
/* Whether the picture ramps up from black at the start of a stream (dark=N): only while
 * auto-exposure adapts, not with a manual exposure. */
int vcam_look_adapts(const vcam_look *look);

/* Runtime state of one emulated device. Like a real driver, format, controls and
 * the buffer queue belong to the device; the queue has one owner file at a time. */
typedef struct vcam_device {
    vcam_config cfg;
    int index;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* CLOCK_MONOTONIC: producer pacing, blocking DQBUF, stop */

    int fmt;                   /* enum vcam_format */
    uint32_t width, height, fps;

    vcam_look look;
    unsigned look_gen;         /* bumped on every control change */

    vcam_file *owner;          /* file that did REQBUFS, or NULL */
    int nbufs;
    size_t buflen;             /* page-aligned length of each buffer */
    int memfd;
    uint8_t *mem;              /* our mapping of all buffers */
    /* The owner's own writable mapping of each buffer (vcam_mmap), or NULL: the producer
     * writes frames there, so that each buffer's pages are resident in the process once,
     * in the application's mapping, as with a real camera (whose hardware writes without
     * a mapping in the process); its own mapping, `mem`, stays untouched. */
    uint8_t *app_map[VCAM_MAX_BUFFERS];
    const uint8_t *writing;    /* the mapping the producer is writing a frame into, or NULL */
    vcam_buffer bufs[VCAM_MAX_BUFFERS];
    vcam_ring queued, done;

    int streaming;
    int thread_running;        /* a producer was started and not yet joined */
    int producer_alive;        /* the producer may still write into the buffers */
    pthread_t thread;
    unsigned stream_gen;       /* bumped by STREAMON/STREAMOFF: a stale producer exits */
    uint32_t sequence;         /* next sequence number */
    int stream_error;          /* errno that ends this stream (its producer could not start), or 0 */
    int corrupt_noted;         /* said once that corrupt= does not apply to this format */
    int unplugged;             /* gone since unplugged_at; replug= may bring it back */
    int unplug_done;           /* fault=unplug@N has fired: it fires once per process */
    int64_t unplugged_at;      /* CLOCK_MONOTONIC ns of the unplug */
    int at_replug_path;        /* the node is cfg.replug_path (after a replug=DELAY@PATH) */
    unsigned plug_gen;         /* bumped by every replug: files of an older one stay dead */
    long delivered;            /* frames delivered since the process started */
    long stream_delivered;     /* frames delivered in this stream (since STREAMON) */
    long stream_overruns;      /* frames lost in this stream because no buffer was queued */
    unsigned starved_gen;      /* stream_gen of the stream whose starve= already happened */
} vcam_device;

/* An open file description. Duplicated fds share it (refs counts fds + calls in flight). */
struct vcam_file {
    atomic_int refs;
    vcam_device *dev;
    int efd; /* the eventfd the application holds; frames ready = its counter */
    unsigned plug_gen; /* the device's plug_gen when opened: older means unplugged since */
    int node;          /* VCAM_NODE or VCAM_REPLUG_NODE: which path was opened (for fstat) */
};

/* What a configured path names (names.c). */
typedef enum {
    VCAM_NODE,        /* the device path, present until unplugged or moved by a replug */
    VCAM_REPLUG_NODE, /* the path of replug=DELAY@PATH, present once replugged there */
    VCAM_BYID,        /* /dev/v4l/by-id/NAME: a link to the present node */
    VCAM_BYPATH,      /* /dev/v4l/by-path/NAME: the same */
    VCAM_DIR,         /* /dev/v4l, /dev/v4l/by-id or /dev/v4l/by-path (dev is NULL) */
} vcam_name_kind;

typedef struct {
    vcam_name_kind kind;
    vcam_device *dev; /* NULL for VCAM_DIR */
    int dir;          /* VCAM_DIR: index into the emulated directories */
} vcam_name;

/* What a name is right now, for stat/readlink/realpath/open. */
typedef enum { VCAM_ABSENT, VCAM_IS_DEVICE, VCAM_IS_LINK, VCAM_IS_DIR } vcam_name_type;

/* config.c */
int vcam_config_parse(const char *spec, vcam_config *out, int max);
uint32_t vcam_format_fourcc(int fmt);

/* device.c */
vcam_device *vcam_device_at(int index);
int vcam_device_count(void);
int64_t vcam_now_ns(void);                          /* CLOCK_MONOTONIC */
/* Applies a replug that is due; returns the node the device is at now (VCAM_NODE or
 * VCAM_REPLUG_NODE), or -1 when it has none (unplugged, fault=enoent). */
int vcam_device_where(vcam_device *dev);
const char *vcam_node_path(const vcam_device *dev, int node); /* the path of that node */
int vcam_open(vcam_device *dev, int node, int flags); /* returns fd or -1/errno */
void vcam_file_release(vcam_file *f);               /* last fd closed */
int vcam_poll_error(vcam_file *f);                  /* revents to force, or 0 */
/* The device is gone for this file: unplugged, or replugged since the file was opened. */
static inline int vcam_file_gone_locked(const vcam_file *f) {
    return f->dev->unplugged || f->plug_gen != f->dev->plug_gen;
}
void vcam_stop_streaming_locked(vcam_device *dev, pthread_t *join, int *must_join);
void vcam_free_buffers_locked(vcam_device *dev);
void vcam_drain_eventfd(int efd);

/* names.c: the configured paths, /dev/v4l links and their directories */
/* 1: ours, 0: not. A real /dev/v4l directory is libc's, except when `listing`. */
int vcam_name_lookup(const char *path, vcam_name *out, int listing);
/* What the name is now. VCAM_IS_LINK: *node is the node it points to; VCAM_IS_DEVICE: the
 * node it is. */
vcam_name_type vcam_name_state(const vcam_name *n, int *node);
/* The text of the link (VCAM_IS_LINK): "../../video0" for a node in /dev, else the node's path. */
void vcam_link_text(const vcam_device *dev, int node, char *out, size_t cap);
const char *vcam_dir_path(int dir);
void vcam_names_init(const vcam_device *devices, int n); /* from the devices' set-up, once */
void vcam_names_after_fork(void);
int vcam_dir_is_ours(const void *dir);                     /* lock-free 0 when none is open */
void *vcam_dir_open(const vcam_name *n);                   /* an emulated DIR, or NULL/errno */
struct dirent64 *vcam_dir_read(void *dir);
void vcam_dir_rewind(void *dir);
long vcam_dir_tell(void *dir);
void vcam_dir_seek(void *dir, long pos);
int vcam_dir_fd(void *dir);
int vcam_dir_close(void *dir);

/* fdtable.c */
#define VCAM_FD_BUCKETS 4096 /* a power of two */
extern atomic_int vcam_fd_count;                       /* our fds in the whole process */
extern atomic_uchar vcam_fd_buckets[VCAM_FD_BUCKETS]; /* our fds per fd number modulo VCAM_FD_BUCKETS */
/* 0: fd is certainly not ours; 1: look it up (lock-free, for the calls of every other fd) */
static inline int vcam_fd_maybe_ours(int fd) {
    return fd >= 0 && atomic_load_explicit(&vcam_fd_count, memory_order_acquire) > 0 &&
           atomic_load_explicit(&vcam_fd_buckets[fd & (VCAM_FD_BUCKETS - 1)], memory_order_acquire) != 0;
}
int vcam_fd_add(int fd, vcam_file *f);
vcam_file *vcam_fd_get(int fd);     /* takes a reference, or NULL */
void vcam_file_put(vcam_file *f);   /* drops a reference */
void vcam_fd_forget_all(void);      /* in a forked child */
vcam_file *vcam_fd_take(int fd);    /* removes the mapping; returns its reference */

/* ioctl.c */
int vcam_ioctl(vcam_file *f, int fd, unsigned long req, void *arg);
void *vcam_mmap(vcam_file *f, void *addr, size_t len, int prot, int flags, off_t off);
/* Before the application unmaps [addr, addr+len): the producer stops writing frames there
 * (waiting for a frame it is writing into it) and goes back to its own mapping. */
void vcam_forget_mappings(const void *addr, size_t len);
/* Records the owner's mapping of buffer `index` (device lock held). */
void vcam_note_app_mapping_locked(vcam_device *dev, int index, void *mapping);
/* Whether any device writes into an application's mapping (munmap's fast path). */
int vcam_has_app_mappings(void);

/* controls.c */
void vcam_controls_init(vcam_look *look, const vcam_config *cfg);
int vcam_ctrl_ioctl(vcam_device *dev, unsigned long req, void *arg); /* -errno or 0 */

/* producer.c */
int vcam_producer_start(vcam_device *dev);           /* device lock held */
const vcam_mode *vcam_find_mode(const vcam_config *c, int fmt, uint32_t w, uint32_t h);

/* intercept.c: the next definitions in the lookup order (libc) */
int vcam_real_close(int fd);
int vcam_real_lstat(const char *path, struct stat *st);
void *vcam_real_opendir(const char *path);
struct dirent64 *vcam_real_readdir64(void *dir);
void vcam_real_rewinddir(void *dir);
int vcam_real_closedir(void *dir);
int vcam_real_dirfd(void *dir);
int vcam_real_poll(struct pollfd *fds, unsigned long n, int timeout);
void *vcam_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int vcam_real_munmap(void *addr, size_t len);

/* ring helpers */
static inline void vcam_ring_push(vcam_ring *r, int i) {
    r->idx[(r->head + r->count) % VCAM_MAX_BUFFERS] = i;
    r->count++;
}
static inline int vcam_ring_first(const vcam_ring *r) { return r->idx[r->head]; }
static inline int vcam_ring_pop(vcam_ring *r) {
    int i = r->idx[r->head];
    r->head = (r->head + 1) % VCAM_MAX_BUFFERS;
    r->count--;
    return i;
}

#endif

/* frames.c: the picture. A band of height B at the top carries the frame stamp;
 * below it a pre-rendered background strip scrolls with the sequence number. */
#define VCAM_STAMP_BLOCKS 35
#define VCAM_CYCLE 32 /* background phases: the picture repeats every 32 frames */
#define VCAM_Y_WHITE 235
#define VCAM_Y_BLACK 16
#define VCAM_GREY 128

typedef struct {
    uint8_t *y, *u, *v;
    int ystride, cstride;
    int chroma_vshift; /* 0: 4:2:2, 1: 4:2:0 */
} vcam_planes;

typedef struct {
    int w, h, block;
    int yuyv;
    int still;             /* the motion scene: the background stands still (phase 0) */
    uint8_t *sy, *su, *sv; /* planar 4:2:2 strips: 2w luma / w chroma columns per row */
    uint8_t *syuyv;        /* packed strip: 2w pixels per row */
} vcam_pattern;

/* What one frame shows besides the background and its stamp. The producer decides it
 * (vcam_frame_fx), the compose functions draw it, so every format shows the same picture. */
#define VCAM_FLASH (-1)
typedef struct {
    int gain;            /* 256 = normal picture, 0 = black (dark=N ramp), VCAM_FLASH = all white
                          * below the band (flash=PERIOD: nothing else is drawn) */
    int lift;            /* ramp=: added to luma below the band */
    const int8_t *noise; /* noise=: the table from vcam_noise_new, or NULL */
    uint32_t noise_base; /*   where this frame's noise starts in it */
    long object_step;    /* objects=: the object's k-th frame in the picture, */
    long object_steps;   /*   of object_steps (0: no object in this frame) */
} vcam_fx;

static inline int vcam_fx_plain(const vcam_fx *fx) {
    return fx->gain == 256 && fx->lift == 0 && !fx->noise && fx->object_steps == 0;
}

int vcam_stamp_block(int width);
void vcam_stamp_levels(uint32_t seq, uint8_t out[VCAM_STAMP_BLOCKS]);
int vcam_pattern_init(vcam_pattern *p, int w, int h, int yuyv, const vcam_look *look);
void vcam_pattern_free(vcam_pattern *p);
int vcam_pattern_phase(const vcam_pattern *p, uint32_t seq); /* 0..VCAM_CYCLE-1 */
int vcam_pattern_offset(const vcam_pattern *p, uint32_t seq);
/* noise=LEVEL: a table of pseudo-random values in -LEVEL..LEVEL that frames index at a
 * per-frame, per-row offset; NULL for LEVEL 0 or no memory */
int8_t *vcam_noise_new(int level);
/* What frame seq shows under cfg's scene keys; gain as in vcam_fx; noise from vcam_noise_new. */
vcam_fx vcam_frame_fx(const vcam_config *cfg, uint32_t seq, int gain, const int8_t *noise);
/* The object's rectangle in its k-th frame of n: x, y, width, height (even numbers), or
 * width 0 when the picture has no room for it below the band. */
void vcam_object_rect(const vcam_pattern *p, long k, long n, int rect[4]);
/* The stamp is never changed. */
void vcam_compose_yuyv(const vcam_pattern *p, uint32_t seq, const vcam_fx *fx, uint8_t *dst);
void vcam_compose_planar(const vcam_pattern *p, uint32_t seq, const vcam_fx *fx, const vcam_planes *dst);
void vcam_band_luma(const vcam_pattern *p, uint32_t seq, int x, uint8_t *y_out); /* one band column */

/* jpeg.c */
typedef struct vcam_jpeg vcam_jpeg;
vcam_jpeg *vcam_jpeg_new(const vcam_pattern *p);
void vcam_jpeg_free(vcam_jpeg *j);
void vcam_jpeg_invalidate(vcam_jpeg *j); /* the background changed */
/* Encodes frame seq into dst; returns bytes written or 0 on failure. */
size_t vcam_jpeg_frame(vcam_jpeg *j, uint32_t seq, const vcam_fx *fx, uint8_t *dst, size_t cap);
/* Cuts the n-byte JPEG in jpeg short half-way through its entropy-coded data and fills
 * the rest of the n bytes with garbage that holds no marker (corrupt=every:N). */
void vcam_jpeg_truncate(uint8_t *jpeg, size_t n, uint32_t seq);

/* h264.c */
typedef struct vcam_h264 vcam_h264;
vcam_h264 *vcam_h264_new(const vcam_pattern *p, int fps);
void vcam_h264_free(vcam_h264 *h);
size_t vcam_h264_frame(vcam_h264 *h, uint32_t seq, const vcam_fx *fx, int period, uint8_t *dst, size_t cap, int *keyframe);
