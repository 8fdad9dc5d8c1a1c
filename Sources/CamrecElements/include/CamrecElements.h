#ifndef CAMREC_ELEMENTS_H
#define CAMREC_ELEMENTS_H
// camrec's own GStreamer elements, for what GStreamer's are too slow at.
//
// camrecflip: the eight orientations of an I420 picture (videoflip's video-direction,
// method=identity|90r|180|90l|horiz|vert|ul-lr|ur-ll), bit-exact with videoflip but
// cache-friendly (8x8 blocks for the quarter turns, whole-row reversal for the mirrors).
//
// The same code is built twice: into camrec (registered with camrec_elements_register
// after gst_init) and, with Sources/GstCamrecPlugin, as the plugin libgstcamrec.so, so
// that a pipeline camrec prints runs in gst-launch-1.0 with GST_PLUGIN_PATH pointing at it.
#include <gst/gst.h>

/// Registers camrec's elements with the running GStreamer (call after gst_init; later
/// calls do nothing). Returns FALSE when GStreamer refused the registration.
gboolean camrec_elements_register(void);

// The plugin's description, shared by the static registration and libgstcamrec.so.
#define CAMREC_PLUGIN_DESCRIPTION "camrec's own elements (camrecflip)"
#define CAMREC_PLUGIN_VERSION "1.0"
#define CAMREC_PLUGIN_LICENSE "Proprietary"
#define CAMREC_PLUGIN_ORIGIN "camrec"

/// Registers camrec's elements with `plugin` (a GstPluginInitFunc).
gboolean camrec_elements_plugin_init(GstPlugin *plugin);

#endif
