// camrecmask: fills rectangles of raw video with solid black, in place (privacy masks,
// camrec's --mask and --mask-image). Every 8-bit format whose components are bytes of
// their own (planar, semi-planar and packed YUV, grey, RGB with or without alpha): each
// component is set where the rectangle lies, nothing else is read or blended.
//
//   ... ! video/x-raw,format=I420 ! camrecmask rectangles="0,0,320,180 900,500,200,100" ! ...
//
// A rectangle is "X,Y,W,H" in the frame's pixels from its top left; rectangles are
// separated by spaces; what lies outside the frame is left out. Chroma is filled for every
// sample a masked pixel uses (rounded outwards), so no colour of what is hidden survives.
// Black is Y 16 (0 in full range) with neutral chroma, or 0 in RGB (alpha opaque).
// Without rectangles the element passes the frames through untouched.
#include "camrecmask.h"

#include "CamrecElements.h"

#include <stdlib.h>
#include <string.h>

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>



GST_DEBUG_CATEGORY_STATIC(camrec_mask_debug);
#define GST_CAT_DEFAULT camrec_mask_debug

struct _CamrecMask {
    GstVideoFilter parent;
    gchar *text;                 // the property as given (object lock)
    CamrecMaskRect *rects;       // parsed (object lock)
    guint count;
};

G_DEFINE_TYPE(CamrecMask, camrec_mask, GST_TYPE_VIDEO_FILTER)

enum { PROP_0, PROP_RECTANGLES };

#define CAMREC_MASK_FORMATS "{ I420, YV12, Y42B, Y444, Y41B, NV12, NV21, NV16, NV61, NV24, YUY2, UYVY, YVYU, " \
    "GRAY8, RGBx, BGRx, xRGB, xBGR, RGBA, BGRA, ARGB, ABGR, RGB, BGR, AYUV }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(CAMREC_MASK_FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(CAMREC_MASK_FORMATS)));

// Parses "X,Y,W,H X,Y,W,H …" (spaces, tabs or semicolons between rectangles); FALSE for
// anything else, or a negative or empty rectangle.
static gboolean parse_rectangles(const gchar *text, CamrecMaskRect **rects, guint *count)
{
    *rects = NULL;
    *count = 0;
    if (text == NULL)
        return TRUE;
    GArray *array = g_array_new(FALSE, FALSE, sizeof(CamrecMaskRect));
    const gchar *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ';' || *p == '\n')
            p++;
        if (*p == '\0')
            break;
        gint64 values[4];
        for (int i = 0; i < 4; i++) {
            gchar *end = NULL;
            values[i] = g_ascii_strtoll(p, &end, 10);
            if (end == p || values[i] < 0 || values[i] > G_MAXINT / 2 || (i < 3 && *end != ',')) {
                g_array_free(array, TRUE);
                return FALSE;
            }
            p = i < 3 ? end + 1 : end;
        }
        if (values[2] == 0 || values[3] == 0 || (*p != '\0' && *p != ' ' && *p != '\t' && *p != ';' && *p != '\n')) {
            g_array_free(array, TRUE);
            return FALSE;
        }
        CamrecMaskRect rect = { (gint)values[0], (gint)values[1], (gint)values[2], (gint)values[3] };
        g_array_append_val(array, rect);
    }
    *count = array->len;
    *rects = (CamrecMaskRect *)g_array_free(array, FALSE);
    return TRUE;
}

static void camrec_mask_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    CamrecMask *self = CAMREC_MASK(object);
    if (id != PROP_RECTANGLES) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
        return;
    }
    const gchar *text = g_value_get_string(value);
    CamrecMaskRect *rects;
    guint count;
    if (!parse_rectangles(text, &rects, &count)) {
        // A privacy mask that cannot be read must not record an unmasked picture: the
        // whole frame is masked instead, and said.
        GST_ELEMENT_WARNING(self, LIBRARY, SETTINGS, ("camrecmask: cannot read rectangles \"%s\"", text),
                            ("expected X,Y,W,H (pixels, W and H above 0) separated by spaces; masking the whole frame"));
        rects = g_new(CamrecMaskRect, 1);
        rects[0] = (CamrecMaskRect){ 0, 0, G_MAXINT / 2, G_MAXINT / 2 };
        count = 1;
    }
    GST_OBJECT_LOCK(self);
    g_free(self->text);
    self->text = g_strdup(text);
    g_free(self->rects);
    self->rects = rects;
    self->count = count;
    GST_OBJECT_UNLOCK(self);
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), count == 0);
}

