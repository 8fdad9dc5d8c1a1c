/*
 * fakehwenc: two fake "hardware" H.264 encoders for camrec's tests of --encoder and
 * `camrec encoders`, on machines without a hardware encoder. Never shipped, never part of
 * the SwiftPM build: the tests compile it at run time
 *
 *     cc -shared -fPIC fakehwenc.c $(pkg-config --cflags --libs gstreamer-1.0) -o libgstfakehwenc.so
 *
 * and load it through GST_PLUGIN_PATH (end-to-end tests) or gst_plugin_load_file (in process).
 *
 * - fakehwh264enc works: a bin with klass "Codec/Encoder/Video/Hardware" around x264enc,
 *   behind ghost pads, with properties shaped like a hardware encoder's (bitrate in kbit/s,
 *   keyframe-period in frames), forwarded to x264enc (bitrate, key-int-max).
 * - brokenhwh264enc fails the way vaapih264enc does on a machine without a GPU: it registers
 *   and is made fine, and fails the NULL to READY state change with an element error
 *   "no device".
 *
 * - CAMREC_FAKEHWENC_DELAY_MS=N (read as each fakehwh264enc is made, not at registration,
 *   so GStreamer's registry cache cannot keep a stale value) makes fakehwh264enc hold every
 *   frame N ms before encoding it: a hardware encoder too slow for the camera's rate, for
 *   the tests of camrec's "encoder falling behind" warning.
 *
 * Both have rank NONE, as va's encoders do. camrec orders hardware encoders by rank and then
 * by name, so the broken one is tried first, and a test can see the fall-back from it.
 */
/* GST_PLUGIN_DEFINE names the package through this macro (an autotools/meson leftover). */
#define PACKAGE "camrec-tests"
#include <gst/gst.h>

#define FAKE_SINK_CAPS "video/x-raw, format=(string)I420, width=(int)[16, 4096], height=(int)[16, 4096], framerate=(fraction)[0/1, 240/1]"
#define FAKE_SRC_CAPS "video/x-h264, stream-format=(string)byte-stream, alignment=(string)au"

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(FAKE_SINK_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(FAKE_SRC_CAPS));

enum { PROP_0, PROP_BITRATE, PROP_KEYFRAME_PERIOD };

#define DEFAULT_BITRATE 2048
#define DEFAULT_KEYFRAME_PERIOD 30

