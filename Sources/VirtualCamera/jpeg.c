/* MJPEG frames: planar 4:2:2 (what UVC cameras send), baseline JPEG at quality 85.
 *
 * Compressing 1080p costs ~5 ms a frame, which would count against the recording
 * process in benchmarks, so frames are spliced instead: the background below the
 * stamp band repeats every VCAM_CYCLE frames, so its compressed scan is cached per
 * phase, and only the band is entropy-coded per frame, by hand. That is cheap and
 * exact because every 8x8 block of the band is flat (only a DC coefficient), and
 * the band ends in a mid-grey MCU whose DC is 0, which is also the predictor a
 * fresh scan starts from: the cached scan of the body (a separate W x (H-B)
 * image) can follow the band's bits directly, shifted to the band's bit position.
 * When that is not possible (odd tables, restart markers, darkened frames, frames of
 * the motion scene with an object, a ramp or noise) the whole frame is compressed with
 * libturbojpeg instead; both give the same picture. */
#define _GNU_SOURCE
#include "vcam.h"

#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#define VCAM_JPEG_QUALITY 85

typedef struct {
    uint16_t code[256];
    uint8_t len[256]; /* 0: symbol has no code */
} huff;

/* One cached background phase. */
typedef struct {
    uint8_t *header; /* SOI .. end of SOS, SOF height patched to the full frame */
    size_t header_len;
    uint8_t *scan;   /* the body's entropy-coded bytes with stuffing removed */
    size_t scan_len;
    int ydc_q;       /* luma DC quantiser */
    huff ydc, yac, cdc, cac;
} body_cache;

struct vcam_jpeg {
    const vcam_pattern *p;
    tjhandle tj;
    vcam_planes frame; /* scratch 4:2:2 picture for full compression */
    uint8_t *out;      /* turbojpeg's output buffer (tjBufSize, never reallocated) */
    unsigned long out_cap;
    body_cache cache[VCAM_CYCLE];
    int splice_broken; /* the encoder's output cannot be spliced: always compress fully */
};

static void cache_clear(vcam_jpeg *j) {
    for (int i = 0; i < VCAM_CYCLE; i++) {
        free(j->cache[i].header);
        free(j->cache[i].scan);
        memset(&j->cache[i], 0, sizeof j->cache[i]);
    }
}

vcam_jpeg *vcam_jpeg_new(const vcam_pattern *p) {
    vcam_jpeg *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->p = p;
    j->tj = tjInitCompress();
    size_t w = (size_t)p->w, h = (size_t)p->h;
    j->frame.ystride = p->w;
    j->frame.cstride = p->w / 2;
    j->frame.y = malloc(w * h);
    j->frame.u = malloc(w / 2 * h);
    j->frame.v = malloc(w / 2 * h);
    j->out_cap = tjBufSize(p->w, p->h, TJSAMP_422);
    j->out = j->out_cap ? tjAlloc((int)j->out_cap) : NULL;
    if (!j->tj || !j->frame.y || !j->frame.u || !j->frame.v || !j->out) {
        vcam_jpeg_free(j);
        return NULL;
    }
    return j;
}

void vcam_jpeg_free(vcam_jpeg *j) {
    if (!j) return;
    cache_clear(j);
    if (j->tj) tjDestroy(j->tj);
    free(j->frame.y);
    free(j->frame.u);
    free(j->frame.v);
    tjFree(j->out);
    free(j);
}

void vcam_jpeg_invalidate(vcam_jpeg *j) { cache_clear(j); }

/* ---- parsing what libturbojpeg wrote ---- */

static unsigned be16(const uint8_t *b) { return (unsigned)b[0] << 8 | b[1]; }

/* Canonical Huffman codes from a DHT table (JPEG Annex C). */
static void huff_build(huff *h, const uint8_t bits[16], const uint8_t *vals) {
    memset(h, 0, sizeof *h);
    unsigned code = 0, k = 0;
    for (int l = 1; l <= 16; l++) {
        for (int i = 0; i < bits[l - 1]; i++, k++) {
            h->code[vals[k]] = (uint16_t)code++;
            h->len[vals[k]] = (uint8_t)l;
        }
        code <<= 1;
    }
}

