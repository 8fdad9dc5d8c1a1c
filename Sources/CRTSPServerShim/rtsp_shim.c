#include "CRTSPServerShim.h"

#include <gst/app/gstappsrc.h>
#include <gst/rtsp-server/rtsp-server.h>

/* The media's appsrcs, by stream: the picture, and the sound when there is one. */
static const char *const feed_names[CAMREC_RTSP_STREAMS] = {"feed", "sound"};

struct CamrecRtspServer {
    GMainContext *context;
    GMainLoop *loop;
    GThread *thread;
    GstRTSPServer *server;
    GSource *source;
    int port;
    /* Guards `feed` and `caps`: pushes come from a streaming thread, media from the loop's. */
    GMutex lock;
    GstElement *feeds[CAMREC_RTSP_STREAMS];
    GstCaps *caps[CAMREC_RTSP_STREAMS];
    /* Counts the media made; `stamped` is the one whose offset is known. The recording's
       running times (the camera's frame times, the sound's sample times) are moved by
       `offset` to the media's running time at the first buffer it got: evenly spaced,
       unlike arrival times, and picture and sound stay in step. */
    guint media;
    guint stamped;
    GstClockTimeDiff offset;
};

static gpointer run_loop(gpointer data) {
    CamrecRtspServer *self = data;
    g_main_context_push_thread_default(self->context);
    g_main_loop_run(self->loop);
    g_main_context_pop_thread_default(self->context);
    return NULL;
}

/* A new media (the first client, or the first after all had left): its appsrc is fed from now on. */
static void media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
    (void)factory;
    CamrecRtspServer *self = data;
    GstElement *bin = gst_rtsp_media_get_element(media);
    GstElement *feeds[CAMREC_RTSP_STREAMS];
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) feeds[i] = gst_bin_get_by_name_recurse_up(GST_BIN(bin), feed_names[i]);
    gst_object_unref(bin);
    GstElement *old[CAMREC_RTSP_STREAMS];
    g_mutex_lock(&self->lock);
    self->media++;
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) {
        if (feeds[i] && self->caps[i]) gst_app_src_set_caps(GST_APP_SRC(feeds[i]), self->caps[i]);
        old[i] = self->feeds[i];
        self->feeds[i] = feeds[i];
    }
    g_mutex_unlock(&self->lock);
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) if (old[i]) gst_object_unref(old[i]);
}

/* `time` of a buffer of `sample`, as running time in the recording (its segment's). */
static GstClockTime running_time(GstSample *sample, GstClockTime time) {
    const GstSegment *segment = gst_sample_get_segment(sample);
    if (!GST_CLOCK_TIME_IS_VALID(time) || !segment || segment->format != GST_FORMAT_TIME) return time;
    return gst_segment_to_running_time(segment, GST_FORMAT_TIME, time);
}

static gboolean quit_loop(gpointer data) {
    g_main_loop_quit(data);
    return G_SOURCE_REMOVE;
}

static GstRTSPFilterResult disconnect_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

static GstRTSPFilterResult keep_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client;
    (*(int *)data)++;
    return GST_RTSP_FILTER_KEEP;
}

