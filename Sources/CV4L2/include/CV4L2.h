#ifndef CV4L2_H
#define CV4L2_H
// V4L2 kernel headers for Swift, and a non-variadic ioctl Swift can call.
#include <linux/videodev2.h>
#include <sys/ioctl.h>

/// ioctl(2) retried on EINTR. Returns -1 and sets errno on failure.
int camrec_v4l2_ioctl(int fd, unsigned long request, void *argument);

// The VIDIOC_* request codes are _IOWR(...) expressions, which Swift cannot import.
// They are defined once in ioctl.c from the kernel header, so they always match it.
extern const unsigned long camrec_VIDIOC_QUERYCAP;
extern const unsigned long camrec_VIDIOC_ENUM_FMT;
extern const unsigned long camrec_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long camrec_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long camrec_VIDIOC_QUERYCTRL;
extern const unsigned long camrec_VIDIOC_G_CTRL;
extern const unsigned long camrec_VIDIOC_S_CTRL;

/// VIDIOC_QUERYMENU for item `index` of control `id` (v4l2_querymenu is a packed struct with a
/// union, awkward from Swift). On success writes the item's name (always terminated, cut to
/// `capacity - 1` bytes) and, for integer menus, its value. Returns the ioctl result.
int camrec_v4l2_query_menu(int fd, unsigned int id, unsigned int index, char *name,
                           unsigned long capacity, long long *value);

/// Reads a 64-bit control with VIDIOC_G_EXT_CTRLS (v4l2_ext_control is packed). Returns the ioctl result.
int camrec_v4l2_get_control64(int fd, unsigned int id, long long *value);

/// Writes a 64-bit control with VIDIOC_S_EXT_CTRLS. Returns the ioctl result.
int camrec_v4l2_set_control64(int fd, unsigned int id, long long value);

#endif
