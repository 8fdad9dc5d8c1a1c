"""Section 15 (opt-in: `--only multicam` or `--all`): two 720p cameras at once (issue 19's cost
rows): camrec with a movie per camera against two ffmpeg processes, and camrec's composed canvas
(`--layout stacked`, 1280x1440) against ffmpeg's `vstack` doing the same, all from two emulated
cameras on the 2 cores."""

from __future__ import annotations

import re
import time
from pathlib import Path

from .common import Child, log, median, ratio_text, run_quiet, spread
from .media import cell_losses, probe_video, recording_drops
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

DEVICES = ("/dev/video0", "/dev/video1")
CANVAS = "1280x1440"
VARIANTS = ("camrec-separate", "ffmpeg-separate", "camrec-composed", "ffmpeg-vstack")


def two_cameras() -> str:
    return ";".join(YUYV_720.vcam(device) for device in DEVICES)


def composed_bitrate(ctx: Context, env: dict[str, str], run_dir: Path) -> int:
    """x264enc's bitrate (kbit/s) in camrec's printed pipeline for the composed canvas."""
    done = run_quiet([ctx.toolbox.camrec, "-d", DEVICES[0], "-d", DEVICES[1], "--size", YUYV_720.size, "--fps",
                      str(YUYV_720.fps), "--layout", "stacked", "--canvas", CANVAS, "--print-pipeline", "--force",
                      str(run_dir / "probe.mp4")], env=env, check=False)
    found = re.search(r"x264enc[^!]*\bbitrate=(\d+)", done.stdout)
    return int(found.group(1)) if found else 4000


def vstack_argv(ctx: Context, frames: int, bitrate: int, output: Path) -> list[str]:
    """ffmpeg with the same x264 settings as section 1's peer, both cameras stacked into one picture."""
    single = ctx.toolbox.ffmpeg_record(YUYV_720, DEVICES[0], frames, output)
    camera = single[single.index("-f"):single.index("-i") + 2]          # -f v4l2 … -i /dev/video0
    second = camera[:-1] + [DEVICES[1]]
    rest = single[single.index("-frames:v"):]
    rest[rest.index("-b:v") + 1] = f"{bitrate}k"
    rest[rest.index("-maxrate") + 1] = f"{bitrate}k"
    rest[rest.index("-bufsize") + 1] = f"{bitrate * 600 // 1000}k"
    return single[:single.index("-f")] + camera + second + ["-filter_complex", "[0:v][1:v]vstack"] + rest


def run_variant(ctx: Context, variant: str, seconds: float, run_dir: Path, name: str, bitrate: int) -> dict:
    env = ctx.toolbox.env(two_cameras())
    frames = round(seconds * YUYV_720.fps)
    mode = YUYV_720
    run = {"ok": False, "cpu": None, "frames": [], "lost": [], "note": ""}
    if variant.startswith("camrec"):
        output = run_dir / f"{name}.mp4"
        extra = ["-d", DEVICES[1]] + (["--layout", "stacked", "--canvas", CANVAS] if variant == "camrec-composed" else [])
        argv = ctx.toolbox.camrec_record(mode, DEVICES[0], seconds, output, extra=extra)
        children = [Child(argv, env, run_dir, name, nice=ctx.nice, timeout=seconds + 90)]
        movies = [output] if variant == "camrec-composed" else [run_dir / f"{name}-{k}.mp4" for k in (1, 2)]
    elif variant == "ffmpeg-separate":
        movies = [run_dir / f"{name}-{k}.mp4" for k in (1, 2)]
        children = [Child(ctx.toolbox.ffmpeg_record(mode, device, frames, movie), env, run_dir, f"{name}-{k}",
                          nice=ctx.nice, timeout=seconds + 90)
                    for k, (device, movie) in enumerate(zip(DEVICES, movies), start=1)]
    else:
        movies = [run_dir / f"{name}.mp4"]
        children = [Child(vstack_argv(ctx, frames, bitrate, movies[0]), env, run_dir, name, nice=ctx.nice,
                          timeout=seconds + 90)]
    done = [child.wait() for child in children]
    failed = [d for d in done if d.returncode != 0]
    if failed:
        run["note"] = f"exit {failed[0].returncode}: {failed[0].stderr_tail(2)}"
        return run
    run["cpu"] = sum(d.cpu for d in done) / seconds
    for movie in movies:
        if variant.endswith("separate"):
            # Frames missing between the movie's first and last camera stamps: camrec's movies
            # start together, at a later stamp than 0 (frames before the common start are not
            # the movie's), so the count from stamp 0 would not be a loss.
            drops = recording_drops(movie, mode.width, mode.height, mode.fps)
            run["frames"].append(drops["frames"])
            first, last = drops["first"], drops["last"]
            run["lost"].append(None if first is None or last is None or drops["frames"] is None
                               else last - first + 1 - drops["frames"])
        else:
            run["frames"].append(probe_video(movie)["packets"])
            # Both cameras at their own size, one above the other: each cell's stamps.
            cells = [cell_losses(movie, mode.width, y) for y in (0, mode.height)]
            run["lost"].append(None if any(c["missing"] is None for c in cells)
                               else sum(c["missing"] + c["unread"] for c in cells))
    run["ok"] = True
    return run


