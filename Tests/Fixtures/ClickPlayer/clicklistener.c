/* clicklistener: how a GStreamer recorder sees the clicks of clickplayer.c. pulsesrc on
 * a pipeline that runs on GstSystemClock (CLOCK_MONOTONIC) with base time 0 and start time
 * NONE, so running time is monotonic time and a buffer's timestamp is the monotonic time
 * GStreamer assigns its first sample (what camrec's pulsesrc would stamp, latency included).
 *
 *   clicklistener --source NAME --seconds S [--rate R]
 *
 * Prints "listening", then "onset T" (monotonic seconds) for each click onset (the first
 * sample above 0.3 of full scale after 100 ms of quiet), then "done".
 * Measured beside clickplayer's own parec envelope: pulsesrc stamps the onsets 4 to 9 ms
 * later than they reach a client reading the monitor (constant within a run).
 *
 * Build: cc -O1 clicklistener.c -o clicklistener $(pkg-config --cflags --libs gstreamer-app-1.0) */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static gint64 mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (gint64)t.tv_sec * 1000000000 + t.tv_nsec;
}

static const char *arg(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

/* Running time = clock time: the system clock (CLOCK_MONOTONIC), base time 0. */
static GstElement *launch(const char *description) {
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &error);
    if (!pipeline) {
        fprintf(stderr, "clicklistener: %s\n", error ? error->message : "bad pipeline");
        exit(2);
    }
    GstClock *clock = gst_system_clock_obtain();
    g_object_set(clock, "clock-type", GST_CLOCK_TYPE_MONOTONIC, NULL);
    gst_pipeline_use_clock(GST_PIPELINE(pipeline), clock);
    gst_object_unref(clock);
    gst_element_set_start_time(pipeline, GST_CLOCK_TIME_NONE);
    gst_element_set_base_time(pipeline, 0);
    return pipeline;
}

/* Stops on an error message; returns 0 while the pipeline is well. */
static int bus_failed(GstElement *pipeline) {
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *m;
    int failed = 0;
    while ((m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR | GST_MESSAGE_EOS))) {
        if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
            GError *e = NULL;
            gchar *debug = NULL;
            gst_message_parse_error(m, &e, &debug);
            fprintf(stderr, "clicklistener: %s (%s)\n", e->message, debug ? debug : "");
            g_clear_error(&e);
            g_free(debug);
        }
        failed = 1;
        gst_message_unref(m);
    }
    gst_object_unref(bus);
    return failed;
}

static int listen_to(int argc, char **argv) {
    const char *source = arg(argc, argv, "--source", "vsink.monitor");
    double seconds = atof(arg(argc, argv, "--seconds", "5"));
    int rate = atoi(arg(argc, argv, "--rate", "48000"));
    gchar *description = g_strdup_printf(
        "pulsesrc device=%s provide-clock=false client-name=clicklistener ! "
        "audio/x-raw,format=S16LE,layout=interleaved,channels=1,rate=%d ! appsink name=sink sync=false",
        source, rate);
    GstElement *pipeline = launch(description);
    g_free(description);
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    gint64 end = mono_ns() + (gint64)(seconds * 1e9);
    gint64 quiet = 0; /* samples below the threshold, up to 100 ms */
    printf("listening\n");
    fflush(stdout);
    while (!stopping && mono_ns() < end) {
        GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 100 * GST_MSECOND);
        if (!sample) {
            if (bus_failed(pipeline)) return 1;
            continue;
        }
        GstBuffer *buf = gst_sample_get_buffer(sample);
        GstMapInfo map;
        gst_buffer_map(buf, &map, GST_MAP_READ);
        const gint16 *d = (const gint16 *)map.data;
        size_t n = map.size / 2;
        for (size_t i = 0; i < n; i++) {
            if (abs(d[i]) > 0.3 * 32767) {
                if (quiet >= rate / 10 && GST_BUFFER_PTS_IS_VALID(buf))
                    printf("onset %.6f\n", (double)(GST_BUFFER_PTS(buf) + gst_util_uint64_scale_int(i, GST_SECOND, rate)) / 1e9);
                quiet = 0;
            } else if (quiet < rate / 10) {
                quiet++;
            }
        }
        fflush(stdout);
        gst_buffer_unmap(buf, &map);
        gst_sample_unref(sample);
    }
    printf("done\n");
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    return 0;
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    return listen_to(argc, argv);
}
