import ArgumentParsing
import CamrecKit

/// The camera-control options (`--set`, `--flash`, `--keep-controls`) of record and still,
/// and record's `--settle`. The names, values and checks live in V4L2/CamrecKit; this
/// only reads the options.
public enum PictureControlOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--set"], value: "NAME=VALUE", help: "set a camera control before starting, checked against the camera's range first; several as NAME=VALUE,NAME=VALUE: "
            + ControlRequest.friendlyNames.map(\.name).joined(separator: ", ")
            + ", or any control `camrec devices --controls` lists (see Camera controls below)", repeatable: true, summary: "set a camera control, e.g. brightness=60"),
        OptionSpec(["--flash"], value: "MODE", help: "on, off or auto: the camera's flash, torch or LED (V4L2 flash_led_mode, UVC \"LED1 Mode\"); a camera without one is an error for on and auto", summary: "the flash or LED: on, off or auto"),
        OptionSpec(["--keep-controls"], help: "leave the camera's controls as camrec set them when it ends (default: put back every control camrec changed)", summary: "leave the controls as set at the end"),
    ]

    /// record's `--settle`.
    public static let settleSpec = OptionSpec(["--settle"], value: "T", help: "wait at most T (e.g. 3s) for exposure (and autofocus, where the camera reports it) to settle before the movie's first frame; the frames before are not recorded, and a JSON settled line says how long it took (default: 0, record from the first frame)", summary: "wait up to T for exposure to settle first")

    /// The CAMERA CONTROLS part of `--help`: each friendly name and what it maps to.
    public static let discussion: String = {
        let names = ControlRequest.friendlyNames
        let width = names.map(\.name.count).max() ?? 0
        let lines = names.map { entry in
            "  " + entry.name + String(repeating: " ", count: width - entry.name.count) + "  " + entry.summary
        }
        return "Camera controls (--set NAME=VALUE; also camrec ctl SOCKET set NAME=VALUE while recording):\n"
            + lines.joined(separator: "\n")
            + "\nA recording keeps the asked frame rate: camrec turns off exposure_auto_priority (auto-exposure lowering the frame rate in low light) unless --set exposure-priority=on, and warns when it cannot. When camrec ends it puts back every control it changed, unless --keep-controls."
    }()
}
