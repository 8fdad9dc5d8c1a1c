// camrecflip: turns and mirrors I420 video, as videoflip's video-direction does (the same
// method nicks and the same pixels), several times faster (see flip_planes.c).
//
//   ... ! videoconvert ! video/x-raw,format=I420 ! camrecflip method=90r ! ...
//
// The quarter turns and diagonal mirrors swap width and height (and invert the pixel
// aspect ratio) in transform_caps, as videoflip does; every other caps field, colorimetry
// included, passes through unchanged. "identity" is a pass-through.
#include "camrecflip.h"

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "flip_planes.h"

GST_DEBUG_CATEGORY_STATIC(camrec_flip_debug);
#define GST_CAT_DEFAULT camrec_flip_debug

struct _CamrecFlip {
    GstVideoFilter parent;
    GstVideoOrientationMethod method;   // the property (object lock)
    GstVideoOrientationMethod active;   // what the negotiated caps were made for (streaming thread)
};

G_DEFINE_TYPE(CamrecFlip, camrec_flip, GST_TYPE_VIDEO_FILTER)

enum { PROP_0, PROP_METHOD };

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("I420")));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("I420")));

static gboolean swaps_dimensions(GstVideoOrientationMethod method)
{
    return method == GST_VIDEO_ORIENTATION_90R || method == GST_VIDEO_ORIENTATION_90L
        || method == GST_VIDEO_ORIENTATION_UL_LR || method == GST_VIDEO_ORIENTATION_UR_LL;
}

static void camrec_flip_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    CamrecFlip *self = CAMREC_FLIP(object);
    if (id != PROP_METHOD) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
        return;
    }
    GstVideoOrientationMethod method = g_value_get_enum(value);
    // "auto" (from the stream's orientation tag) and "custom" are videoflip's; not needed here.
    if (method == GST_VIDEO_ORIENTATION_AUTO || method == GST_VIDEO_ORIENTATION_CUSTOM) {
        GST_WARNING_OBJECT(self, "method auto and custom are not supported: using identity");
        method = GST_VIDEO_ORIENTATION_IDENTITY;
    }
    GST_OBJECT_LOCK(self);
    gboolean changed = method != self->method;
    self->method = method;
    GST_OBJECT_UNLOCK(self);
    if (changed)
        gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void camrec_flip_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    CamrecFlip *self = CAMREC_FLIP(object);
    if (id != PROP_METHOD) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
        return;
    }
    GST_OBJECT_LOCK(self);
    g_value_set_enum(value, self->method);
    GST_OBJECT_UNLOCK(self);
}

// The other side's caps: width and height swapped, and the pixel aspect ratio inverted,
// for the methods that turn the picture by a quarter; the same caps otherwise.
static GstCaps *camrec_flip_transform_caps(GstBaseTransform *trans, GstPadDirection direction,
                                           GstCaps *caps, GstCaps *filter)
{
    (void)direction;   // sink to source and source to sink are the same swap
    CamrecFlip *self = CAMREC_FLIP(trans);
    GST_OBJECT_LOCK(self);
    gboolean swap = swaps_dimensions(self->method);
    GST_OBJECT_UNLOCK(self);

    GstCaps *result = gst_caps_copy(caps);
    if (swap) {
        for (guint i = 0; i < gst_caps_get_size(result); i++) {
            GstStructure *s = gst_caps_get_structure(result, i);
            const GValue *width = gst_structure_get_value(s, "width");
            const GValue *height = gst_structure_get_value(s, "height");
            if (width && height) {
                GValue w = G_VALUE_INIT, h = G_VALUE_INIT;
                g_value_init(&w, G_VALUE_TYPE(width));
                g_value_copy(width, &w);
                g_value_init(&h, G_VALUE_TYPE(height));
                g_value_copy(height, &h);
                gst_structure_set_value(s, "width", &h);
                gst_structure_set_value(s, "height", &w);
                g_value_unset(&w);
                g_value_unset(&h);
            }
            gint par_n, par_d;
            if (gst_structure_get_fraction(s, "pixel-aspect-ratio", &par_n, &par_d))
                gst_structure_set(s, "pixel-aspect-ratio", GST_TYPE_FRACTION, par_d, par_n, NULL);
        }
    }
    if (filter) {
        GstCaps *both = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref(result);
        result = both;
    }
    GST_DEBUG_OBJECT(self, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps, result);
    return result;
}

