#include "CRTSPServerShim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <gst/app/gstappsrc.h>
#include <gst/rtsp-server/rtsp-server.h>

/* gst-rtsp-server is loaded when a server is first made, not linked: a camrec that serves
 * nothing does not load it and the libraries it brings (GIO, libmount, libselinux, libblkid,
 * PCRE2, GStreamer's RTSP, SDP, RTP and net libraries: about 1.4 MB resident in every
 * process), and camrec runs where the library is not installed (--serve then says what to
 * install). The functions used, looked up once (gst_rtsp_token_unref is the header's
 * inline call of gst_mini_object_unref): */
#define CAMREC_RTSP_FUNCTIONS(X)                                                                        \
    X(gst_rtsp_server_new) X(gst_rtsp_server_set_address) X(gst_rtsp_server_set_service)                \
    X(gst_rtsp_server_set_auth) X(gst_rtsp_server_get_mount_points) X(gst_rtsp_server_create_source)   \
    X(gst_rtsp_server_get_bound_port) X(gst_rtsp_server_client_filter) X(gst_rtsp_media_factory_new)   \
    X(gst_rtsp_media_factory_set_launch) X(gst_rtsp_media_factory_set_shared)                          \
    X(gst_rtsp_media_factory_add_role) X(gst_rtsp_media_get_element) X(gst_rtsp_mount_points_add_factory) \
    X(gst_rtsp_auth_new) X(gst_rtsp_auth_set_supported_methods) X(gst_rtsp_auth_add_digest)            \
    X(gst_rtsp_token_new)

static struct {
#define CAMREC_RTSP_SLOT(name) __typeof__(&name) name;
    CAMREC_RTSP_FUNCTIONS(CAMREC_RTSP_SLOT)
#undef CAMREC_RTSP_SLOT
} rtsp;

/* Why the library could not be loaded, or NULL once it is (set once, then read only). */
static char *load_failure;

static void load_library(void) {
    const char *name = getenv("CAMREC_RTSP_SERVER_LIBRARY");
    if (!name || !*name) name = "libgstrtspserver-1.0.so.0";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_failure = g_strdup_printf("%s", dlerror());
        return;
    }
