/* Parsing of CAMREC_VCAM, the one place the emulated devices are described.
 *
 *   CAMREC_VCAM = SPEC[;SPEC...]      SPEC = PATH[,key=value...]
 *
 * Keys: card, bus, formats, sizes, fault, replug, byid, bypath, slow, drop, empty,
 * corrupt, dark, focusbusy, scene, priority, flash, trace, overrun, starve, dump,
 * h264controls, objects, ramp, noise, late, latency (docs/virtual-camera.md).
 * Parsing never fails hard: a bad key is reported once on stderr and ignored, so
 * a typo cannot crash the host process. */
#define _GNU_SOURCE
#include "vcam.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[VCAM_FORMAT_COUNT] = {"yuyv", "mjpeg", "h264"};

uint32_t vcam_format_fourcc(int fmt) {
    switch (fmt) {
    case VCAM_YUYV: return V4L2_PIX_FMT_YUYV;
    case VCAM_MJPEG: return V4L2_PIX_FMT_MJPEG;
    default: return V4L2_PIX_FMT_H264;
    }
}

static void warn(const char *what, const char *value) {
    fprintf(stderr, "camrec VirtualCamera: ignoring %s '%s' in CAMREC_VCAM\n", what, value);
}

static int format_from_name(const char *s) {
    for (int i = 0; i < VCAM_FORMAT_COUNT; i++)
        if (strcasecmp(s, format_names[i]) == 0) return i;
    if (strcasecmp(s, "yuy2") == 0) return VCAM_YUYV;
    if (strcasecmp(s, "mjpg") == 0 || strcasecmp(s, "jpeg") == 0) return VCAM_MJPEG;
    return -1;
}

static void add_mode(vcam_mode *modes, int *n, uint32_t w, uint32_t h, const uint32_t *fps, int nfps) {
    if (*n >= VCAM_MAX_MODES) return;
    vcam_mode *m = &modes[(*n)++];
    m->width = w;
    m->height = h;
    m->nfps = nfps;
    for (int i = 0; i < nfps; i++) m->fps[i] = fps[i];
}

/* A typical UVC webcam: raw YUYV is bandwidth-limited at large sizes. */
static void default_modes(vcam_config *c) {
    static const uint32_t r30_15[] = {30, 15}, r10_5[] = {10, 5}, r5[] = {5};
    add_mode(c->modes[VCAM_YUYV], &c->nmodes[VCAM_YUYV], 640, 480, r30_15, 2);
    add_mode(c->modes[VCAM_YUYV], &c->nmodes[VCAM_YUYV], 1280, 720, r10_5, 2);
    add_mode(c->modes[VCAM_YUYV], &c->nmodes[VCAM_YUYV], 1920, 1080, r5, 1);
    for (int f = VCAM_MJPEG; f <= VCAM_H264; f++) {
        add_mode(c->modes[f], &c->nmodes[f], 640, 480, r30_15, 2);
        add_mode(c->modes[f], &c->nmodes[f], 1280, 720, r30_15, 2);
        add_mode(c->modes[f], &c->nmodes[f], 1920, 1080, r30_15, 2);
    }
}

/* sizes=WxH@F[/F...][+WxH@F...]: replaces the mode table of every format. */
static int parse_sizes(vcam_config *c, char *v) {
    vcam_mode modes[VCAM_MAX_MODES];
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(v, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        unsigned w, h;
        int used = 0;
        if (sscanf(tok, "%ux%u%n", &w, &h, &used) != 2 || w < 16 || h < 16 || w > 4096 || h > 4096 ||
            (w % 2) || (h % 2))
            return -1;
        uint32_t fps[VCAM_MAX_RATES];
        int nfps = 0;
        char *p = tok + used;
        if (*p == '@') {
            p++;
            while (*p && nfps < VCAM_MAX_RATES) {
                char *end;
                unsigned long r = strtoul(p, &end, 10);
                if (end == p || r == 0 || r > 240) return -1;
                fps[nfps++] = (uint32_t)r;
                p = end;
                if (*p == '/') p++;
                else if (*p) return -1;
            }
        } else if (*p) {
            return -1;
        }
        if (nfps == 0) fps[nfps++] = 30;
        if (n < VCAM_MAX_MODES) add_mode(modes, &n, w, h, fps, nfps);
    }
    if (n == 0) return -1;
    for (int f = 0; f < VCAM_FORMAT_COUNT; f++) {
        c->nmodes[f] = n;
        memcpy(c->modes[f], modes, sizeof modes);
    }
    return 0;
}

/* Durations like 200ms, 0.5s or 200 (milliseconds). */
static int parse_duration_ns(const char *s, long *ns) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0 || v > 3600) return -1;
    if (*end == 0 || strcmp(end, "ms") == 0) *ns = (long)(v * 1e6);
    else if (strcmp(end, "s") == 0) *ns = (long)(v * 1e9);
    else if (strcmp(end, "us") == 0) *ns = (long)(v * 1e3);
    else return -1;
    return 0;
}