// Checks that the negotiated sizes fit the method, and remembers the method for the frames.
static gboolean camrec_flip_set_info(GstVideoFilter *filter, GstCaps *incaps, GstVideoInfo *in_info,
                                     GstCaps *outcaps, GstVideoInfo *out_info)
{
    (void)incaps;
    (void)outcaps;
    CamrecFlip *self = CAMREC_FLIP(filter);
    GST_OBJECT_LOCK(self);
    GstVideoOrientationMethod method = self->method;
    GST_OBJECT_UNLOCK(self);
    gboolean swap = swaps_dimensions(method);
    gint out_w = swap ? GST_VIDEO_INFO_HEIGHT(in_info) : GST_VIDEO_INFO_WIDTH(in_info);
    gint out_h = swap ? GST_VIDEO_INFO_WIDTH(in_info) : GST_VIDEO_INFO_HEIGHT(in_info);
    if (GST_VIDEO_INFO_WIDTH(out_info) != out_w || GST_VIDEO_INFO_HEIGHT(out_info) != out_h) {
        GST_ERROR_OBJECT(self, "output %dx%d does not fit input %dx%d turned",
                         GST_VIDEO_INFO_WIDTH(out_info), GST_VIDEO_INFO_HEIGHT(out_info),
                         GST_VIDEO_INFO_WIDTH(in_info), GST_VIDEO_INFO_HEIGHT(in_info));
        return FALSE;
    }
    self->active = method;
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), method == GST_VIDEO_ORIENTATION_IDENTITY);
    return TRUE;
}

static GstFlowReturn camrec_flip_transform_frame(GstVideoFilter *filter, GstVideoFrame *in, GstVideoFrame *out)
{
    CamrecFlip *self = CAMREC_FLIP(filter);
    GstVideoOrientationMethod method = self->active;
    if (method == GST_VIDEO_ORIENTATION_IDENTITY)
        return gst_video_frame_copy(out, in) ? GST_FLOW_OK : GST_FLOW_ERROR;
    // Which axes are reversed, in the terms of flip_planes.h.
    gboolean rows = method == GST_VIDEO_ORIENTATION_90R || method == GST_VIDEO_ORIENTATION_UR_LL
        || method == GST_VIDEO_ORIENTATION_VERT || method == GST_VIDEO_ORIENTATION_180;
    gboolean columns = method == GST_VIDEO_ORIENTATION_90L || method == GST_VIDEO_ORIENTATION_UR_LL
        || method == GST_VIDEO_ORIENTATION_HORIZ || method == GST_VIDEO_ORIENTATION_180;
    for (guint plane = 0; plane < GST_VIDEO_FRAME_N_PLANES(in); plane++) {
        const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA(in, plane);
        guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA(out, plane);
        gint src_stride = GST_VIDEO_FRAME_PLANE_STRIDE(in, plane);
        gint dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE(out, plane);
        // I420: plane i is component i, at its own (subsampled, rounded up) size.
        gint width = GST_VIDEO_FRAME_COMP_WIDTH(in, plane), height = GST_VIDEO_FRAME_COMP_HEIGHT(in, plane);
        if (swaps_dimensions(method))
            camrec_flip_transpose_plane(dst, dst_stride, src, src_stride, width, height, rows, columns);
        else
            camrec_flip_mirror_plane(dst, dst_stride, src, src_stride, width, height, rows, columns);
    }
    return GST_FLOW_OK;
}

static void camrec_flip_class_init(CamrecFlipClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
    GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);

    GST_DEBUG_CATEGORY_INIT(camrec_flip_debug, "camrecflip", 0, "camrec's video flipper");
    object_class->set_property = camrec_flip_set_property;
    object_class->get_property = camrec_flip_get_property;
    g_object_class_install_property(object_class, PROP_METHOD,
        g_param_spec_enum("method", "Method", "How to turn or mirror the picture (videoflip's video-direction)",
                          GST_TYPE_VIDEO_ORIENTATION_METHOD, GST_VIDEO_ORIENTATION_IDENTITY,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
    gst_element_class_set_static_metadata(element_class, "camrec video flipper", "Filter/Effect/Video",
        "Turns and mirrors I420 video, pixel for pixel as videoflip, faster", "camrec");
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    transform_class->transform_caps = GST_DEBUG_FUNCPTR(camrec_flip_transform_caps);
    filter_class->set_info = GST_DEBUG_FUNCPTR(camrec_flip_set_info);
    filter_class->transform_frame = GST_DEBUG_FUNCPTR(camrec_flip_transform_frame);
}

static void camrec_flip_init(CamrecFlip *self)
{
    self->method = GST_VIDEO_ORIENTATION_IDENTITY;
    self->active = GST_VIDEO_ORIENTATION_IDENTITY;
}
