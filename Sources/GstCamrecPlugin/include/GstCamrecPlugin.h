#ifndef GST_CAMREC_PLUGIN_H
#define GST_CAMREC_PLUGIN_H
// libgstcamrec.so exports only what GST_PLUGIN_DEFINE makes (gst_plugin_camrec_get_desc),
// which GStreamer finds by name when it loads the file.
#endif