/* Fills c from a W x (H-B) JPEG; returns 0 if it can be spliced. */
static int parse_body(const vcam_jpeg *j, const uint8_t *b, size_t n, body_cache *c) {
    huff dc[4], ac[4];
    int q[4] = {0}, have_dc[4] = {0}, have_ac[4] = {0};
    int comp_q[3] = {0}, comp_dc[3] = {0}, comp_ac[3] = {0};
    size_t sof_height = 0, pos = 2;
    if (n < 4 || b[0] != 0xFF || b[1] != 0xD8) return -1;
    for (;;) {
        if (pos + 4 > n || b[pos] != 0xFF) return -1;
        unsigned marker = b[pos + 1], len = be16(b + pos + 2);
        const uint8_t *seg = b + pos + 4;
        if (pos + 2 + len > n || len < 2) return -1;
        size_t seglen = len - 2;
        if (marker == 0xDB) { /* DQT */
            for (size_t i = 0; i + 65 <= seglen; i += 65) {
                if (seg[i] >> 4) return -1; /* 16-bit tables: not from this encoder */
                q[seg[i] & 3] = seg[i + 1];
            }
        } else if (marker == 0xC4) { /* DHT */
            for (size_t i = 0; i + 17 <= seglen;) {
                int cls = seg[i] >> 4, id = seg[i] & 3;
                unsigned count = 0;
                for (int l = 0; l < 16; l++) count += seg[i + 1 + l];
                if (i + 17 + count > seglen) return -1;
                huff_build(cls ? &ac[id] : &dc[id], seg + i + 1, seg + i + 17);
                (cls ? have_ac : have_dc)[id] = 1;
                i += 17 + count;
            }
        } else if (marker == 0xC0) { /* SOF0: 3 components, Y 2x1, Cb/Cr 1x1 */
            if (seglen < 15 || seg[5] != 3 || seg[7] != 0x21 || seg[10] != 0x11 || seg[13] != 0x11) return -1;
            if (be16(seg + 3) != (unsigned)j->p->w) return -1;
            for (int k = 0; k < 3; k++) comp_q[k] = seg[8 + 3 * k] & 3;
            sof_height = pos + 4 + 1;
        } else if (marker == 0xDD || (marker >= 0xC1 && marker <= 0xCF && marker != 0xC4)) {
            return -1; /* restart intervals or a non-baseline process */
        } else if (marker == 0xDA) { /* SOS: must be the one interleaved scan */
            if (seglen < 10 || seg[0] != 3 || !sof_height) return -1;
            for (int k = 0; k < 3; k++) comp_dc[k] = seg[2 + 2 * k] >> 4, comp_ac[k] = seg[2 + 2 * k] & 3;
            pos += 2 + len;
            break;
        }
        pos += 2 + len;
    }
    if (!have_dc[comp_dc[0]] || !have_ac[comp_ac[0]] || !have_dc[comp_dc[1]] || !have_ac[comp_ac[1]] ||
        comp_dc[1] != comp_dc[2] || comp_ac[1] != comp_ac[2] || !q[comp_q[0]])
        return -1;
    c->ydc = dc[comp_dc[0]], c->yac = ac[comp_ac[0]], c->cdc = dc[comp_dc[1]], c->cac = ac[comp_ac[1]];
    c->ydc_q = q[comp_q[0]];
    if (!c->yac.len[0] || !c->cac.len[0] || !c->cdc.len[0]) return -1; /* EOB and "DC unchanged" */

    /* entropy data up to the EOI that ends the file, unstuffed */
    if (n < pos + 2 || b[n - 2] != 0xFF || b[n - 1] != 0xD9) return -1;
    c->header = malloc(pos);
    c->scan = malloc(n - 2 - pos);
    if (!c->header || !c->scan) return -1;
    memcpy(c->header, b, pos);
    c->header_len = pos;
    c->header[sof_height] = (uint8_t)(j->p->h >> 8);
    c->header[sof_height + 1] = (uint8_t)j->p->h;
    size_t out = 0;
    for (size_t i = pos; i < n - 2; i++) {
        c->scan[out++] = b[i];
        if (b[i] == 0xFF) {
            if (i + 1 >= n - 2 || b[i + 1] != 0x00) return -1; /* a marker inside the scan */
            i++;
        }
    }
    c->scan_len = out;
    return 0;
}

