#include "CGStreamerShim.h"

int camrec_object_refcount(gpointer object) { return (int)GST_OBJECT_REFCOUNT_VALUE(object); }
int camrec_miniobject_refcount(gpointer miniobject) { return GST_MINI_OBJECT_REFCOUNT_VALUE(miniobject); }
gboolean camrec_object_is_floating(gpointer object) { return g_object_is_floating(object); }

GstMessageType camrec_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
GstObject *camrec_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }

GstClockTime camrec_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
GstClockTime camrec_buffer_dts(GstBuffer *buffer) { return GST_BUFFER_DTS(buffer); }
GstClockTime camrec_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
gboolean camrec_buffer_is_delta(GstBuffer *buffer) { return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT); }

GstBuffer *camrec_probe_info_buffer(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_BUFFER(info); }
GstEvent *camrec_probe_info_event(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_EVENT(info); }

GType camrec_type_of(gpointer object) { return G_OBJECT_TYPE(object); }
const char *camrec_object_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }

GParamSpec *camrec_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

gulong camrec_signal_connect(gpointer instance, const char *signal, GCallback callback,
                             gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, callback, user_data, destroy, 0);
}

GstMessageType camrec_message_mask_all(void) { return GST_MESSAGE_ANY; }

gboolean camrec_is_pipeline(gpointer object) { return GST_IS_PIPELINE(object); }

void camrec_message_parse_failure(GstMessage *message, gboolean is_error,
                                  const char **domain, int *code, char **text, char **debug) {
    GError *error = NULL;
    *debug = NULL;
    if (is_error) {
        gst_message_parse_error(message, &error, debug);
    } else {
        gst_message_parse_warning(message, &error, debug);
    }
    *domain = error ? g_quark_to_string(error->domain) : "";
    *code = error ? error->code : 0;
    *text = g_strdup(error ? error->message : "");
    if (error) g_error_free(error);
}
