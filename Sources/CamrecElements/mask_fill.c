// camrecmask's pixel kernel (see CamrecElements.h).
#include "CamrecElements.h"

#include <string.h>

void camrec_mask_fill(const CamrecMaskPlane *plane, const CamrecMaskRect *rect, guint8 value)
{
    if (rect->width <= 0 || rect->height <= 0 || rect->x < 0 || rect->y < 0)
        return;
    // The rectangle in the component's samples, rounded outwards: a sample any masked
    // pixel uses is filled.
    gint64 x0 = (gint64)rect->x >> plane->w_sub;
    gint64 y0 = (gint64)rect->y >> plane->h_sub;
    gint64 x1 = (((gint64)rect->x + rect->width) + (1 << plane->w_sub) - 1) >> plane->w_sub;
    gint64 y1 = (((gint64)rect->y + rect->height) + (1 << plane->h_sub) - 1) >> plane->h_sub;
    if (x1 > plane->width)
        x1 = plane->width;
    if (y1 > plane->height)
        y1 = plane->height;
    if (x0 >= x1 || y0 >= y1)
        return;
    for (gint64 y = y0; y < y1; y++) {
        guint8 *row = plane->data + y * plane->stride + x0 * plane->pixel_stride;
        if (plane->pixel_stride == 1) {
            memset(row, value, (size_t)(x1 - x0));
        } else {
            for (gint64 x = x0; x < x1; x++, row += plane->pixel_stride)
                *row = value;
        }
    }
}
