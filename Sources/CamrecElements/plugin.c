// Registration of camrec's elements: statically inside camrec, or as the plugin
// libgstcamrec.so that gst-launch-1.0 loads from GST_PLUGIN_PATH (or GStreamer's plugin
// folder, where the Debian package installs it).
#include "CamrecElements.h"

#include "camrecflip.h"

#define PLUGIN_DESCRIPTION "camrec's own elements (camrecflip)"
#define PLUGIN_VERSION "1.0"
#define PLUGIN_LICENSE "Proprietary"
#define PLUGIN_ORIGIN "camrec"
// GST_PLUGIN_DEFINE names the source package as PACKAGE, as an autotools or meson build defines it.
#define PACKAGE "camrec"

static gboolean plugin_init(GstPlugin *plugin)
{
    return gst_element_register(plugin, "camrecflip", GST_RANK_NONE, CAMREC_TYPE_FLIP);
}

gboolean camrec_elements_register(void)
{
    static gsize once = 0;
    static gboolean registered = FALSE;
    if (g_once_init_enter(&once)) {
        registered = gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "camrec", PLUGIN_DESCRIPTION,
                                                plugin_init, PLUGIN_VERSION, PLUGIN_LICENSE, PACKAGE, PACKAGE, PLUGIN_ORIGIN);
        g_once_init_leave(&once, 1);
    }
    return registered;
}

// The plugin's entry point when this target is built as libgstcamrec.so (it is unused, and
// harmless, inside camrec itself).
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, camrec, PLUGIN_DESCRIPTION, plugin_init, PLUGIN_VERSION,
                  PLUGIN_LICENSE, PACKAGE, PLUGIN_ORIGIN)