def section(ctx: Context) -> SectionResult:
    result = SectionResult("multicam", "15. Two cameras at once")
    began = time.monotonic()
    code, text = ctx.toolbox.help_text()
    if "--layout" not in text:
        result.measured = False
        result.not_measured = "camrec has no `--layout` (camrec --help)"
        return result
    seconds, rounds = (10.0, 1) if ctx.settings.quick else (30.0, 3)
    run_dir = ctx.dir("multicam")
    bitrate = composed_bitrate(ctx, ctx.toolbox.env(two_cameras()), run_dir)
    runs: dict[str, list[dict]] = {v: [] for v in VARIANTS}
    for r in range(rounds):
        order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
        for variant in order:
            log(f"multicam: {variant}, {seconds:g} s of two {YUYV_720.name} cameras (round {r + 1}/{rounds})")
            runs[variant].append(run_variant(ctx, variant, seconds, run_dir, f"{variant}{r}", bitrate))
    expected = round(seconds * YUYV_720.fps)
    ok = {v: [run for run in found if run["ok"]] for v, found in runs.items()}
    labels = {
        "camrec-separate": "camrec, a movie per camera (`-d A -d B`)",
        "ffmpeg-separate": "two ffmpeg processes, one per camera",
        "camrec-composed": f"camrec, one composed movie (`--layout stacked --canvas {CANVAS}`)",
        "ffmpeg-vstack": f"ffmpeg, both inputs through `vstack` ({CANVAS})",
    }
    rows = []
    for v in VARIANTS:
        good = ok[v]
        frames = [n for run in good for n in run["frames"]]
        lost = [n for run in good for n in run["lost"]]
        rows.append([labels[v], f"{len(good)}/{len(runs[v])}", spread([run["cpu"] for run in good]),
                     spread(frames, "{:.0f}"), spread(lost, "{:.0f}"),
                     "; ".join(run["note"] for run in runs[v] if run["note"])])
    result.method.append(
        f"Two emulated cameras ({', '.join(DEVICES)}, each {YUYV_720.name}) in one environment, {seconds:g} s, "
        f"{rounds} rounds of four variants in rotated order, one at a time: camrec with `-d {DEVICES[0]} -d {DEVICES[1]}` "
        "(a movie per camera, all started together); two ffmpeg processes with section 1's x264 settings, one per "
        f"camera, started together; camrec `--layout stacked --canvas {CANVAS}` (one movie, both cameras at their own "
        f"size one above the other); ffmpeg with both cameras as inputs through `vstack` and the bitrate camrec's "
        f"printed pipeline gives the canvas ({bitrate} kbit/s). CPU is the sum over the processes (wait4 rusage) per "
        "recorded second; frames by ffprobe's packet count; lost frames: the gaps between each movie's first and last "
        "camera stamps; in a composed movie, for both cells together, the camera frames missing between each cell's "
        "first and last stamp (a camera frame that did not reach the canvas: the cell shows the one before again) plus "
        "canvas frames whose cell stamp does not read.")
    result.body.append(table(["variant", "runs ok", "CPU s per recorded s (all processes)", "frames per movie",
                              "lost frames per movie (stamps)", "notes"], rows))
    pairs = (("camrec-separate", "ffmpeg-separate", "a movie per camera, against two ffmpeg processes"),
             ("camrec-composed", "ffmpeg-vstack", f"one composed movie ({CANVAS}), against ffmpeg's vstack"))
    for mine, peer, what in pairs:
        cpu_mine = [run["cpu"] for run in ok[mine]]
        cpu_peer = [run["cpu"] for run in ok[peer]]
        ratios = [a / b for a, b in zip(cpu_mine, cpu_peer) if a and b]
        frames = [n for run in ok[mine] for n in run["frames"]]
        lost = [n for run in ok[mine] for n in run["lost"]]
        result.summary.append(SummaryRow(
            f"two cameras (section 15): CPU s per recorded s, 2 × {YUYV_720.name}, {what}",
            f"{spread(cpu_mine)}; frames per movie {spread(frames, '{:.0f}')}"
            + (f", lost {spread(lost, '{:.0f}')}" if lost else ""),
            "—", spread(cpu_peer), "—", ratio_text(ratios),
            goal=f"≤ ffmpeg; {expected} frames, none lost",
            met=None if not ratios else (median(ratios) <= 1.0 and all(n == expected for n in frames)
                                         and all(n == 0 for n in lost))))
    result.seconds = time.monotonic() - began
    result.body.append(f"The section took {result.seconds / 60:.1f} minutes.")
    return result