static int parse_count(const char *s, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0) return -1;
    *out = v;
    return 0;
}

/* every:N with N >= 2: sequence numbers N-1, 2N-1, ... (seq % N == N-1) */
/* every:N, N >= 1 (every:1 is every frame: a camera that sends only broken frames) */
static int parse_every(const char *v, long *n) {
    return strncmp(v, "every:", 6) != 0 || parse_count(v + 6, n) || *n < 1;
}

/* trace=controls, buffers, frames, several joined with +, or none; a bad name rejects the value */
static int parse_trace(vcam_config *c, char *v) {
    int controls = 0, buffers = 0, frames = 0;
    for (char *save = NULL, *tok = strtok_r(v, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        if (strcmp(tok, "controls") == 0) controls = 1;
        else if (strcmp(tok, "buffers") == 0) buffers = 1;
        else if (strcmp(tok, "frames") == 0) frames = 1;
        else if (strcmp(tok, "none") != 0) return -1;
    }
    c->trace_controls = controls;
    c->trace_buffers = buffers;
    c->trace_frames = frames;
    return 0;
}

static int parse_fault(vcam_config *c, const char *v) {
    if (strcmp(v, "ebusy") == 0) c->open_errno = EBUSY;
    else if (strcmp(v, "eacces") == 0) c->open_errno = EACCES;
    else if (strcmp(v, "enoent") == 0) c->open_errno = ENOENT;
    else if (strncmp(v, "unplug@", 7) == 0) return parse_count(v + 7, &c->unplug_after);
    else return -1;
    return 0;
}

/* replug=never | DELAY | DELAY@PATH (DELAY as for slow=, e.g. 500, 500ms, 2s) */
static int parse_replug(vcam_config *c, char *v) {
    if (strcmp(v, "never") == 0) {
        c->replug_ns = -1;
        c->replug_path[0] = 0;
        return 0;
    }
    char *at = strchr(v, '@');
    if (at) *at++ = 0;
    long ns;
    if (parse_duration_ns(v, &ns)) return -1;
    if (at && (at[0] != '/' || strlen(at) >= sizeof c->replug_path)) return -1;
    c->replug_ns = ns;
    /* back at its own path is a replug in place */
    snprintf(c->replug_path, sizeof c->replug_path, "%s", at && strcmp(at, c->path) != 0 ? at : "");
    return 0;
}

/* byid=NAME, bypath=NAME: one file name (udev's names are long, but fit) */
static int parse_link_name(char *out, size_t cap, const char *v) {
    if (!*v || strlen(v) >= cap || strchr(v, '/') || strcmp(v, ".") == 0 || strcmp(v, "..") == 0) return -1;
    snprintf(out, cap, "%s", v);
    return 0;
}

/* objects=none | START:FRAMES[+START:FRAMES...]: sequence numbers, in order, not overlapping.
 * A bad entry rejects the whole value. */
static int parse_objects(vcam_config *c, char *v) {
    long start[VCAM_MAX_OBJECTS], frames[VCAM_MAX_OBJECTS];
    int n = 0;
    if (strcmp(v, "none") != 0) {
        for (char *save = NULL, *tok = strtok_r(v, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
            char *colon = strchr(tok, ':');
            if (!colon || n == VCAM_MAX_OBJECTS) return -1;
            *colon++ = 0;
            if (parse_count(tok, &start[n]) || parse_count(colon, &frames[n]) || frames[n] == 0 ||
                start[n] > UINT32_MAX || frames[n] > UINT32_MAX)
                return -1;
            if (n > 0 && start[n] < start[n - 1] + frames[n - 1]) return -1; /* out of order or overlapping */
            n++;
        }
        if (n == 0) return -1;
    }
    memcpy(c->object_start, start, sizeof start);
    memcpy(c->object_frames, frames, sizeof frames);
    c->nobjects = n;
    c->objects_set = 1;
    return 0;
}

/* ramp=FRAMES[:LEVELS]: FRAMES >= 1, LEVELS 1..100 (40 when left out) */
static int parse_ramp(vcam_config *c, char *v) {
    long frames, levels = 40;
    char *colon = strchr(v, ':');
    if (colon) *colon++ = 0;
    if (parse_count(v, &frames) || frames == 0 || frames > 1000000) return -1;
    if (colon && (parse_count(colon, &levels) || levels == 0 || levels > 100)) return -1;
    c->ramp_frames = frames;
    c->ramp_levels = (int)levels;
    return 0;
}

static void add_format(vcam_config *c, int f) {
    for (int i = 0; i < c->nformats; i++)
        if (c->formats[i] == f) return;
    c->formats[c->nformats++] = f;
}

/* formats=a+b or formats=a,b (bare format names after formats= join the list).
 * A bad name rejects the whole value: the list stays as it was (the default). */
static int parse_formats(vcam_config *c, char *v) {
    vcam_config list = {.nformats = 0};
    for (char *save = NULL, *tok = strtok_r(v, "+|", &save); tok; tok = strtok_r(NULL, "+|", &save)) {
        int f = format_from_name(tok);
        if (f < 0) return -1;
        add_format(&list, f);
    }
    if (list.nformats == 0) return -1;
    memcpy(c->formats, list.formats, sizeof c->formats);
    c->nformats = list.nformats;
    return 0;
}

static void parse_key(vcam_config *c, char *key, char *value, int *in_formats) {
    int bad = 0;
    *in_formats = 0;
    char shown[128]; /* the parsers cut value up */
    snprintf(shown, sizeof shown, "%s=%s", key, value);
    if (strcmp(key, "card") == 0) {
        snprintf(c->card, sizeof c->card, "%s", value);
    } else if (strcmp(key, "bus") == 0) {
        bad = !*value || strlen(value) >= sizeof c->bus; /* bus_info is 32 bytes with its NUL */
        if (!bad) snprintf(c->bus, sizeof c->bus, "%s", value);
    } else if (strcmp(key, "replug") == 0) {
        bad = parse_replug(c, value);
    } else if (strcmp(key, "byid") == 0) {
        bad = parse_link_name(c->byid, sizeof c->byid, value);
    } else if (strcmp(key, "bypath") == 0) {
        bad = parse_link_name(c->bypath, sizeof c->bypath, value);
    } else if (strcmp(key, "formats") == 0) {
        bad = parse_formats(c, value);
        *in_formats = !bad;
    } else if (strcmp(key, "sizes") == 0) {
        bad = parse_sizes(c, value);
    } else if (strcmp(key, "fault") == 0) {
        bad = parse_fault(c, value);
    } else if (strcmp(key, "slow") == 0) {
        char *dur = NULL;
        bad = strncmp(value, "every:", 6) != 0 || !(dur = strchr(value + 6, ':'));
        if (!bad) {
            *dur++ = 0;
            bad = parse_count(value + 6, &c->slow_every) || c->slow_every == 0 ||
                  parse_duration_ns(dur, &c->slow_ns);
        }
    } else if (strcmp(key, "late") == 0) {
        bad = parse_duration_ns(value, &c->late_ns);
    } else if (strcmp(key, "latency") == 0) {
        bad = parse_duration_ns(value, &c->latency_ns);
    } else if (strcmp(key, "drop") == 0) {
        bad = parse_every(value, &c->drop_every);
    } else if (strcmp(key, "empty") == 0) {
        bad = parse_every(value, &c->empty_every);
    } else if (strcmp(key, "corrupt") == 0) {
        bad = parse_every(value, &c->corrupt_every);
    } else if (strcmp(key, "dark") == 0) {
        bad = parse_count(value, &c->dark_frames);
    } else if (strcmp(key, "focusbusy") == 0) {
        bad = parse_count(value, &c->focus_busy);
    } else if (strcmp(key, "scene") == 0) {
        bad = strcmp(value, "dark") != 0 && strcmp(value, "normal") != 0;
        c->scene_dark = !bad && strcmp(value, "dark") == 0;
    } else if (strcmp(key, "trace") == 0) {
        bad = parse_trace(c, value);
    } else if (strcmp(key, "starve") == 0) {
        char *at = strchr(value, '@');
        bad = !at;
        if (!bad) {
            *at++ = 0;
            bad = parse_count(value, &c->starve_frames) || c->starve_frames == 0 || parse_count(at, &c->starve_seq);
        }
    } else if (strcmp(key, "priority") == 0) {
        bad = strcmp(value, "fixed") != 0 && strcmp(value, "settable") != 0;
        c->priority_fixed = !bad && strcmp(value, "fixed") == 0;
    } else if (strcmp(key, "flash") == 0) {
        /* led | none: the LED control; a duration: the picture flashes every PERIOD (with the LED control) */
        if (strcmp(value, "none") == 0 || strcmp(value, "led") == 0) {
            c->no_flash = strcmp(value, "none") == 0;
        } else {
            bad = parse_duration_ns(value, &c->flash_ns) || c->flash_ns < 1000000;
            if (bad) c->flash_ns = 0;
            else c->no_flash = 0;
        }
    } else if (strcmp(key, "h264controls") == 0) {
        bad = strcmp(value, "on") != 0 && strcmp(value, "off") != 0;
        c->h264_controls = !bad && strcmp(value, "on") == 0;
    } else if (strcmp(key, "dump") == 0) {
        bad = value[0] != '/' || strlen(value) >= sizeof c->dump;
        if (!bad) snprintf(c->dump, sizeof c->dump, "%s", value);
    } else if (strcmp(key, "objects") == 0) {
        bad = parse_objects(c, value);
    } else if (strcmp(key, "ramp") == 0) {
        bad = parse_ramp(c, value);
    } else if (strcmp(key, "noise") == 0) {
        long level;
        bad = parse_count(value, &level) || level > 64;
        if (!bad) c->noise_level = (int)level;
    } else if (strcmp(key, "overrun") == 0) {
        bad = strcmp(value, "drop") != 0 && strcmp(value, "wait") != 0;
        c->overrun_wait = !bad && strcmp(value, "wait") == 0;
    } else {
        warn("unknown key", key);
        return;
    }
    if (bad) {
        warn("bad value", shown);
        /* keep the rest of the device usable: reset what a half parse may have set */
        if (strcmp(key, "slow") == 0) c->slow_every = 0;
        if (strcmp(key, "late") == 0) c->late_ns = 0;
        if (strcmp(key, "latency") == 0) c->latency_ns = 0;
        if (strcmp(key, "drop") == 0) c->drop_every = 0;
        if (strcmp(key, "empty") == 0) c->empty_every = 0;
        if (strcmp(key, "corrupt") == 0) c->corrupt_every = 0;
        if (strcmp(key, "starve") == 0) c->starve_frames = 0;
        if (strcmp(key, "objects") == 0) c->objects_set = c->nobjects = 0;
        if (strcmp(key, "ramp") == 0) c->ramp_frames = 0;
        if (strcmp(key, "noise") == 0) c->noise_level = 0;
    }
}

static int parse_one(char *spec, vcam_config *c, int index) {
    memset(c, 0, sizeof *c);
    c->unplug_after = -1;
    c->replug_ns = -1;
    default_modes(c);
    for (int f = 0; f < VCAM_FORMAT_COUNT; f++) c->formats[f] = f;
    c->nformats = VCAM_FORMAT_COUNT;
    snprintf(c->card, sizeof c->card, "camrec VirtualCamera");

    char *save = NULL;
    char *path = strtok_r(spec, ",", &save);
    if (!path || path[0] != '/' || strlen(path) >= sizeof c->path) {
        if (path && *path) warn("device path (must be absolute)", path);
        return -1;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    if (index > 0) snprintf(c->card, sizeof c->card, "camrec VirtualCamera %d", index + 1);
    snprintf(c->bus, sizeof c->bus, "platform:camrec-vcam-%u", (unsigned char)index);

    int in_formats = 0;
    for (char *tok = strtok_r(NULL, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            int f = format_from_name(tok);
            if (in_formats && f >= 0) add_format(c, f);
            else warn("entry", tok);
            continue;
        }
        *eq = 0;
        parse_key(c, tok, eq + 1, &in_formats);
    }
    /* the motion scene: nothing moves but what objects= brings in */
    c->still = c->objects_set || c->ramp_frames > 0 || c->noise_level > 0;
    return 0;
}

/* A path or link name that two devices would share: the later device's key is ignored. */
static void check_clashes(vcam_config *c, int n) {
    char shown[VCAM_PATH_MAX + 16];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (c[i].replug_path[0] && (strcmp(c[i].replug_path, c[j].path) == 0 ||
                                        (j < i && strcmp(c[i].replug_path, c[j].replug_path) == 0))) {
                snprintf(shown, sizeof shown, "replug=...@%s", c[i].replug_path);
                warn("path another device has", shown);
                c[i].replug_ns = -1;
                c[i].replug_path[0] = 0;
            }
        }
        for (int j = 0; j < i; j++) {
            if (c[i].byid[0] && strcmp(c[i].byid, c[j].byid) == 0) {
                snprintf(shown, sizeof shown, "byid=%s", c[i].byid);
                warn("name another device has", shown);
                c[i].byid[0] = 0;
            }
            if (c[i].bypath[0] && strcmp(c[i].bypath, c[j].bypath) == 0) {
                snprintf(shown, sizeof shown, "bypath=%s", c[i].bypath);
                warn("name another device has", shown);
                c[i].bypath[0] = 0;
            }
        }
    }
}

int vcam_config_parse(const char *spec, vcam_config *out, int max) {
    if (!spec || !*spec) return 0;
    char *copy = strdup(spec);
    if (!copy) return 0;
    int n = 0;
    char *save = NULL;
    for (char *dev = strtok_r(copy, ";", &save); dev && n < max; dev = strtok_r(NULL, ";", &save)) {
        while (*dev == ' ') dev++;
        if (*dev == 0) continue;
        char *one = strdup(dev);
        if (!one) break;
        if (parse_one(one, &out[n], n) == 0) n++;
        free(one);
    }
    free(copy);
    check_clashes(out, n);
    return n;
}
