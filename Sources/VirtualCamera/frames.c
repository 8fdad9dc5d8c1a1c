/* The picture every format is made from.
 *
 * Top band (rows 0..B-1, B = vcam_stamp_block(width)): the frame stamp, a row of
 * 35 square blocks of B x B pixels: [white][black][32 bits of the V4L2 sequence
 * number, most significant first, white = 1][even parity], then mid grey to the
 * right edge. B is a multiple of 8 (16 from 640 px wide up), so every 8x8 DCT block
 * of the band is flat and JPEG/H.264 keep it crisp. docs/virtual-camera.md
 * documents this layout for the tests that decode it.
 *
 * Below the band: hue bars with a vertical luma ramp, a grid and a white bar,
 * rendered once into a strip twice the frame width; frame n shows the window at
 * an offset that advances every frame (a 32-frame cycle), so producing a frame is
 * one memcpy per row. Controls re-render the strip.
 *
 * The motion scene (objects=, ramp=, noise=) stops the scroll and draws, per frame and
 * in this order: a dark object (objects=), the dark=N gain, then the ramp's lift and the
 * noise on luma (vcam_fx). All below the band: the stamp always reads. */
#define _GNU_SOURCE
#include "vcam.h"

#include <stdlib.h>
#include <string.h>

int vcam_stamp_block(int width) {
    int b = width / 40 / 16 * 16;
    return b > 0 ? b : 8;
}

void vcam_stamp_levels(uint32_t seq, uint8_t out[VCAM_STAMP_BLOCKS]) {
    out[0] = VCAM_Y_WHITE;
    out[1] = VCAM_Y_BLACK;
    for (int i = 0; i < 32; i++) out[2 + i] = (seq >> (31 - i)) & 1 ? VCAM_Y_WHITE : VCAM_Y_BLACK;
    out[34] = __builtin_popcount(seq) & 1 ? VCAM_Y_WHITE : VCAM_Y_BLACK;
}

static uint8_t clamp8(double v, double lo, double hi) {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (uint8_t)(v + 0.5);
}

/* Background pixel at column x (0..w-1) of the pattern period, row y. */
static void pattern_pixel(int w, int h, int x, int y, const vcam_look *look, double *Y, double *U,
                          double *V) {
    if (look->zoom > 100) { /* zoom_absolute 100..400: the middle of the scene, magnified */
        x = w / 2 + (x - w / 2) * 100 / look->zoom;
        y = h / 2 + (y - h / 2) * 100 / look->zoom;
    }
    double hue = 6.0 * x / w, s = 0.55, v = 0.85;
    int sector = (int)hue;
    double f = hue - sector, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (sector) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    double shade = 1.0 - 0.45 * y / h;      /* vertical ramp */
    int grid = w / 16;
    if (x % grid < 2 || y % grid < 2) shade *= 0.55;
    r *= shade, g *= shade, b *= shade;
    double yy = 16 + 219 * (0.299 * r + 0.587 * g + 0.114 * b);
    double cb = 128 + 224 * (-0.168736 * r - 0.331264 * g + 0.5 * b);
    double cr = 128 + 224 * (0.5 * r - 0.418688 * g - 0.081312 * b);
    if (abs(x - w / 2) < w / 40) yy = 235, cb = cr = 128; /* the moving white bar */
    /* the light that reaches the sensor: a dark scene has half; the LED (on, or auto in a
     * dark scene) adds some; a manual exposure scales it (250 = 25 ms is the normal
     * picture); auto-exposure makes up for a dark scene only when it may lower the frame
     * rate (exposure_auto_priority), else it stays at half */
    double light = look->scene_dark ? 0.5 : 1.0;
    if (look->led_mode == 1 || (look->led_mode == 3 && look->scene_dark)) light += 0.15;
    if (look->exposure_auto == V4L2_EXPOSURE_MANUAL) light *= look->exposure_absolute / 250.0;
    else if (vcam_look_slows_rate(look)) light = 1.0;
    light *= 1.0 + look->gain / 100.0;
    yy = 16 + (yy - 16) * light;
    double k = look->contrast / 50.0, sat = k * look->saturation / 50.0;
    yy = 128 + (yy - 128) * k + look->brightness;
    /* white balance: the scene is lit at 5000 K; a camera set to a higher temperature than
     * the light shows it orange (Cr up, Cb down), a lower one blue; automatic is neutral */
    double tint = look->wb_auto ? 0 : (look->wb_temperature - 5000) / 1500.0 * 24.0;
    *Y = yy;
    *U = 128 + (cb - 128) * sat - tint;
    *V = 128 + (cr - 128) * sat + tint;
}