/* Compresses rows [B, H) of the background at this phase, straight from the strip. */
static int fill_cache(vcam_jpeg *j, uint32_t seq, body_cache *c) {
    const vcam_pattern *p = j->p;
    int band = p->block, off = vcam_pattern_offset(p, seq);
    if (band >= p->h) return -1;
    size_t sw = (size_t)p->w * 2;
    const unsigned char *planes[3] = {
        p->sy + (size_t)band * sw + (size_t)off,
        p->su + (size_t)band * sw / 2 + (size_t)off / 2,
        p->sv + (size_t)band * sw / 2 + (size_t)off / 2,
    };
    int strides[3] = {(int)sw, (int)sw / 2, (int)sw / 2};
    unsigned long size = j->out_cap;
    if (tjCompressFromYUVPlanes(j->tj, planes, p->w, strides, p->h - band, TJSAMP_422, &j->out, &size,
                                VCAM_JPEG_QUALITY, TJFLAG_NOREALLOC) != 0)
        return -1;
    if (parse_body(j, j->out, size, c) != 0) {
        free(c->header);
        free(c->scan);
        memset(c, 0, sizeof *c);
        return -1;
    }
    return 0;
}

/* ---- writing the spliced frame ---- */

typedef struct {
    uint8_t *dst, *end;
    uint64_t acc;
    int nbits;
    int overflow;
} bitwriter;

static inline void emit(bitwriter *w, uint8_t byte) {
    if (w->dst + 2 > w->end) {
        w->overflow = 1;
        return;
    }
    *w->dst++ = byte;
    if (byte == 0xFF) *w->dst++ = 0x00; /* byte stuffing */
}

static inline void put(bitwriter *w, unsigned code, int len) {
    w->acc = w->acc << len | code;
    w->nbits += len;
    while (w->nbits >= 8) {
        w->nbits -= 8;
        emit(w, (uint8_t)(w->acc >> w->nbits));
    }
}

/* A DC difference: its category's code, then the category's low bits (JPEG F.1.2.1). */
static void put_dc(bitwriter *w, const huff *h, int diff) {
    int mag = diff < 0 ? -diff : diff, cat = 0;
    while (mag >> cat) cat++;
    put(w, h->code[cat], h->len[cat]);
    if (cat) put(w, (unsigned)(diff < 0 ? diff + (1 << cat) - 1 : diff) & ((1u << cat) - 1), cat);
}

static int band_dc_ok(const body_cache *c, int diff) {
    int mag = diff < 0 ? -diff : diff, cat = 0;
    while (mag >> cat) cat++;
    return cat <= 11 && c->ydc.len[cat];
}