static void install_properties(GObjectClass *object_class) {
    g_object_class_install_property(object_class, PROP_BITRATE,
        g_param_spec_uint("bitrate", "Bitrate", "Target bitrate in kbit/s", 1, 2048000, DEFAULT_BITRATE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
    g_object_class_install_property(object_class, PROP_KEYFRAME_PERIOD,
        g_param_spec_uint("keyframe-period", "Keyframe period", "Frames between keyframes (0: encoder's choice)",
                          0, 10000, DEFAULT_KEYFRAME_PERIOD, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

/* ---- fakehwh264enc: works ---------------------------------------------------------- */

typedef struct {
    GstBin parent;
    GstElement *encoder; /* x264enc, owned by the bin */
    guint bitrate;
    guint keyframe_period;
} FakeHwEnc;

typedef struct {
    GstBinClass parent_class;
} FakeHwEncClass;

G_DEFINE_TYPE(FakeHwEnc, fake_hw_enc, GST_TYPE_BIN)

/* CAMREC_FAKEHWENC_DELAY_MS: each frame waits this long on its way in (see the top). */
static GstPadProbeReturn fake_hw_enc_delay(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    (void)info;
    g_usleep((gulong)GPOINTER_TO_UINT(user_data) * 1000);
    return GST_PAD_PROBE_OK;
}

static void fake_hw_enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    FakeHwEnc *self = (FakeHwEnc *)object;
    switch (id) {
    case PROP_BITRATE:
        self->bitrate = g_value_get_uint(value);
        if (self->encoder) g_object_set(self->encoder, "bitrate", self->bitrate, NULL);
        break;
    case PROP_KEYFRAME_PERIOD:
        self->keyframe_period = g_value_get_uint(value);
        if (self->encoder) g_object_set(self->encoder, "key-int-max", self->keyframe_period, NULL);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void fake_hw_enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    FakeHwEnc *self = (FakeHwEnc *)object;
    switch (id) {
    case PROP_BITRATE: g_value_set_uint(value, self->bitrate); break;
    case PROP_KEYFRAME_PERIOD: g_value_set_uint(value, self->keyframe_period); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void ghost(GstElement *bin, GstElement *inner, const char *name, GstStaticPadTemplate *template) {
    GstPadTemplate *pad_template = gst_static_pad_template_get(template);
    GstPad *target = inner ? gst_element_get_static_pad(inner, name) : NULL;
    GstPad *pad = target ? gst_ghost_pad_new_from_template(name, target, pad_template)
                         : gst_ghost_pad_new_no_target_from_template(name, pad_template);
    gst_element_add_pad(bin, pad);
    if (target) gst_object_unref(target);
    gst_object_unref(pad_template);
}

static void fake_hw_enc_init(FakeHwEnc *self) {
    self->bitrate = DEFAULT_BITRATE;
    self->keyframe_period = DEFAULT_KEYFRAME_PERIOD;
    /* Without x264enc the bin has pads without targets and fails to negotiate: a clear
     * failure of its own, not a crash. */
    self->encoder = gst_element_factory_make("x264enc", "x264");
    if (self->encoder) {
        g_object_set(self->encoder, "bitrate", self->bitrate, "key-int-max", self->keyframe_period, NULL);
        gst_bin_add(GST_BIN(self), self->encoder);
        const char *delay = g_getenv("CAMREC_FAKEHWENC_DELAY_MS");
        guint milliseconds = delay ? (guint)g_ascii_strtoull(delay, NULL, 10) : 0;
        if (milliseconds > 0) {
            GstPad *sink = gst_element_get_static_pad(self->encoder, "sink");
            gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, fake_hw_enc_delay, GUINT_TO_POINTER(milliseconds), NULL);
            gst_object_unref(sink);
        }
    }
    ghost(GST_ELEMENT(self), self->encoder, "sink", &sink_template);
    ghost(GST_ELEMENT(self), self->encoder, "src", &src_template);
}

static void fake_hw_enc_class_init(FakeHwEncClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    object_class->set_property = fake_hw_enc_set_property;
    object_class->get_property = fake_hw_enc_get_property;
    install_properties(object_class);
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Fake hardware H.264 encoder (tests)",
        "Codec/Encoder/Video/Hardware", "x264enc dressed as a hardware encoder, for camrec's tests",
        "camrec");
}

/* ---- brokenhwh264enc: fails at start ------------------------------------------------ */

typedef struct {
    GstElement parent;
    guint bitrate;
    guint keyframe_period;
} BrokenHwEnc;

typedef struct {
    GstElementClass parent_class;
} BrokenHwEncClass;

G_DEFINE_TYPE(BrokenHwEnc, broken_hw_enc, GST_TYPE_ELEMENT)

static void broken_hw_enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    BrokenHwEnc *self = (BrokenHwEnc *)object;
    switch (id) {
    case PROP_BITRATE: self->bitrate = g_value_get_uint(value); break;
    case PROP_KEYFRAME_PERIOD: self->keyframe_period = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void broken_hw_enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    BrokenHwEnc *self = (BrokenHwEnc *)object;
    switch (id) {
    case PROP_BITRATE: g_value_set_uint(value, self->bitrate); break;
    case PROP_KEYFRAME_PERIOD: g_value_set_uint(value, self->keyframe_period); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static GstStateChangeReturn broken_hw_enc_change_state(GstElement *element, GstStateChange transition) {
    if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
        /* What vaapih264enc does without a VA display: an error on the bus, then FAILURE. */
        GST_ELEMENT_ERROR(element, RESOURCE, NOT_FOUND, ("no device"),
                          ("fake hardware encoder: there is no encoder device on this machine"));
        return GST_STATE_CHANGE_FAILURE;
    }
    return GST_ELEMENT_CLASS(broken_hw_enc_parent_class)->change_state(element, transition);
}

static void broken_hw_enc_init(BrokenHwEnc *self) {
    self->bitrate = DEFAULT_BITRATE;
    self->keyframe_period = DEFAULT_KEYFRAME_PERIOD;
    gst_element_add_pad(GST_ELEMENT(self), gst_pad_new_from_static_template(&sink_template, "sink"));
    gst_element_add_pad(GST_ELEMENT(self), gst_pad_new_from_static_template(&src_template, "src"));
}

static void broken_hw_enc_class_init(BrokenHwEncClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    object_class->set_property = broken_hw_enc_set_property;
    object_class->get_property = broken_hw_enc_get_property;
    install_properties(object_class);
    element_class->change_state = broken_hw_enc_change_state;
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Broken fake hardware H.264 encoder (tests)",
        "Codec/Encoder/Video/Hardware", "Registers, then fails to open its device, as vaapih264enc does without a GPU",
        "camrec");
}

/* ---- the plugin --------------------------------------------------------------------- */

static gboolean plugin_init(GstPlugin *plugin) {
    return gst_element_register(plugin, "fakehwh264enc", GST_RANK_NONE, fake_hw_enc_get_type())
        && gst_element_register(plugin, "brokenhwh264enc", GST_RANK_NONE, broken_hw_enc_get_type());
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, fakehwenc,
                  "Fake hardware H.264 encoders for camrec's tests", plugin_init, "1.0", "LGPL",
                  "camrec-tests", "https://example.invalid/camrec")