int vcam_pattern_init(vcam_pattern *p, int w, int h, int yuyv, const vcam_look *look) {
    memset(p, 0, sizeof *p);
    p->w = w;
    p->h = h;
    p->block = vcam_stamp_block(w);
    p->yuyv = yuyv;
    size_t sw = (size_t)w * 2; /* strip width in pixels */
    if (yuyv) {
        p->syuyv = malloc(sw * 2 * (size_t)h);
        if (!p->syuyv) return -1;
    } else {
        p->sy = malloc(sw * (size_t)h);
        p->su = malloc(sw / 2 * (size_t)h);
        p->sv = malloc(sw / 2 * (size_t)h);
        if (!p->sy || !p->su || !p->sv) {
            vcam_pattern_free(p);
            return -1;
        }
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x += 2) {
            double y0, u0, v0, y1, u1, v1;
            pattern_pixel(w, h, x, y, look, &y0, &u0, &v0);
            pattern_pixel(w, h, x + 1, y, look, &y1, &u1, &v1);
            uint8_t Y0 = clamp8(y0, 16, 235), Y1 = clamp8(y1, 16, 235);
            uint8_t U = clamp8((u0 + u1) / 2, 16, 240), V = clamp8((v0 + v1) / 2, 16, 240);
            for (size_t rep = 0; rep < 2; rep++) { /* the strip holds two periods */
                size_t sx = (size_t)x + rep * (size_t)w;
                if (yuyv) {
                    uint8_t *d = p->syuyv + (size_t)y * sw * 2 + sx * 2;
                    d[0] = Y0, d[1] = U, d[2] = Y1, d[3] = V;
                } else {
                    p->sy[(size_t)y * sw + sx] = Y0;
                    p->sy[(size_t)y * sw + sx + 1] = Y1;
                    p->su[(size_t)y * sw / 2 + sx / 2] = U;
                    p->sv[(size_t)y * sw / 2 + sx / 2] = V;
                }
            }
        }
    }
    return 0;
}

void vcam_pattern_free(vcam_pattern *p) {
    free(p->sy);
    free(p->su);
    free(p->sv);
    free(p->syuyv);
    memset(p, 0, sizeof *p);
}

int vcam_pattern_phase(const vcam_pattern *p, uint32_t seq) {
    return p->still ? 0 : (int)(seq % VCAM_CYCLE);
}

int vcam_pattern_offset(const vcam_pattern *p, uint32_t seq) {
    return (int)((long)vcam_pattern_phase(p, seq) * p->w / VCAM_CYCLE) & ~1;
}

/* ---- the motion scene ---- */

#define VCAM_Y_OBJECT 40           /* the object: dark grey, neutral chroma */
#define VCAM_NOISE_TABLE 65536     /* noise values; a row reads up to 4096 more */
#define VCAM_NOISE_ROW_STEP 4099u  /* odd: the rows of a frame start at different places */

int8_t *vcam_noise_new(int level) {
    if (level <= 0) return NULL;
    int8_t *t = malloc(VCAM_NOISE_TABLE + 4096);
    if (!t) return NULL;
    uint32_t x = 0x9E3779B9u; /* xorshift32: the same noise in every run */
    for (size_t i = 0; i < VCAM_NOISE_TABLE + 4096; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        t[i] = (int8_t)((int)((x >> 8) % (uint32_t)(2 * level + 1)) - level);
    }
    return t;
}

