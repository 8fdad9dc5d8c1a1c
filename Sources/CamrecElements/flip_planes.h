#ifndef CAMREC_FLIP_PLANES_H
#define CAMREC_FLIP_PLANES_H
// camrecflip's pixel kernels, one 8-bit plane at a time (private to the target).
#include <glib.h>

// The quarter turns and the two diagonal mirrors: output (x, y) = source (sx(y), sy(x)),
// where sx(y) = src_width - 1 - y if flip_columns else y, and sy(x) = src_height - 1 - x if
// flip_rows else x. The output plane is src_height wide and src_width high.
//   90r: flip_rows   90l: flip_columns   ul-lr: neither   ur-ll: both
void camrec_flip_transpose_plane(guint8 *dst, gint dst_stride, const guint8 *src, gint src_stride,
                                 gint src_width, gint src_height, gboolean flip_rows, gboolean flip_columns);

// The other methods, same size out: output (x, y) = source (x or width-1-x, y or height-1-y).
//   horiz: flip_columns   vert: flip_rows   180: both   identity: neither
void camrec_flip_mirror_plane(guint8 *dst, gint dst_stride, const guint8 *src, gint src_stride,
                              gint width, gint height, gboolean flip_rows, gboolean flip_columns);

#endif
