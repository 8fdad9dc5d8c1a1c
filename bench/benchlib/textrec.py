"""Section 19: text read while recording (issue 34 item 2): the movie's frames and the
recording's CPU with `--text-every 1s` at 1280x720@30 (whole frames, and a region around the
label), against the same recording without it. camrec's alone: no peer reads text while
recording. Opt-in (--only textrec)."""

from __future__ import annotations

import time
from pathlib import Path

from .common import Child, json_lines, log, median, run_quiet
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LABEL_REGION = "20,590,470,110"   # the label, 480x120 at 15,585 (--overlay-image-position bottom-left)
VARIANTS = (
    ("no text", []),
    ("--text-every 1s, whole frames", ["--text-every", "1s"]),
    ("--text-every 1s --text-region (the label)", ["--text-every", "1s", "--text-region", LABEL_REGION]),
)


def label(ctx: Context) -> Path:
    """A 480x120 PNG reading DOCK 14, black on white (60 px type), made once in bench/out."""
    path = ctx.out / "textrec-label.png"
    if not path.exists():
        draw = f"drawtext=fontfile={FONT}:text='DOCK 14':fontsize=60:fontcolor=black:x=20:y=25"
        run_quiet(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=480x120",
                   "-vf", draw, "-frames:v", "1", path])
    return path


def frames_in(movie: Path) -> int | None:
    done = run_quiet(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                      "stream=nb_read_frames", "-of", "csv=p=0", movie], check=False)
    try:
        return int(done.stdout.strip())
    except ValueError:
        return None


def one_run(ctx: Context, run_dir: Path, name: str, extra: list[str], seconds: float, png: Path) -> dict:
    movie = run_dir / f"{name}.mp4"
    argv = ctx.toolbox.camrec_record(YUYV_720, "/dev/video0", seconds, movie,
                                     extra=["--overlay-image", str(png), "--overlay-image-position", "bottom-left", *extra])
    done = Child(argv, ctx.toolbox.env(YUYV_720.vcam("/dev/video0")), run_dir, name, nice=ctx.nice,
                 timeout=seconds * 4 + 60).wait()
    lines = json_lines(done.stdout_path)
    readings = [line for line in lines if line.get("type") == "text"]
    result = next((line for line in lines if line.get("type") == "result"), {})
    return {
        "rc": done.returncode, "cpu": done.cpu, "wall": done.wall,
        "readings": len(readings), "skipped": sum(line.get("skipped") or 0 for line in readings),
        "read_words": sum(1 for line in readings if "DOCK 14" in line.get("text", "")),
        "frames": frames_in(movie), "dropped": result.get("dropped_frames"),
    }


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("textrec", "19. Text while recording")
    run_dir = ctx.dir("textrec")
    seconds = 6.0 if ctx.settings.quick else 30.0
    runs = 1 if ctx.settings.quick else 3
    png = label(ctx)
    expected = int(seconds * YUYV_720.fps)
    figures: dict[str, list[dict]] = {}
    for index, (name, extra) in enumerate(VARIANTS):
        for r in range(runs):
            log(f"textrec: {name}, run {r + 1}")
            figures.setdefault(name, []).append(one_run(ctx, run_dir, f"v{index}-{r}", extra, seconds, png))
    result.method = [
        f"The emulated camera at {YUYV_720.name}, a label (DOCK 14, 480x120, black on white) placed bottom-left with "
        f"--overlay-image; {seconds:g}-s recordings (x264enc, camrec's defaults), {runs} of each: without text, with "
        "`--text-every 1s` reading whole frames (read at 2560x1440), and with `--text-region` around the label. CPU: "
        "user + system seconds of the camrec process and all its threads (wait4) per recorded second, median. "
        f"Frames: ffprobe's count of the movie's frames against the {expected} the camera delivered in that time (a "
        "frame lost, reported dropped or not, is one short). Readings: `text` lines, the frames passed over while "
        "the reader was busy (`skipped`), and how many read the label."
    ]
    rows = []
    cpu: dict[str, float | None] = {}
    lost_with_text = 0
    for name, _ in VARIANTS:
        runs_of = figures[name]
        ok = [r for r in runs_of if r["rc"] == 0 and r["frames"] is not None]
        cpu[name] = median([r["cpu"] / seconds for r in ok]) if ok else None
        lost = [expected - r["frames"] for r in ok]
        if name != "no text":
            lost_with_text = max([lost_with_text, *lost])
        rows.append([
            name, f"{cpu[name]:.3f}" if cpu[name] is not None else "failed",
            ", ".join(str(r["frames"]) for r in ok) or "—",
            ", ".join(str(r["dropped"]) for r in ok) or "—",
            ", ".join(f"{r['readings']} ({r['skipped']} skipped, {r['read_words']} read DOCK 14)" for r in ok) or "—",
        ])
    result.body = [table(["run", "CPU s per recorded s", f"frames in the movie (of {expected})", "dropped (reported)",
                          "readings"], rows)]
    base, whole, region = (cpu[name] for name, _ in VARIANTS)
    if base is not None and whole is not None:
        result.summary.append(SummaryRow(
            figure="recording CPU with --text-every 1s (720p30, whole frames)", camrec=f"{whole:.3f} s/s (without: {base:.3f})",
            goal="", met=None))
    if base is not None and region is not None:
        result.summary.append(SummaryRow(
            figure="recording CPU with --text-every 1s and a region", camrec=f"{region:.3f} s/s (without: {base:.3f})",
            goal="", met=None))
    measured = all(r["frames"] is not None for name, _ in VARIANTS[1:] for r in figures[name])
    result.summary.append(SummaryRow(
        figure="movie frames lost with --text-every 1s at 720p30", camrec=str(lost_with_text) if measured else "not measured",
        goal="0", met=(lost_with_text == 0) if measured else None))
    result.seconds = time.monotonic() - started
    return result
