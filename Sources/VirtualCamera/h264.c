/* H.264 frames as a UVC H.264 camera sends them: Annex-B byte-stream, one access
 * unit per buffer, SPS/PPS repeated before every IDR, an IDR every second or every
 * h264_i_frame_period frames (forced here, no scene-cut IDRs, so tests can predict them). libx264 ultrafast
 * with zerolatency: no B-frames, no lookahead, one thread, so the emulator stays
 * cheap and every input frame yields its access unit at once. */
#define _GNU_SOURCE
#include "vcam.h"

#include <stdlib.h>
#include <string.h>
#include <x264.h>

struct vcam_h264 {
    const vcam_pattern *p;
    x264_t *enc;
    x264_picture_t pic;
    int have_pic;
    int since_idr; /* frames since the last IDR, -1 before the first */
};

vcam_h264 *vcam_h264_new(const vcam_pattern *p, int fps) {
    vcam_h264 *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->p = p;
    h->since_idr = -1;
    x264_param_t par;
    if (x264_param_default_preset(&par, "ultrafast", "zerolatency") < 0) goto fail;
    par.i_width = p->w;
    par.i_height = p->h;
    par.i_csp = X264_CSP_I420;
    par.i_fps_num = (uint32_t)fps;
    par.i_fps_den = 1;
    par.i_timebase_num = 1;
    par.i_timebase_den = (uint32_t)fps;
    par.i_keyint_max = X264_KEYINT_MAX_INFINITE; /* IDRs are forced, at the period asked */
    par.i_keyint_min = fps;
    par.i_scenecut_threshold = 0;
    par.b_repeat_headers = 1;
    par.b_annexb = 1;
    par.i_threads = 1;
    par.b_sliced_threads = 0;
    par.i_log_level = X264_LOG_NONE;
    par.rc.i_rc_method = X264_RC_CRF;
    par.rc.f_rf_constant = 23;
    if (x264_param_apply_profile(&par, "high") < 0) goto fail;
    h->enc = x264_encoder_open(&par);
    if (!h->enc) goto fail;
    if (x264_picture_alloc(&h->pic, X264_CSP_I420, p->w, p->h) < 0) goto fail;
    h->have_pic = 1;
    return h;
fail:
    vcam_h264_free(h);
    return NULL;
}

void vcam_h264_free(vcam_h264 *h) {
    if (!h) return;
    if (h->enc) x264_encoder_close(h->enc);
    if (h->have_pic) x264_picture_clean(&h->pic);
    free(h);
}

size_t vcam_h264_frame(vcam_h264 *h, uint32_t seq, const vcam_fx *fx, int period, uint8_t *dst, size_t cap, int *keyframe) {
    vcam_planes planes = {
        .y = h->pic.img.plane[0], .u = h->pic.img.plane[1], .v = h->pic.img.plane[2],
        .ystride = h->pic.img.i_stride[0], .cstride = h->pic.img.i_stride[1], .chroma_vshift = 1,
    };
    vcam_compose_planar(h->p, seq, fx, &planes);
    h->pic.i_pts = seq;
    int idr = h->since_idr < 0 || h->since_idr + 1 >= period;
    h->pic.i_type = idr ? X264_TYPE_IDR : X264_TYPE_AUTO;
    h->since_idr = idr ? 0 : h->since_idr + 1;
    x264_nal_t *nals;
    int nnal;
    x264_picture_t out;
    int size = x264_encoder_encode(h->enc, &nals, &nnal, &h->pic, &out);
    if (size <= 0 || (size_t)size > cap) return 0;
    /* x264 guarantees the payloads of one call are contiguous */
    memcpy(dst, nals[0].p_payload, (size_t)size);
    *keyframe = out.b_keyframe;
    return (size_t)size;
}
