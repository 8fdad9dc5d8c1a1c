// The entry point of libgstcamrec.so, camrec's elements (Sources/CamrecElements) as a
// GStreamer plugin for gst-launch-1.0: GST_PLUGIN_PATH=<build folder>, or GStreamer's
// plugin folder where the Debian package installs it. A target of its own so that camrec,
// which registers the same elements statically, does not carry it, and so that the plugin
// can be linked without the Swift runtime (Package.swift).
#include "CamrecElements.h"

// GST_PLUGIN_DEFINE names the source package as PACKAGE, as an autotools or meson build defines it.
#define PACKAGE "camrec"

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, camrec, CAMREC_PLUGIN_DESCRIPTION, camrec_elements_plugin_init,
                  CAMREC_PLUGIN_VERSION, CAMREC_PLUGIN_LICENSE, PACKAGE, CAMREC_PLUGIN_ORIGIN)