static void camrec_mask_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    CamrecMask *self = CAMREC_MASK(object);
    if (id != PROP_RECTANGLES) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
        return;
    }
    GST_OBJECT_LOCK(self);
    g_value_set_string(value, self->text);
    GST_OBJECT_UNLOCK(self);
}

static GstFlowReturn camrec_mask_transform_frame_ip(GstVideoFilter *filter, GstVideoFrame *frame)
{
    CamrecMask *self = CAMREC_MASK(filter);
    const GstVideoFormatInfo *info = frame->info.finfo;
    gboolean full_range = frame->info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
    GST_OBJECT_LOCK(self);
    for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(info); c++) {
        guint8 black;
        if (GST_VIDEO_FORMAT_INFO_IS_YUV(info) && c == GST_VIDEO_COMP_Y)
            black = full_range ? 0 : 16;
        else if (GST_VIDEO_FORMAT_INFO_IS_YUV(info) && (c == GST_VIDEO_COMP_U || c == GST_VIDEO_COMP_V))
            black = 128;
        else if (c == GST_VIDEO_COMP_A)
            black = 255;
        else
            black = 0;
        CamrecMaskPlane plane = {
            .data = (guint8 *)GST_VIDEO_FRAME_COMP_DATA(frame, c),
            .stride = GST_VIDEO_FRAME_COMP_STRIDE(frame, c),
            .pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, c),
            .width = GST_VIDEO_FRAME_COMP_WIDTH(frame, c),
            .height = GST_VIDEO_FRAME_COMP_HEIGHT(frame, c),
            .w_sub = GST_VIDEO_FORMAT_INFO_W_SUB(info, c),
            .h_sub = GST_VIDEO_FORMAT_INFO_H_SUB(info, c),
        };
        for (guint r = 0; r < self->count; r++)
            camrec_mask_fill(&plane, &self->rects[r], black);
    }
    GST_OBJECT_UNLOCK(self);
    return GST_FLOW_OK;
}

static gboolean camrec_mask_set_info(GstVideoFilter *filter, GstCaps *incaps, GstVideoInfo *in_info,
                                     GstCaps *outcaps, GstVideoInfo *out_info)
{
    (void)incaps;
    (void)outcaps;
    (void)out_info;
    CamrecMask *self = CAMREC_MASK(filter);
    // Only formats of 8-bit components (the pad templates'): checked once more here.
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(in_info); c++) {
        if (GST_VIDEO_FORMAT_INFO_DEPTH(in_info->finfo, c) != 8) {
            GST_ERROR_OBJECT(self, "component %u is not 8 bits", c);
            return FALSE;
        }
    }
    GST_OBJECT_LOCK(self);
    gboolean empty = self->count == 0;
    GST_OBJECT_UNLOCK(self);
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), empty);
    return TRUE;
}

static void camrec_mask_finalize(GObject *object)
{
    CamrecMask *self = CAMREC_MASK(object);
    g_free(self->text);
    g_free(self->rects);
    G_OBJECT_CLASS(camrec_mask_parent_class)->finalize(object);
}

static void camrec_mask_class_init(CamrecMaskClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS(klass);

    GST_DEBUG_CATEGORY_INIT(camrec_mask_debug, "camrecmask", 0, "camrec's privacy masks");
    object_class->set_property = camrec_mask_set_property;
    object_class->get_property = camrec_mask_get_property;
    object_class->finalize = camrec_mask_finalize;
    g_object_class_install_property(object_class, PROP_RECTANGLES,
        g_param_spec_string("rectangles", "Rectangles",
                            "The rectangles filled with black: X,Y,W,H in pixels, separated by spaces", NULL,
                            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
    gst_element_class_set_static_metadata(element_class, "camrec privacy mask", "Filter/Effect/Video",
        "Fills rectangles of the picture with solid black, in place", "camrec");
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    filter_class->set_info = GST_DEBUG_FUNCPTR(camrec_mask_set_info);
    filter_class->transform_frame_ip = GST_DEBUG_FUNCPTR(camrec_mask_transform_frame_ip);
}

static void camrec_mask_init(CamrecMask *self)
{
    self->text = NULL;
    self->rects = NULL;
    self->count = 0;
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), TRUE);
}
