import ArgumentParsing
import CamrecKit

/// `--schedule`: recording only inside time windows.
public enum ScheduleOptions {
    /// The options, with their help.
    public static let specs: [OptionSpec] = [
        OptionSpec(["--schedule"], value: "SPEC", help: "record only inside these windows of the week, e.g. \"mon-fri 07:30-18:00, sat 09:00-13:00\" (days mon…sun, ranges mon-fri, lists sat,sun, daily; times HH:MM or HH:MM:SS; 22:00-06:00 goes over midnight; local time, or UTC with --utc); between windows the camera is closed and a schedule line says when the next starts; each window is a movie of its own named as --segment names them (NAME-0001.EXT, or OUTPUT's strftime fields), which ends exactly at the window's end; --max-duration, given, caps each window's movie; with --standby: clips only inside the windows", summary: "record only inside windows (\"mon-fri 07:30-18:00\")"),
        OptionSpec(["--between-windows"], value: "WHAT", help: "with --schedule: what camrec does between the windows: closed (the camera is closed; the default) or standby (the camera stays open making only event clips, as --standby does, so --on-motion, --on-sound and ctl clip work out of hours; needs a clip option)", summary: "closed (default) or standby: clips out of hours"),
    ]
}