#define CAMREC_RTSP_LOOKUP(fn)                                                                         \
    if (!load_failure && !(rtsp.fn = (__typeof__(rtsp.fn))dlsym(library, #fn)))                          \
        load_failure = g_strdup_printf("%s has no %s", name, #fn);
    CAMREC_RTSP_FUNCTIONS(CAMREC_RTSP_LOOKUP)
#undef CAMREC_RTSP_LOOKUP
}

int camrec_rtsp_server_available(char **error) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        load_library();
        g_once_init_leave(&once, 1);
    }
    if (load_failure && error) *error = g_strdup(load_failure);
    return load_failure == NULL;
}

/* From here on every gst_rtsp_* call goes through the table. */
#define CAMREC_RTSP_CALL(name) rtsp.name
#define gst_rtsp_server_new CAMREC_RTSP_CALL(gst_rtsp_server_new)
#define gst_rtsp_server_set_address CAMREC_RTSP_CALL(gst_rtsp_server_set_address)
#define gst_rtsp_server_set_service CAMREC_RTSP_CALL(gst_rtsp_server_set_service)
#define gst_rtsp_server_set_auth CAMREC_RTSP_CALL(gst_rtsp_server_set_auth)
#define gst_rtsp_server_get_mount_points CAMREC_RTSP_CALL(gst_rtsp_server_get_mount_points)
#define gst_rtsp_server_create_source CAMREC_RTSP_CALL(gst_rtsp_server_create_source)
#define gst_rtsp_server_get_bound_port CAMREC_RTSP_CALL(gst_rtsp_server_get_bound_port)
#define gst_rtsp_server_client_filter CAMREC_RTSP_CALL(gst_rtsp_server_client_filter)
#define gst_rtsp_media_factory_new CAMREC_RTSP_CALL(gst_rtsp_media_factory_new)
#define gst_rtsp_media_factory_set_launch CAMREC_RTSP_CALL(gst_rtsp_media_factory_set_launch)
#define gst_rtsp_media_factory_set_shared CAMREC_RTSP_CALL(gst_rtsp_media_factory_set_shared)
#define gst_rtsp_media_factory_add_role CAMREC_RTSP_CALL(gst_rtsp_media_factory_add_role)
#define gst_rtsp_media_get_element CAMREC_RTSP_CALL(gst_rtsp_media_get_element)
#define gst_rtsp_mount_points_add_factory CAMREC_RTSP_CALL(gst_rtsp_mount_points_add_factory)
#define gst_rtsp_auth_new CAMREC_RTSP_CALL(gst_rtsp_auth_new)
#define gst_rtsp_auth_set_supported_methods CAMREC_RTSP_CALL(gst_rtsp_auth_set_supported_methods)
#define gst_rtsp_auth_add_digest CAMREC_RTSP_CALL(gst_rtsp_auth_add_digest)
#define gst_rtsp_token_new CAMREC_RTSP_CALL(gst_rtsp_token_new)

/* The media's appsrcs, by stream: the picture, and the sound when there is one. */
static const char *const feed_names[CAMREC_RTSP_STREAMS] = {"feed", "sound"};

/* One mount: its media's appsrcs and the caps and time offset of what is pushed to it. */
typedef struct {
    CamrecRtspServer *server;
    GstElement *feeds[CAMREC_RTSP_STREAMS];
    GstCaps *caps[CAMREC_RTSP_STREAMS];
    /* Counts the media made; `stamped` is the one whose offset is known. The recording's
       running times (the camera's frame times, the sound's sample times) are moved by
       `offset` to the media's running time at the first buffer it got: evenly spaced,
       unlike arrival times, and picture and sound stay in step. */
    guint media;
    guint stamped;
    GstClockTimeDiff offset;
} CamrecRtspMount;

struct CamrecRtspServer {
    GMainContext *context;
    GMainLoop *loop;
    GThread *thread;
    GstRTSPServer *server;
    GSource *source;
    int port;
    /* Guards every mount's feeds, caps and offset: pushes come from streaming threads,
       media from the loop's. */
    GMutex lock;
    int count;
    CamrecRtspMount *mounts;
};

static gpointer run_loop(gpointer data) {
    CamrecRtspServer *self = data;
    g_main_context_push_thread_default(self->context);
    g_main_loop_run(self->loop);
    g_main_context_pop_thread_default(self->context);
    return NULL;
}

/* A new media of a mount (the first client, or the first after all had left): its appsrc is fed from now on. */
static void media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
    (void)factory;
    CamrecRtspMount *mount = data;
    CamrecRtspServer *self = mount->server;
    GstElement *bin = gst_rtsp_media_get_element(media);
    GstElement *feeds[CAMREC_RTSP_STREAMS];
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) feeds[i] = gst_bin_get_by_name_recurse_up(GST_BIN(bin), feed_names[i]);
    gst_object_unref(bin);
    GstElement *old[CAMREC_RTSP_STREAMS];
    g_mutex_lock(&self->lock);
    mount->media++;
    for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) {
        if (feeds[i] && mount->caps[i]) gst_app_src_set_caps(GST_APP_SRC(feeds[i]), mount->caps[i]);
        old[i] = mount->feeds[i];
        mount->feeds[i] = feeds[i];
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

CamrecRtspServer *camrec_rtsp_server_new(const char *address, int port, int count, const char *const *paths,
                                         const char *const *launches, const char *user, const char *password,
                                         char **error) {
    if (!camrec_rtsp_server_available(error)) return NULL;
    CamrecRtspServer *self = g_new0(CamrecRtspServer, 1);
    g_mutex_init(&self->lock);
    self->count = count > 0 ? count : 0;
    self->mounts = g_new0(CamrecRtspMount, self->count > 0 ? self->count : 1);
    self->context = g_main_context_new();
    self->loop = g_main_loop_new(self->context, FALSE);
    self->server = gst_rtsp_server_new();
    gchar *service = g_strdup_printf("%d", port);
    gst_rtsp_server_set_address(self->server, address);
    gst_rtsp_server_set_service(self->server, service);
    g_free(service);

    if (user && password) {
        GstRTSPAuth *auth = gst_rtsp_auth_new();
        gst_rtsp_auth_set_supported_methods(auth, GST_RTSP_AUTH_DIGEST);
        GstRTSPToken *token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer", NULL);
        gst_rtsp_auth_add_digest(auth, user, password, token);
        gst_rtsp_token_unref(token);
        gst_rtsp_server_set_auth(self->server, auth);
        g_object_unref(auth);
    }
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(self->server);
    for (int m = 0; m < self->count; m++) {
        self->mounts[m].server = self;
        GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
        gst_rtsp_media_factory_set_launch(factory, launches[m]);
        gst_rtsp_media_factory_set_shared(factory, TRUE);
        g_signal_connect(factory, "media-configure", G_CALLBACK(media_configure), &self->mounts[m]);
        if (user && password) {
            gst_rtsp_media_factory_add_role(factory, "viewer",
                                            GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                            GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
        }
        gst_rtsp_mount_points_add_factory(mounts, paths[m], factory); /* takes the factory */
    }
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

int camrec_rtsp_server_push(CamrecRtspServer *self, int index, int stream, GstSample *sample) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstCaps *caps = gst_sample_get_caps(sample);
    if (!buffer || index < 0 || index >= self->count || stream < 0 || stream >= CAMREC_RTSP_STREAMS) return 0;
    CamrecRtspMount *mount = &self->mounts[index];
    GstClockTime pts = running_time(sample, GST_BUFFER_PTS(buffer));
    GstClockTime dts = running_time(sample, GST_BUFFER_DTS(buffer));
    GstClockTime first = GST_CLOCK_TIME_IS_VALID(dts) ? dts : pts;
    g_mutex_lock(&self->lock);
    if (caps && (!mount->caps[stream] || !gst_caps_is_equal(caps, mount->caps[stream]))) gst_caps_replace(&mount->caps[stream], caps);
    GstElement *feed = mount->feeds[stream] ? gst_object_ref(mount->feeds[stream]) : NULL;
    if (feed && mount->stamped != mount->media && GST_CLOCK_TIME_IS_VALID(first)) {
        /* Until the media plays its base time is not set, and "running time" would be the
           clock's own time (hours: the machine's uptime), putting every buffer hours in the
           future for the server's clocked sinks, which then send nothing. Such buffers are
           not pushed: a live media plays within moments of being made. */
        GST_OBJECT_LOCK(feed);
        gboolean playing = GST_STATE(feed) == GST_STATE_PLAYING;
        GST_OBJECT_UNLOCK(feed);
        if (!playing) {
            g_mutex_unlock(&self->lock);
            gst_object_unref(feed);
            return 0;
        }
        GstClockTime now = gst_element_get_current_running_time(feed);
        mount->stamped = mount->media;
        mount->offset = GST_CLOCK_DIFF(first, GST_CLOCK_TIME_IS_VALID(now) ? now : 0);
    }
    GstClockTimeDiff offset = mount->offset;
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
    for (int m = 0; m < self->count; m++) {
        for (int i = 0; i < CAMREC_RTSP_STREAMS; i++) {
            if (self->mounts[m].feeds[i]) gst_object_unref(self->mounts[m].feeds[i]);
            if (self->mounts[m].caps[i]) gst_caps_unref(self->mounts[m].caps[i]);
        }
    }
    g_free(self->mounts);
    g_mutex_clear(&self->lock);
    g_free(self);
}
