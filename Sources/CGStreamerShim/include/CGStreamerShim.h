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

#endif
