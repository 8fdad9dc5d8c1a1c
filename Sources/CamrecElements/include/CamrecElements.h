#ifndef CAMREC_ELEMENTS_H
#define CAMREC_ELEMENTS_H
// camrec's own GStreamer elements, for what GStreamer's are too slow at.
//
// camrecflip: the eight orientations of an I420 picture (videoflip's video-direction,
// method=identity|90r|180|90l|horiz|vert|ul-lr|ur-ll), bit-exact with videoflip but
// cache-friendly (8x8 blocks for the quarter turns, whole-row reversal for the mirrors).
//
// camrecmask: privacy masks; fills rectangles (property rectangles="X,Y,W,H X,Y,W,H", in
// pixels) with solid black, in place, in any raw format of 8-bit components (I420, NV12,
// YUY2, RGB, …): chroma rounded outwards, nothing blended.
//
// The same code is built twice: into camrec (registered with camrec_elements_register
// after gst_init) and, with Sources/GstCamrecPlugin, as the plugin libgstcamrec.so, so
// that a pipeline camrec prints runs in gst-launch-1.0 with GST_PLUGIN_PATH pointing at it.
#include <gst/gst.h>

/// Registers camrec's elements with the running GStreamer (call after gst_init; later
/// calls do nothing). Returns FALSE when GStreamer refused the registration.
gboolean camrec_elements_register(void);

// The plugin's description, shared by the static registration and libgstcamrec.so.
#define CAMREC_PLUGIN_DESCRIPTION "camrec's own elements (camrecflip, camrecmask)"
#define CAMREC_PLUGIN_VERSION "1.0"
#define CAMREC_PLUGIN_LICENSE "Proprietary"
#define CAMREC_PLUGIN_ORIGIN "camrec"

/// Registers camrec's elements with `plugin` (a GstPluginInitFunc).
gboolean camrec_elements_plugin_init(GstPlugin *plugin);

/// A rectangle of a frame, in pixels from its top left.
typedef struct {
    gint x, y, width, height;
} CamrecMaskRect;

/// One component of a frame as camrecmask fills it: its first byte, the bytes between
/// rows and between samples, its size in samples, and its subsampling (log2) against the
/// frame's pixels.
typedef struct {
    guint8 *data;
    gint stride, pixel_stride, width, height;
    guint w_sub, h_sub;
} CamrecMaskPlane;

/// camrecmask's kernel: sets to `value` every sample of `plane` that a pixel of `rect` uses
/// (rounded outwards for subsampled chroma; what lies outside the plane is left out).
void camrec_mask_fill(const CamrecMaskPlane *plane, const CamrecMaskRect *rect, guint8 value);

#endif
