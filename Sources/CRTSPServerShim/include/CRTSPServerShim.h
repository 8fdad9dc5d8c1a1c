#ifndef CRTSPSERVERSHIM_H
#define CRTSPSERVERSHIM_H

#include <gst/gst.h>

/// An RTSP server (gst-rtsp-server) with one or more shared mounts (one per camera), each
/// with a media fed by an appsrc named "feed": every client of a mount sees the same stream,
/// pushed with camrec_rtsp_server_push.
/// The server runs its own GLib main loop on a thread of its own. Owned by the caller:
/// free it exactly once with camrec_rtsp_server_free.
typedef struct CamrecRtspServer CamrecRtspServer;

/// Streams of the media: 0 the picture (an appsrc named "feed"), 1 the sound ("sound").
#define CAMREC_RTSP_STREAMS 2

/// Whether gst-rtsp-server could be loaded (it is loaded on first use, not linked): 1, or 0
/// with `*error` set (when `error` is not NULL) to why not, freed by the caller with g_free.
/// `CAMREC_RTSP_SERVER_LIBRARY` names another file to load instead of
/// libgstrtspserver-1.0.so.0.
int camrec_rtsp_server_available(char **error);

/// Listens on `address`:`port` (0: any free port) and serves `count` mounts: `launches[i]`
/// (gst-rtsp-server launch syntax, with an appsrc named "feed", and one named "sound" with
/// sound) at `paths[i]`. With `user` and `password` (both
/// non-NULL), clients must authenticate with RTSP digest authentication; otherwise anyone
/// who reaches the address may watch. NULL on failure (also when the library cannot be
/// loaded), with `*error` set to a message the caller frees with g_free.
CamrecRtspServer *camrec_rtsp_server_new(const char *address, int port, int count, const char *const *paths,
                                         const char *const *launches, const char *user, const char *password,
                                         char **error);

/// The port the server listens on (the one chosen for port 0).
int camrec_rtsp_server_port(const CamrecRtspServer *server);

/// Pushes a copy of `sample` to `stream` (0 picture, 1 sound) of mount `mount`'s (0 for the
/// first of `paths`) media being served, if
/// any: its caps, and its buffer with its running time in the recording (from the sample's
/// segment) moved to the media's at the first buffer the media got, the same for both
/// streams, so they stay in step. Never blocks. Returns 1 when a media took it, 0 when no
/// client is watching. The sample stays the caller's.
int camrec_rtsp_server_push(CamrecRtspServer *server, int mount, int stream, GstSample *sample);

/// How many clients are connected.
int camrec_rtsp_server_clients(CamrecRtspServer *server);

/// Disconnects every client, stops the server's thread and frees everything.
void camrec_rtsp_server_free(CamrecRtspServer *server);

#endif
