"""Section 14 (opt-in: `--only liveview` or `--all`): what live view costs a recording (issue 18's
benchmark rows): the same 720p recording plain, with `--preview` (a window on a private Xvfb
display) and with `--serve` read by 1 and by 4 RTSP clients (ffmpeg, over TCP). camrec only: the
peers have no live view beside a recording (gst-launch would need a second encode or a tee of its
own, ffmpeg an output of its own to an RTSP server it does not have)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from .clips import is_type, start
from .common import log, median, spread
from .media import recording_drops
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

VARIANTS = (
    ("plain", "plain recording", []),
    ("preview", "with `--preview` (Xvfb)", ["--preview"]),
    ("serve1", "with `--serve`, 1 client", ["--serve", "0"]),
    ("serve4", "with `--serve`, 4 clients", ["--serve", "0"]),
)
CLIENTS = {"serve1": 1, "serve4": 4}


class Display:
    """A private Xvfb display for the preview window (it says its number when ready)."""

    def __enter__(self):
        self.process = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        assert self.process.stdout is not None
        number = self.process.stdout.readline().decode().strip()
        if not number.isdigit():
            self.process.kill()
            raise SystemExit("bench liveview: Xvfb did not start (install xvfb: scripts/deps)")
        self.name = ":" + number
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def clients(url: str, count: int, run_dir: Path, name: str) -> list[tuple[subprocess.Popen, Path]]:
    """`count` ffmpeg readers of the stream, each writing its progress (frame=N) to a file."""
    started = []
    for k in range(count):
        progress = run_dir / f"{name}.client{k}.progress"
        argv = ["ffmpeg", "-nostdin", "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-c", "copy",
                "-f", "null", "-progress", str(progress), "-"]
        (run_dir / f"{name}.client{k}.cmd").write_text(" ".join(argv) + "\n")
        started.append((subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=open(run_dir / f"{name}.client{k}.stderr", "wb")), progress))
    return started


def frames_read(progress: Path) -> int:
    """The last frame count a client's progress file reports (0 when none)."""
    try:
        counts = [int(line.split("=", 1)[1]) for line in progress.read_text().splitlines() if line.startswith("frame=")]
    except (OSError, ValueError):
        return 0
    return counts[-1] if counts else 0


def run_one(ctx: Context, variant: str, extra: list[str], seconds: float, run_dir: Path, name: str,
            display: Display) -> dict:
    mode = YUYV_720
    output = run_dir / f"{name}.mp4"
    argv = ctx.toolbox.camrec_record(mode, "/dev/video0", seconds, output, extra=extra)
    env = ctx.toolbox.env(mode.vcam("/dev/video0"))
    env["DISPLAY"] = display.name
    child = start(ctx, argv, env, run_dir, name, seconds + 120)
    readers = []
    run = {"ok": False, "cpu": None, "rss": None, "dropped": None, "frames": None, "client_frames": [], "note": ""}
    found = child.wait_for_line(is_type("started"), 30)
    if found and variant in CLIENTS:
        url = json.loads(found[2]).get("serve_url")
        if url:
            readers = clients(url, CLIENTS[variant], run_dir, name)
        else:
            run["note"] = "no serve_url in the started line"
    done = child.wait()
    for process, progress in readers:
        try:
            process.wait(timeout=20)   # the stream ends with the recording
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        run["client_frames"].append(frames_read(progress))
    if done.returncode != 0:
        run["note"] = f"exit {done.returncode}: {done.stderr_tail(2)}"
        return run
    fields = child.time_file.read_text().split()
    run["rss"] = int(fields[-3]) / 1024
    run["cpu"] = (float(fields[-2]) + float(fields[-1])) / seconds
    result = next((json.loads(text) for _, text in done.lines if is_type("result")(text)), {})
    run["dropped"] = result.get("dropped_frames")
    drops = recording_drops(output, mode.width, mode.height, mode.fps, light=True)
    run["frames"] = drops["frames"]
    run["stamp_drops"] = drops["dropped"]
    run["ok"] = True
    return run


