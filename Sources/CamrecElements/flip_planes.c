// The pixel work of camrecflip: one plane (of I420's three) at a time, byte samples.
//
// Every mapping is the one GStreamer 1.22's videoflip uses for planar YUV, plane by plane
// with each plane's own size, so that the output is bit-exact with it (odd sizes too, where
// the chroma planes are (w+1)/2 x (h+1)/2). What differs is the order of the memory
// accesses: videoflip walks the output a pixel at a time and reads the input down a column
// when turning (a cache miss per pixel); here the quarter turns go by 8x8 blocks inside
// 64x64 tiles (each source cache line is used whole while it is in L1) and the mirrors by
// whole rows, 16 bytes at a time.
#include "flip_planes.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Tiles of the output, in bytes, within which the 8x8 blocks go row by row.
#define TILE 64

// One 8x8 block of a transposing method. `rows[j]` is the source row that output column
// x0 + j reads, already offset to the source column `base`; output row `out[k]` receives
// source column base + k.
static inline void transpose_block(const guint8 *const rows[8], guint8 *const out[8])
{
#if defined(__SSE2__)
    __m128i r0 = _mm_loadl_epi64((const __m128i *)rows[0]), r1 = _mm_loadl_epi64((const __m128i *)rows[1]);
    __m128i r2 = _mm_loadl_epi64((const __m128i *)rows[2]), r3 = _mm_loadl_epi64((const __m128i *)rows[3]);
    __m128i r4 = _mm_loadl_epi64((const __m128i *)rows[4]), r5 = _mm_loadl_epi64((const __m128i *)rows[5]);
    __m128i r6 = _mm_loadl_epi64((const __m128i *)rows[6]), r7 = _mm_loadl_epi64((const __m128i *)rows[7]);
    // Interleave bytes, then pairs, then quads: c0 holds columns 0 and 1 of all 8 rows, etc.
    __m128i a0 = _mm_unpacklo_epi8(r0, r1), a1 = _mm_unpacklo_epi8(r2, r3);
    __m128i a2 = _mm_unpacklo_epi8(r4, r5), a3 = _mm_unpacklo_epi8(r6, r7);
    __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
    __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
    __m128i c0 = _mm_unpacklo_epi32(b0, b2), c1 = _mm_unpackhi_epi32(b0, b2);
    __m128i c2 = _mm_unpacklo_epi32(b1, b3), c3 = _mm_unpackhi_epi32(b1, b3);
    _mm_storel_epi64((__m128i *)out[0], c0);
    _mm_storel_epi64((__m128i *)out[1], _mm_unpackhi_epi64(c0, c0));
    _mm_storel_epi64((__m128i *)out[2], c1);
    _mm_storel_epi64((__m128i *)out[3], _mm_unpackhi_epi64(c1, c1));
    _mm_storel_epi64((__m128i *)out[4], c2);
    _mm_storel_epi64((__m128i *)out[5], _mm_unpackhi_epi64(c2, c2));
    _mm_storel_epi64((__m128i *)out[6], c3);
    _mm_storel_epi64((__m128i *)out[7], _mm_unpackhi_epi64(c3, c3));
#else
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 8; j++)
            out[k][j] = rows[j][k];
#endif
}

void camrec_flip_transpose_plane(guint8 *dst, gint dst_stride, const guint8 *src, gint src_stride,
                                 gint src_width, gint src_height, gboolean flip_rows, gboolean flip_columns)
{
    // Output (x, y) = source (sx(y), sy(x)): the output is src_height wide, src_width high.
    const gint width = src_height, height = src_width;
#define SX(y) (flip_columns ? src_width - 1 - (y) : (y))
#define SY(x) (flip_rows ? src_height - 1 - (x) : (x))
    for (gint ty = 0; ty < height; ty += TILE) {
        const gint ty_end = MIN(ty + TILE, height);
        for (gint tx = 0; tx < width; tx += TILE) {
            const gint tx_end = MIN(tx + TILE, width);
            for (gint y0 = ty; y0 < ty_end; y0 += 8) {
                for (gint x0 = tx; x0 < tx_end; x0 += 8) {
                    if (y0 + 8 <= ty_end && x0 + 8 <= tx_end) {
                        // The block's 8 output rows read 8 neighbouring source columns from base.
                        const gint base = flip_columns ? src_width - 8 - y0 : y0;
                        const guint8 *rows[8];
                        guint8 *out[8];
                        for (int j = 0; j < 8; j++) {
                            rows[j] = src + (gsize)SY(x0 + j) * src_stride + base;
                            out[j] = dst + (gsize)(flip_columns ? y0 + 7 - j : y0 + j) * dst_stride + x0;
                        }
                        transpose_block(rows, out);
                    } else {
                        // A partial block at the right or bottom edge.
                        for (gint y = y0; y < MIN(y0 + 8, ty_end); y++)
                            for (gint x = x0; x < MIN(x0 + 8, tx_end); x++)
                                dst[(gsize)y * dst_stride + x] = src[(gsize)SY(x) * src_stride + SX(y)];
                    }
                }
            }
        }
    }
#undef SX
#undef SY
}

// One row, right to left.
static inline void reverse_row(guint8 *dst, const guint8 *src, gint width)
{
    gint x = 0;
#if defined(__SSE2__)
    for (; x + 16 <= width; x += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + width - x - 16));
        v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));      // the four 32-bit words reversed
        v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));    // the 16-bit halves of each swapped
        v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
        v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8)); // the bytes of each half swapped
        _mm_storeu_si128((__m128i *)(dst + x), v);
    }
#endif
    for (; x < width; x++)
        dst[x] = src[width - 1 - x];
}

void camrec_flip_mirror_plane(guint8 *dst, gint dst_stride, const guint8 *src, gint src_stride,
                              gint width, gint height, gboolean flip_rows, gboolean flip_columns)
{
    for (gint y = 0; y < height; y++) {
        const guint8 *row = src + (gsize)(flip_rows ? height - 1 - y : y) * src_stride;
        guint8 *out = dst + (gsize)y * dst_stride;
        if (flip_columns)
            reverse_row(out, row, width);
        else
            memcpy(out, row, (size_t)width);
    }
}
