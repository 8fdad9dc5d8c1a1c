#ifndef CAMREC_FLIP_H
#define CAMREC_FLIP_H
// The camrecflip element's type (private to the target; see CamrecElements.h).
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS
#define CAMREC_TYPE_FLIP (camrec_flip_get_type())
G_DECLARE_FINAL_TYPE(CamrecFlip, camrec_flip, CAMREC, FLIP, GstVideoFilter)
G_END_DECLS

#endif