static size_t splice(vcam_jpeg *j, const body_cache *c, uint32_t seq, uint8_t *dst, size_t cap) {
    const vcam_pattern *p = j->p;
    if (cap < c->header_len + 16) return 0;
    memcpy(dst, c->header, c->header_len);
    bitwriter w = {.dst = dst + c->header_len, .end = dst + cap - 2};
    uint8_t levels[VCAM_STAMP_BLOCKS];
    vcam_stamp_levels(seq, levels);
    int mcus = (p->w + 15) / 16, pred = 0;
    for (int row = 0; row < p->block / 8; row++) {
        for (int m = 0; m < mcus; m++) {
            for (int half = 0; half < 2; half++) { /* the two luma blocks of a 16x8 MCU */
                int x = m * 16 + half * 8, k = x / p->block;
                int y = x >= p->w ? VCAM_GREY : k < VCAM_STAMP_BLOCKS ? levels[k] : VCAM_GREY;
                int num = 8 * (y - 128), q = c->ydc_q;
                int dc = num >= 0 ? (num + q / 2) / q : -((-num + q / 2) / q);
                if (!band_dc_ok(c, dc - pred)) return 0;
                put_dc(&w, &c->ydc, dc - pred);
                pred = dc;
                put(&w, c->yac.code[0], c->yac.len[0]); /* EOB: all AC coefficients are 0 */
            }
            for (int chroma = 0; chroma < 2; chroma++) { /* neutral: DC 0, predictor stays 0 */
                put(&w, c->cdc.code[0], c->cdc.len[0]);
                put(&w, c->cac.code[0], c->cac.len[0]);
            }
        }
    }
    if (pred != 0) return 0; /* the band must end on mid grey for the body to follow */
    for (size_t i = 0; i < c->scan_len && !w.overflow; i++) put(&w, c->scan[i], 8);
    if (w.nbits) put(&w, (1u << (8 - w.nbits)) - 1, 8 - w.nbits); /* pad with 1 bits */
    if (w.overflow) return 0;
    *w.dst++ = 0xFF;
    *w.dst++ = 0xD9;
    return (size_t)(w.dst - dst);
}

static size_t compress_full(vcam_jpeg *j, uint32_t seq, const vcam_fx *fx, uint8_t *dst, size_t cap) {
    vcam_compose_planar(j->p, seq, fx, &j->frame);
    const unsigned char *planes[3] = {j->frame.y, j->frame.u, j->frame.v};
    int strides[3] = {j->frame.ystride, j->frame.cstride, j->frame.cstride};
    unsigned long size = j->out_cap;
    if (tjCompressFromYUVPlanes(j->tj, planes, j->p->w, strides, j->p->h, TJSAMP_422, &j->out, &size,
                                VCAM_JPEG_QUALITY, TJFLAG_NOREALLOC) != 0 ||
        size > cap)
        return 0;
    memcpy(dst, j->out, size);
    return size;
}

size_t vcam_jpeg_frame(vcam_jpeg *j, uint32_t seq, const vcam_fx *fx, uint8_t *dst, size_t cap) {
    if (vcam_fx_plain(fx) && !j->splice_broken && j->p->block % 8 == 0) {
        body_cache *c = &j->cache[vcam_pattern_phase(j->p, seq)];
        if (!c->scan && fill_cache(j, seq, c) != 0) j->splice_broken = 1;
        size_t n = c->scan ? splice(j, c, seq, dst, cap) : 0;
        if (n) return n;
    }
    return compress_full(j, seq, fx, dst, cap);
}

/* ---- corrupt=every:N: a frame cut short, as cheap UVC cameras send them ---- */

/* Offset of the first entropy-coded byte (after the SOS segment), or 0. */
static size_t scan_start(const uint8_t *b, size_t n) {
    size_t pos = 2;
    while (pos + 4 <= n && b[pos] == 0xFF) {
        size_t next = pos + 2 + be16(b + pos + 2);
        if (b[pos + 1] == 0xDA) return next < n ? next : 0;
        pos = next;
    }
    return 0;
}

void vcam_jpeg_truncate(uint8_t *jpeg, size_t n, uint32_t seq) {
    size_t start = scan_start(jpeg, n);
    if (start == 0 || n < start + 4) return; /* not a JPEG this encoder wrote: leave it */
    /* The scan codes rows top down, so the stamp band (the top rows, flat, a few bytes
     * per MCU) lies well inside the first half. */
    size_t cut = start + (n - 2 - start) / 2;
    if (jpeg[cut - 1] == 0xFF) cut++; /* keep a stuffed FF 00 whole: no marker at the seam */
    uint32_t x = seq * 2654435761u + 1; /* xorshift32, reproducible per frame */
    for (size_t i = cut; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        jpeg[i] = (uint8_t)((x >> 8) % 255); /* never 0xFF: the garbage holds no marker, no EOI */
    }
}