vcam_fx vcam_frame_fx(const vcam_config *cfg, uint32_t seq, int gain, const int8_t *noise) {
    vcam_fx fx = {.gain = gain};
    if (gain == VCAM_FLASH) return fx;
    for (int i = 0; i < cfg->nobjects; i++) {
        if ((long)seq >= cfg->object_start[i] && (long)seq - cfg->object_start[i] < cfg->object_frames[i]) {
            fx.object_step = (long)seq - cfg->object_start[i];
            fx.object_steps = cfg->object_frames[i];
        }
    }
    if (cfg->ramp_frames > 0) { /* a triangle: up over ramp_frames, down over ramp_frames */
        long t = (long)seq % (2 * cfg->ramp_frames);
        long up = t <= cfg->ramp_frames ? t : 2 * cfg->ramp_frames - t;
        fx.lift = (int)(cfg->ramp_levels * up / cfg->ramp_frames);
    }
    if (noise) {
        uint32_t h = seq * 2654435761u;
        fx.noise = noise;
        fx.noise_base = (h ^ h >> 16) % VCAM_NOISE_TABLE;
    }
    return fx;
}

void vcam_object_rect(const vcam_pattern *p, long k, long n, int rect[4]) {
    int ow = p->w / 4 & ~1, oh = p->h / 4 & ~1, y = (p->h - oh) / 2 & ~1;
    if (y < p->block) y = p->block; /* small pictures: never over the stamp */
    if (y + oh > p->h) oh = (p->h - y) & ~1;
    /* left edge from w/8 in the first frame to 5w/8 in the last: always whole in the picture */
    int x = (int)(p->w / 8 + (n > 1 ? (long long)(p->w / 2) * k / (n - 1) : 0)) & ~1;
    rect[0] = x, rect[1] = y, rect[2] = oh > 0 ? ow : 0, rect[3] = oh;
}

/* The object's columns [*x0, *x1) in row y (empty when it is not there). */
static void object_span(const int rect[4], int y, int *x0, int *x1) {
    int in = rect[2] > 0 && y >= rect[1] && y < rect[1] + rect[3];
    *x0 = in ? rect[0] : 0;
    *x1 = in ? rect[0] + rect[2] : 0;
}

/* ramp= and noise= on row y's luma, every step-th byte from d, kept in 16..235 */
static void light_row(uint8_t *d, int w, int step, const vcam_fx *fx, int y) {
    if (fx->noise) {
        const int8_t *n = fx->noise + (fx->noise_base + (uint32_t)y * VCAM_NOISE_ROW_STEP) % VCAM_NOISE_TABLE;
        for (int x = 0; x < w; x++, d += step) {
            int v = *d + fx->lift + n[x];
            *d = (uint8_t)(v < 16 ? 16 : v > 235 ? 235 : v);
        }
    } else if (fx->lift) {
        for (int x = 0; x < w; x++, d += step) {
            int v = *d + fx->lift;
            *d = (uint8_t)(v < 16 ? 16 : v > 235 ? 235 : v);
        }
    }
}

void vcam_band_luma(const vcam_pattern *p, uint32_t seq, int x, uint8_t *y_out) {
    uint8_t levels[VCAM_STAMP_BLOCKS];
    vcam_stamp_levels(seq, levels);
    int k = x / p->block;
    *y_out = k < VCAM_STAMP_BLOCKS ? levels[k] : VCAM_GREY;
}

static void band_row(const vcam_pattern *p, const uint8_t levels[VCAM_STAMP_BLOCKS], uint8_t *row) {
    int x = 0;
    for (int k = 0; k < VCAM_STAMP_BLOCKS && x < p->w; k++) {
        int n = p->block < p->w - x ? p->block : p->w - x;
        memset(row + x, levels[k], (size_t)n);
        x += n;
    }
    if (x < p->w) memset(row + x, VCAM_GREY, (size_t)(p->w - x));
}

static inline uint8_t darken(uint8_t v, int centre, int gain) {
    return (uint8_t)(centre + (((int)v - centre) * gain >> 8));
}