CamrecRtspServer *camrec_rtsp_server_new(const char *address, int port, const char *path, const char *launch,
                                         const char *user, const char *password, char **error) {
    CamrecRtspServer *self = g_new0(CamrecRtspServer, 1);
    g_mutex_init(&self->lock);
    self->context = g_main_context_new();
    self->loop = g_main_loop_new(self->context, FALSE);
    self->server = gst_rtsp_server_new();
    gchar *service = g_strdup_printf("%d", port);
    gst_rtsp_server_set_address(self->server, address);
    gst_rtsp_server_set_service(self->server, service);
    g_free(service);

    GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
    gst_rtsp_media_factory_set_launch(factory, launch);
    gst_rtsp_media_factory_set_shared(factory, TRUE);
    g_signal_connect(factory, "media-configure", G_CALLBACK(media_configure), self);
    if (user && password) {
        GstRTSPAuth *auth = gst_rtsp_auth_new();
        gst_rtsp_auth_set_supported_methods(auth, GST_RTSP_AUTH_DIGEST);
        GstRTSPToken *token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer", NULL);
        gst_rtsp_auth_add_digest(auth, user, password, token);
        gst_rtsp_token_unref(token);
        gst_rtsp_server_set_auth(self->server, auth);
        g_object_unref(auth);
        gst_rtsp_media_factory_add_role(factory, "viewer",
                                        GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                        GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
    }
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(self->server);
    gst_rtsp_mount_points_add_factory(mounts, path, factory); /* takes the factory */
    g_object_unref(mounts);

    GError *failure = NULL;
    self->source = gst_rtsp_server_create_source(self->server, NULL, &failure);
    if (!self->source) {
        if (error) *error = g_strdup(failure ? failure->message : "the server could not listen");
        g_clear_error(&failure);
        camrec_rtsp_server_free(self);
        return NULL;
    }
    g_source_attach(self->source, self->context);
    self->port = gst_rtsp_server_get_bound_port(self->server);
    self->thread = g_thread_new("camrec-rtsp", run_loop, self);
    return self;
}

int camrec_rtsp_server_port(const CamrecRtspServer *server) { return server->port; }

int camrec_rtsp_server_push(CamrecRtspServer *self, int stream, GstSample *sample) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstCaps *caps = gst_sample_get_caps(sample);
    if (!buffer || stream < 0 || stream >= CAMREC_RTSP_STREAMS) return 0;
    GstClockTime pts = running_time(sample, GST_BUFFER_PTS(buffer));
    GstClockTime dts = running_time(sample, GST_BUFFER_DTS(buffer));
    GstClockTime first = GST_CLOCK_TIME_IS_VALID(dts) ? dts : pts;
    g_mutex_lock(&self->lock);
    if (caps && (!self->caps[stream] || !gst_caps_is_equal(caps, self->caps[stream]))) gst_caps_replace(&self->caps[stream], caps);
    GstElement *feed = self->feeds[stream] ? gst_object_ref(self->feeds[stream]) : NULL;
    if (feed && self->stamped != self->media && GST_CLOCK_TIME_IS_VALID(first)) {
        GstClockTime now = gst_element_get_current_running_time(feed);
        self->stamped = self->media;
        self->offset = GST_CLOCK_DIFF(first, GST_CLOCK_TIME_IS_VALID(now) ? now : 0);
    }
    GstClockTimeDiff offset = self->offset;
    g_mutex_unlock(&self->lock);
    if (!feed) return 0;
    /* A shallow copy (the memory is shared), its times moved to the media's running time. */
    GstBuffer *copy = gst_buffer_copy(buffer);
    GST_BUFFER_PTS(copy) = GST_CLOCK_TIME_IS_VALID(pts) && (GstClockTimeDiff)pts + offset >= 0 ? pts + offset : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DTS(copy) = GST_CLOCK_TIME_IS_VALID(dts) && (GstClockTimeDiff)dts + offset >= 0 ? dts + offset : GST_CLOCK_TIME_NONE;
    GstCaps *current = gst_app_src_get_caps(GST_APP_SRC(feed));
    if (caps && (!current || !gst_caps_is_equal(current, caps))) gst_app_src_set_caps(GST_APP_SRC(feed), caps);
    if (current) gst_caps_unref(current);
    GstFlowReturn result = gst_app_src_push_buffer(GST_APP_SRC(feed), copy); /* takes the copy */
    gst_object_unref(feed);
    return result == GST_FLOW_OK ? 1 : 0;
}

int camrec_rtsp_server_clients(CamrecRtspServer *self) {
    int count = 0;
    GList *none = gst_rtsp_server_client_filter(self->server, keep_client, &count);
    g_list_free_full(none, g_object_unref);
    return count;
}

void camrec_rtsp_server_free(CamrecRtspServer *self) {
    if (!self) return;
    if (self->server) {
        GList *none = gst_rtsp_server_client_filter(self->server, disconnect_client, NULL);
        g_list_free_full(none, g_object_unref);
    }
    if (self->thread) {
        /* Quit from inside the loop: a quit before the loop has started would be lost. */
        GSource *idle = g_idle_source_new();
        g_source_set_callback(idle, quit_loop, self->loop, NULL);
        g_source_attach(idle, self->context);
        g_source_unref(idle);
        g_thread_join(self->thread);
    }
    if (self->source) {
        g_source_destroy(self->source);
        g_source_unref(self->source);
    }
    if (self->server) g_object_unref(self->server);
    g_main_loop_unref(self->loop);
    g_main_context_unref(self->context);
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) {
        if (self->feeds[i]) gst_object_unref(self->feeds[i]);
        if (self->caps[i]) gst_caps_unref(self->caps[i]);
    }
    g_mutex_clear(&self->lock);
    g_free(self);
}
