// Registration of camrec's elements: statically inside camrec (camrec_elements_register),
// or through the plugin libgstcamrec.so (Sources/GstCamrecPlugin), which gst-launch-1.0
// loads from GST_PLUGIN_PATH or GStreamer's plugin folder.
#include "CamrecElements.h"

#include "camrecflip.h"
#include "camrecmask.h"


gboolean camrec_elements_plugin_init(GstPlugin *plugin)
{
    return gst_element_register(plugin, "camrecflip", GST_RANK_NONE, CAMREC_TYPE_FLIP)
        && gst_element_register(plugin, "camrecmask", GST_RANK_NONE, CAMREC_TYPE_MASK);
}

gboolean camrec_elements_register(void)
{
    static gsize once = 0;
    static gboolean registered = FALSE;
    if (g_once_init_enter(&once)) {
        registered = gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "camrec", CAMREC_PLUGIN_DESCRIPTION,
                                                camrec_elements_plugin_init, CAMREC_PLUGIN_VERSION, CAMREC_PLUGIN_LICENSE,
                                                "camrec", "camrec", CAMREC_PLUGIN_ORIGIN);
        g_once_init_leave(&once, 1);
    }
    return registered;
}