void vcam_compose_yuyv(const vcam_pattern *p, uint32_t seq, const vcam_fx *fx, uint8_t *dst) {
    size_t stride = (size_t)p->w * 2, sstride = stride * 2;
    int band = p->block < p->h ? p->block : p->h, gain = fx->gain, rect[4] = {0};
    uint8_t levels[VCAM_STAMP_BLOCKS], row[8192];
    vcam_stamp_levels(seq, levels);
    band_row(p, levels, row);
    for (int y = 0; y < band; y++) {
        uint8_t *d = dst + (size_t)y * stride;
        for (int x = 0; x < p->w; x++) d[2 * x] = row[x], d[2 * x + 1] = VCAM_GREY;
    }
    if (fx->object_steps) vcam_object_rect(p, fx->object_step, fx->object_steps, rect);
    size_t off = (size_t)vcam_pattern_offset(p, seq) * 2;
    for (int y = band; y < p->h; y++) {
        uint8_t *d = dst + (size_t)y * stride;
        if (gain == VCAM_FLASH) {
            for (size_t i = 0; i < stride; i += 2) d[i] = VCAM_Y_WHITE, d[i + 1] = VCAM_GREY;
            continue;
        }
        memcpy(d, p->syuyv + (size_t)y * sstride + off, stride);
        int x0, x1;
        object_span(rect, y, &x0, &x1);
        for (int x = x0; x < x1; x++) d[2 * x] = VCAM_Y_OBJECT, d[2 * x + 1] = VCAM_GREY;
        if (gain >= 0 && gain < 256)
            for (size_t i = 0; i < stride; i += 2) d[i] = darken(d[i], 16, gain), d[i + 1] = darken(d[i + 1], 128, gain);
        light_row(d, p->w, 2, fx, y);
    }
}

void vcam_compose_planar(const vcam_pattern *p, uint32_t seq, const vcam_fx *fx, const vcam_planes *dst) {
    size_t sw = (size_t)p->w * 2, cw = (size_t)p->w / 2;
    int band = p->block < p->h ? p->block : p->h, gain = fx->gain, rect[4] = {0};
    uint8_t levels[VCAM_STAMP_BLOCKS];
    vcam_stamp_levels(seq, levels);
    for (int y = 0; y < band; y++) band_row(p, levels, dst->y + (size_t)y * dst->ystride);
    if (fx->object_steps) vcam_object_rect(p, fx->object_step, fx->object_steps, rect);
    size_t off = (size_t)vcam_pattern_offset(p, seq);
    int flash = gain == VCAM_FLASH;
    for (int y = band; y < p->h; y++) {
        uint8_t *d = dst->y + (size_t)y * dst->ystride;
        if (flash) {
            memset(d, VCAM_Y_WHITE, (size_t)p->w);
            continue;
        }
        memcpy(d, p->sy + (size_t)y * sw + off, (size_t)p->w);
        int x0, x1;
        object_span(rect, y, &x0, &x1);
        if (x1 > x0) memset(d + x0, VCAM_Y_OBJECT, (size_t)(x1 - x0));
        if (gain < 256)
            for (int x = 0; x < p->w; x++) d[x] = darken(d[x], 16, gain);
        light_row(d, p->w, 1, fx, y);
    }
    int ch = p->h >> dst->chroma_vshift, cband = band >> dst->chroma_vshift;
    for (int r = 0; r < ch; r++) {
        uint8_t *du = dst->u + (size_t)r * dst->cstride, *dv = dst->v + (size_t)r * dst->cstride;
        if (r < cband || flash) {
            memset(du, VCAM_GREY, cw);
            memset(dv, VCAM_GREY, cw);
            continue;
        }
        size_t srow = (size_t)(r << dst->chroma_vshift) * sw / 2 + off / 2;
        memcpy(du, p->su + srow, cw);
        memcpy(dv, p->sv + srow, cw);
        int x0, x1;
        object_span(rect, r << dst->chroma_vshift, &x0, &x1);
        if (x1 > x0) {
            memset(du + x0 / 2, VCAM_GREY, (size_t)(x1 - x0) / 2);
            memset(dv + x0 / 2, VCAM_GREY, (size_t)(x1 - x0) / 2);
        }
        if (gain < 256)
            for (size_t x = 0; x < cw; x++) du[x] = darken(du[x], 128, gain), dv[x] = darken(dv[x], 128, gain);
    }
}
