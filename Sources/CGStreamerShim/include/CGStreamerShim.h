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

GType camrec_type_of(gpointer object);
const char *camrec_object_type_name(gpointer object);

/// The property's spec, or NULL when the object has no such property (borrowed).
GParamSpec *camrec_find_property(gpointer object, const char *name);

/// Connects a signal with a destroy notify for the user data; returns the handler id.
gulong camrec_signal_connect(gpointer instance, const char *signal, GCallback callback,
                             gpointer user_data, GClosureNotify destroy);

/// The GstMessageType flags used by Swift (enum values Swift imports awkwardly).
GstMessageType camrec_message_mask_all(void);

gboolean camrec_is_pipeline(gpointer object);

/// Parts of a GError-carrying message: fills domain, code, message and debug (caller frees
/// message and debug with g_free). `is_error` chooses error vs warning parsing.
void camrec_message_parse_failure(GstMessage *message, gboolean is_error,
                                  const char **domain, int *code, char **text, char **debug);

#endif
