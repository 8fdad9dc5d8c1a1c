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
GstQuery *camrec_probe_info_query(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_QUERY(info); }

GstQueryType camrec_query_type(GstQuery *query) { return GST_QUERY_TYPE(query); }
gboolean camrec_query_is_writable(GstQuery *query) { return gst_query_is_writable(query); }

GType camrec_type_of(gpointer object) { return G_OBJECT_TYPE(object); }
const char *camrec_object_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }

gboolean camrec_instance_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

GParamSpec *camrec_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

CamrecValueKind camrec_value_kind(GType type) {
    switch (G_TYPE_FUNDAMENTAL(type)) {
    case G_TYPE_BOOLEAN: return CAMREC_VALUE_BOOLEAN;
    case G_TYPE_INT: return CAMREC_VALUE_INT;
    case G_TYPE_UINT: return CAMREC_VALUE_UINT;
    case G_TYPE_LONG: return CAMREC_VALUE_LONG;
    case G_TYPE_ULONG: return CAMREC_VALUE_ULONG;
    case G_TYPE_INT64: return CAMREC_VALUE_INT64;
    case G_TYPE_UINT64: return CAMREC_VALUE_UINT64;
    case G_TYPE_FLOAT: return CAMREC_VALUE_FLOAT;
    case G_TYPE_DOUBLE: return CAMREC_VALUE_DOUBLE;
    case G_TYPE_STRING: return CAMREC_VALUE_STRING;
    case G_TYPE_ENUM: return CAMREC_VALUE_ENUM;
    case G_TYPE_FLAGS: return CAMREC_VALUE_FLAGS;
    case G_TYPE_BOXED: return CAMREC_VALUE_BOXED;
    case G_TYPE_OBJECT: return CAMREC_VALUE_OBJECT;
    default: return CAMREC_VALUE_OTHER;
    }
}

guint camrec_value_doubles(const GValue *value, double *out, guint max) {
    if (!G_VALUE_HOLDS(value, G_TYPE_VALUE_ARRAY)) return 0;
    guint count = 0;
    /* `level` posts GValueArray (deprecated in GLib, still what GStreamer 1.22 sends). */
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GValueArray *array = g_value_get_boxed(value);
    for (guint i = 0; array != NULL && i < array->n_values && count < max; i++) {
        GValue *item = g_value_array_get_nth(array, i);
        if (G_VALUE_HOLDS_DOUBLE(item)) out[count++] = g_value_get_double(item);
    }
    G_GNUC_END_IGNORE_DEPRECATIONS
    return count;
}

char *camrec_param_range(GParamSpec *spec) {
    if (G_IS_PARAM_SPEC_INT(spec)) {
        GParamSpecInt *p = G_PARAM_SPEC_INT(spec);
        return g_strdup_printf("%d - %d", p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_UINT(spec)) {
        GParamSpecUInt *p = G_PARAM_SPEC_UINT(spec);
        return g_strdup_printf("%u - %u", p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_LONG(spec)) {
        GParamSpecLong *p = G_PARAM_SPEC_LONG(spec);
        return g_strdup_printf("%ld - %ld", p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_ULONG(spec)) {
        GParamSpecULong *p = G_PARAM_SPEC_ULONG(spec);
        return g_strdup_printf("%lu - %lu", p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_INT64(spec)) {
        GParamSpecInt64 *p = G_PARAM_SPEC_INT64(spec);
        return g_strdup_printf("%" G_GINT64_FORMAT " - %" G_GINT64_FORMAT, p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_UINT64(spec)) {
        GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64(spec);
        return g_strdup_printf("%" G_GUINT64_FORMAT " - %" G_GUINT64_FORMAT, p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_FLOAT(spec)) {
        GParamSpecFloat *p = G_PARAM_SPEC_FLOAT(spec);
        return g_strdup_printf("%g - %g", p->minimum, p->maximum);
    }
    if (G_IS_PARAM_SPEC_DOUBLE(spec)) {
        GParamSpecDouble *p = G_PARAM_SPEC_DOUBLE(spec);
        return g_strdup_printf("%g - %g", p->minimum, p->maximum);
    }
    return NULL;
}

GClosure *camrec_closure_new(GClosureMarshal marshal, gpointer data, GClosureNotify finalize) {
    GClosure *closure = g_closure_new_simple(sizeof(GClosure), data);
    g_closure_set_marshal(closure, marshal);
    g_closure_add_finalize_notifier(closure, data, finalize);
    return closure;
}

gpointer camrec_closure_data(GClosure *closure) { return closure->data; }

GstMessageType camrec_message_mask_all(void) { return GST_MESSAGE_ANY; }

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

gboolean camrec_emit_action_uint64(gpointer object, const char *signal, guint64 value) {
    if (g_signal_lookup(signal, G_OBJECT_TYPE(object)) == 0) return FALSE;
    g_signal_emit_by_name(object, signal, value);
    return TRUE;
}

gboolean camrec_emit_action(gpointer object, const char *signal) {
    if (g_signal_lookup(signal, G_OBJECT_TYPE(object)) == 0) return FALSE;
    g_signal_emit_by_name(object, signal);
    return TRUE;
}

GList *camrec_video_encoder_factories(void) {
    return gst_element_factory_list_get_elements(
        GST_ELEMENT_FACTORY_TYPE_ENCODER | GST_ELEMENT_FACTORY_TYPE_MEDIA_VIDEO | GST_ELEMENT_FACTORY_TYPE_MEDIA_IMAGE,
        GST_RANK_NONE);
}
