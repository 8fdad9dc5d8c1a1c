import ArgumentParsing
import CamrecKit

/// The live-stream options of `camrec` (record).
public enum ServeOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--serve"], value: "[ADDR:]PORT", help: "serve the recording's own encoded stream over RTSP at rtsp://ADDR:PORT/live (several cameras in movies of their own: /camera1, /camera2, …) to any number of clients (ffplay, VLC, an NVR), never at the movie's cost; ADDR is 127.0.0.1 (this machine only) unless given, and any other address needs --serve-auth or --serve-insecure; PORT 0 picks a free port (the started line and ctl status give the URL)", summary: "serve the stream over RTSP (ffplay, VLC, NVR)"),
        OptionSpec(["--serve-auth"], value: "USER:PASSWORD", help: "with --serve: clients must log in with RTSP digest authentication (rtsp://USER:PASSWORD@ADDR:PORT/live); on the command line every user of the machine can read it (ps): prefer --serve-auth-file or the environment variable CAMREC_SERVE_AUTH=USER:PASSWORD", summary: "RTSP login (or the file, or CAMREC_SERVE_AUTH)"),
        OptionSpec(["--serve-auth-file"], value: "FILE", help: "with --serve: read USER:PASSWORD for --serve-auth from the first line of FILE, which only its owner may read (chmod 600 FILE)", summary: "read USER:PASSWORD from FILE (chmod 600)"),
        OptionSpec(["--serve-insecure"], help: "with --serve on an address other than this machine's loopback: allow anyone who reaches it to watch, without a password", summary: "serve beyond this machine without a password"),
    ]
}
