#ifndef CGSTREAMER_SHIM_PUBLIC_H
#define CGSTREAMER_SHIM_PUBLIC_H
// Small C helpers for what Swift cannot call directly: GStreamer's macros,
// variadic functions and struct fields hidden behind casts.
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

/// The current reference count of a GstObject or GstMiniObject (for tests).
int camrec_object_refcount(gpointer object);
int camrec_miniobject_refcount(gpointer miniobject);

/// Whether the object's reference is still floating.
gboolean camrec_object_is_floating(gpointer object);

GstMessageType camrec_message_type(GstMessage *message);
GstObject *camrec_message_source(GstMessage *message);

GstClockTime camrec_buffer_pts(GstBuffer *buffer);
GstClockTime camrec_buffer_dts(GstBuffer *buffer);
GstClockTime camrec_buffer_duration(GstBuffer *buffer);
gboolean camrec_buffer_is_delta(GstBuffer *buffer);

GstBuffer *camrec_probe_info_buffer(GstPadProbeInfo *info);
GstEvent *camrec_probe_info_event(GstPadProbeInfo *info);
GstQuery *camrec_probe_info_query(GstPadProbeInfo *info);

/// Whether the query may be changed (GST_QUERY_TYPE and gst_query_is_writable are macros).
GstQueryType camrec_query_type(GstQuery *query);
gboolean camrec_query_is_writable(GstQuery *query);

GType camrec_type_of(gpointer object);
const char *camrec_object_type_name(gpointer object);

/// Whether `instance` is a `type` or derives from it (G_TYPE_CHECK_INSTANCE_TYPE).
gboolean camrec_instance_is_a(gpointer instance, GType type);

/// The property's spec, or NULL when the object has no such property (borrowed).
GParamSpec *camrec_find_property(gpointer object, const char *name);

/// The fundamental kinds of GValue that the bindings convert (G_TYPE_FUNDAMENTAL of a type).
typedef enum {
    CAMREC_VALUE_OTHER,
    CAMREC_VALUE_BOOLEAN,
    CAMREC_VALUE_INT,
    CAMREC_VALUE_UINT,
    CAMREC_VALUE_LONG,
    CAMREC_VALUE_ULONG,
    CAMREC_VALUE_INT64,
    CAMREC_VALUE_UINT64,
    CAMREC_VALUE_FLOAT,
    CAMREC_VALUE_DOUBLE,
    CAMREC_VALUE_STRING,
    CAMREC_VALUE_ENUM,
    CAMREC_VALUE_FLAGS,
    CAMREC_VALUE_BOXED,
    CAMREC_VALUE_OBJECT,
} CamrecValueKind;

CamrecValueKind camrec_value_kind(GType type);

/// The doubles a GValueArray holds (the `level` element's `rms` and `peak`, one per
/// channel), at most `max` of them into `out`; 0 when `value` holds no such array.
guint camrec_value_doubles(const GValue *value, double *out, guint max);

/// The allowed range of a numeric property as text ("0 - 4294967295"), or NULL for other
/// kinds; the caller frees it with g_free.
char *camrec_param_range(GParamSpec *spec);

/// A new (floating) closure that calls `marshal` with `data` and calls `finalize` with
/// `data` exactly once, when the closure is finalised.
GClosure *camrec_closure_new(GClosureMarshal marshal, gpointer data, GClosureNotify finalize);

/// The data a closure was created with.
gpointer camrec_closure_data(GClosure *closure);

/// The GstMessageType flags used by Swift (enum values Swift imports awkwardly).
GstMessageType camrec_message_mask_all(void);

/// Parts of a GError-carrying message: fills domain, code, message and debug (caller frees
/// message and debug with g_free). `is_error` chooses error vs warning parsing.
void camrec_message_parse_failure(GstMessage *message, gboolean is_error,
                                  const char **domain, int *code, char **text, char **debug);

/// Emits an action signal that takes one guint64 and returns nothing (splitmuxsink's
/// "split-at-running-time"); g_signal_emit_by_name is variadic, which Swift cannot call.
/// Returns FALSE when the object has no such signal.
gboolean camrec_emit_action_uint64(gpointer object, const char *signal, guint64 value);

/// Emits an action signal without arguments that returns nothing (splitmuxsink's
/// "split-now"). Returns FALSE when the object has no such signal.
gboolean camrec_emit_action(gpointer object, const char *signal);

/// The element factories that are video or image encoders (ENCODER | MEDIA_VIDEO |
/// MEDIA_IMAGE, any rank: the media bits match any of them, and jpegenc's klass is
/// "Codec/Encoder/Image"), as
/// gst_element_factory_list_get_elements returns them: a new list holding one reference to
/// each factory; free it with gst_plugin_feature_list_free. (The factory-type bits are
/// 64-bit macros with casts, which Swift does not import.) Hardware encoders are not a
/// separate query: ENCODER | HARDWARE ORs the bits and returns hardware decoders too.
GList *camrec_video_encoder_factories(void);

#endif
