#ifndef CRTSPSERVER_SHIM_H
#define CRTSPSERVER_SHIM_H
#include <gst/rtsp-server/rtsp-server.h>
#endif
