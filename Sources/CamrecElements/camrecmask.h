#ifndef CAMREC_MASK_H
#define CAMREC_MASK_H
// The camrecmask element's type (private to the target; see CamrecElements.h).
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS
#define CAMREC_TYPE_MASK (camrec_mask_get_type())
G_DECLARE_FINAL_TYPE(CamrecMask, camrec_mask, CAMREC, MASK, GstVideoFilter)
G_END_DECLS

#endif
