/* camrec VirtualCamera: an LD_PRELOAD library that emulates V4L2 capture devices.
 *
 * It has no public C API: it is configured with the CAMREC_VCAM environment
 * variable and works by interposing libc functions (docs/virtual-camera.md).
 * This header exists because SwiftPM C targets expect an include/ folder; the
 * internal declarations are in ../vcam.h. */
#ifndef CAMREC_VIRTUAL_CAMERA_H
#define CAMREC_VIRTUAL_CAMERA_H
#endif
