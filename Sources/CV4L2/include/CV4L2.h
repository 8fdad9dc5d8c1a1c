#ifndef CV4L2_H
#define CV4L2_H
// V4L2 kernel headers for Swift, and a non-variadic ioctl Swift can call.
#include <linux/videodev2.h>
#include <sys/ioctl.h>

/// ioctl(2) retried on EINTR. Returns -1 and sets errno on failure.
int camrec_v4l2_ioctl(int fd, unsigned long request, void *argument);

#endif