def section(ctx: Context) -> SectionResult:
    result = SectionResult("liveview", "14. Live view: preview window and RTSP clients")
    began = time.monotonic()
    code, text = ctx.toolbox.help_text()
    if "--serve" not in text or "--preview" not in text:
        result.measured = False
        result.not_measured = "camrec has no `--preview` or `--serve` (camrec --help)"
        return result
    seconds, rounds = (10.0, 1) if ctx.settings.quick else (30.0, 3)
    run_dir = ctx.dir("liveview")
    runs: dict[str, list[dict]] = {key: [] for key, _, _ in VARIANTS}
    with Display() as display:
        for r in range(rounds):
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for key, _, extra in order:
                log(f"liveview: {key}, {seconds:g} s of {YUYV_720.name} (round {r + 1}/{rounds})")
                runs[key].append(run_one(ctx, key, extra, seconds, run_dir, f"{key}{r}", display))
    ok = {key: [run for run in found if run["ok"]] for key, found in runs.items()}
    plain = median([run["cpu"] for run in ok["plain"]])
    rows = []
    for key, label, _ in VARIANTS:
        good = ok[key]
        cpus = [run["cpu"] for run in good]
        cost = None if plain is None or median(cpus) is None else median(cpus) - plain
        client_frames = [n for run in good for n in run["client_frames"]]
        rows.append([label, f"{len(good)}/{len(runs[key])}", spread(cpus),
                     "—" if cost is None else f"{cost:+.3f}", spread([run["rss"] for run in good], "{:.1f}", " MB"),
                     spread([run["frames"] for run in good], "{:.0f}"),
                     spread([run["stamp_drops"] for run in good], "{:.0f}"),
                     spread([run["dropped"] for run in good], "{:.0f}"),
                     spread(client_frames, "{:.0f}") if key in CLIENTS else "",
                     "; ".join(run["note"] for run in runs[key] if run["note"])])
    result.method.append(
        f"camrec records {seconds:g} s of {YUYV_720.name} from the emulated camera (x264, MP4), {rounds} rounds of four "
        "variants in rotated order, one recording at a time: plain; with `--preview` on a private Xvfb display "
        "(camrec's window pipeline: appsrc, textoverlay, xvimagesink); with `--serve 0` and 1, then 4, `ffmpeg -rtsp_transport "
        "tcp -i URL -c copy -f null -` clients started at its `started` line (each reads the recording's own encoded "
        "stream until it ends). CPU and peak RSS of camrec alone (GNU time; the clients and Xvfb are other processes); "
        "frames stored by ffprobe's packet count, lost frames by the camera's stamps decoded from the movie and as camrec "
        "reports them (`dropped_frames`); what each client read from ffmpeg's `-progress` frame count.")
    result.body.append(table(
        ["variant", "runs ok", "CPU s per recorded s", "added to the plain recording (medians)", "peak RSS",
         "movie frames", "lost (stamps)", "lost (camrec says)", "frames each client read", "notes"], rows))
    expected = int(seconds * YUYV_720.fps)
    for key, label, _ in VARIANTS[1:]:
        good = ok[key]
        cpu = median([run["cpu"] for run in good])
        lost = [run["stamp_drops"] for run in good]
        result.summary.append(SummaryRow(
            f"live view (section 14): CPU s per recorded s {label}, 720p30, against the plain recording",
            f"{spread([run['cpu'] for run in good])} against {spread([run['cpu'] for run in ok['plain']])}"
            + ("" if cpu is None or plain is None else f" ({cpu - plain:+.3f})")
            + f"; movie frames lost {spread(lost, '{:.0f}')}",
            "no live view", "no live view", goal=f"small; 0 movie frames lost ({expected} stored)",
            met=None if not good else all(run["stamp_drops"] == 0 and run["frames"] == expected for run in good)))
    result.seconds = time.monotonic() - began
    result.body.append(f"The section took {result.seconds / 60:.1f} minutes.")
    return result
