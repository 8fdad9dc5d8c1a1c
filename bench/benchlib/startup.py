"""2. Start-up: from process start to the first frame in the file."""

from __future__ import annotations

import time
from pathlib import Path

from . import profile
from .common import Child, log, median, ratio_text, spread
from .media import first_stamp
from .section import Context, SectionResult, SummaryRow, table
from .tools import TOOLS, YUYV_720
from .recording import rotate


def read_probe(path: Path) -> tuple[list[float], dict[int, float]]:
    """(STREAMON times, {sequence: buffer timestamp}) from the frame probe's log."""
    streamons, frames = [], {}
    try:
        for line in path.read_text().splitlines():
            parts = line.split()
            if parts[0] == "streamon":
                streamons.append(float(parts[1]))
            elif parts[0] == "dqbuf":
                frames.setdefault(int(parts[1]), float(parts[2]))
    except (OSError, IndexError, ValueError):
        pass
    return streamons, frames


def read_reqbufs(path: Path) -> int | None:
    """How many buffers the tool queued with the camera (the last non-zero VIDIOC_REQBUFS)."""
    count = None
    try:
        for line in path.read_text().splitlines():
            parts = line.split()
            if parts and parts[0] == "reqbufs" and int(parts[1]) > 0:
                count = int(parts[1])
    except (OSError, IndexError, ValueError):
        pass
    return count


def one_run(ctx: Context, tool: str, run_dir: Path) -> dict:
    mode = YUYV_720
    device = "/dev/video0"
    output = run_dir / f"{tool}.mp4"
    probe_log = run_dir / f"{tool}.probe"
    probe_log.unlink(missing_ok=True)
    argv = ctx.toolbox.record_command(tool, mode, device, ctx.settings.startup_seconds, output)
    done = Child(argv, ctx.toolbox.env(mode.vcam(device), probe_log), run_dir, tool, nice=ctx.nice,
                 timeout=60).wait()
    streamons, frames = read_probe(probe_log)
    first = first_stamp(output, mode.width, mode.height) if output.exists() else None
    run = {"tool": tool, "rc": done.returncode, "first": first, "startup": None, "streamon": None,
           "wall": done.wall, "buffers": read_reqbufs(probe_log)}
    if streamons:
        run["streamon"] = streamons[-1] - done.started_at
    if first is not None:
        captured = frames.get(first)
        if captured is None and streamons:
            captured = streamons[-1] + (first + 1) / mode.fps   # the camera's schedule
        if captured is not None:
            run["startup"] = captured - done.started_at
    return run


def first_frame_time(output: Path, probe_log: Path) -> float | None:
    """CLOCK_MONOTONIC capture time of the first frame stored in the file (from the probe log)."""
    mode = YUYV_720
    streamons, frames = read_probe(probe_log)
    first = first_stamp(output, mode.width, mode.height) if output.exists() else None
    if first is None:
        return None
    captured = frames.get(first)
    if captured is None and streamons:
        captured = streamons[-1] + (first + 1) / mode.fps
    return captured


def profile_startup(ctx: Context, tool: str) -> profile.Profile:
    """One extra start-up of the tool under perf (10 000 samples per CPU second: a start-up is short),
    keeping only the samples up to the capture of the first frame that the file stores."""
    mode, device = YUYV_720, "/dev/video0"
    run_dir = ctx.dir("startup/profile")
    output, probe_log = run_dir / f"{tool}.mp4", run_dir / f"{tool}.probe"
    probe_log.unlink(missing_ok=True)
    argv = ctx.toolbox.record_command(tool, mode, device, ctx.settings.startup_seconds, output)
    return profile.profile([(argv, ctx.toolbox.env(mode.vcam(device), probe_log))], run_dir, tool, tool,
                           nice=ctx.nice, timeout=60, freq=10000,
                           window=lambda done: (None, first_frame_time(output, probe_log)))


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("startup", "2. Start-up")
    result.method = [
        "From process start to the first frame in the file, the same way for the three tools: the "
        "harness notes CLOCK_MONOTONIC just before it forks the tool; the small probe library "
        "(`bench/probe/frame_probe.c`, preloaded in front of the emulated camera in all three) logs "
        "each dequeued buffer's timestamp, which the emulated camera sets to the frame's capture "
        "time on CLOCK_MONOTONIC; after the run the harness reads the camera stamp of the first "
        "frame stored in the file, and start-up = capture time of that frame − process start. "
        "So a tool that opens the camera early but throws its first frames away is not credited "
        "for it. Also shown: process start → VIDIOC_STREAMON (initialisation before the camera "
        "runs). A fragment is written only after 1 s of video in all three files, so watching the "
        "file would measure the fragment length rather than start-up.",
        f"1280x720 YUYV, {ctx.settings.startup_seconds:g}-s recordings, one tool at a time in rotated "
        f"order, {ctx.settings.runs} runs each after one discarded warm-up run per tool (page cache, "
        "GStreamer registry).",
    ]
    run_dir = ctx.dir("startup/warmup")
    for tool in TOOLS:
        one_run(ctx, tool, run_dir)
    runs = {tool: [] for tool in TOOLS}
    for r in range(ctx.settings.runs):
        log(f"start-up: run {r + 1}/{ctx.settings.runs}")
        run_dir = ctx.dir(f"startup/run{r + 1}")
        for tool in rotate(TOOLS, r):
            runs[tool].append(one_run(ctx, tool, run_dir))
    ms = lambda v: None if v is None else v * 1000
    rows = [[tool, spread([ms(r["startup"]) for r in runs[tool]], "{:.0f}", " ms"),
             spread([ms(r["streamon"]) for r in runs[tool]], "{:.0f}", " ms"),
             spread([r["first"] for r in runs[tool]], "{:.0f}"),
             spread([r["buffers"] for r in runs[tool]], "{:.0f}")] for tool in TOOLS]
    result.body.append(table(["tool", "start → first stored frame captured", "start → STREAMON",
                              "camera stamp of the first stored frame", "camera buffers (VIDIOC_REQBUFS)"], rows))
    diffs = {peer: [ms(c["startup"] - p["startup"]) if c["startup"] is not None and p["startup"] is not None
                    else None for c, p in zip(runs["camrec"], runs[peer])] for peer in ("gst-launch", "ffmpeg")}
    ratios = {peer: [c["startup"] / p["startup"] if c["startup"] and p["startup"] else None
                     for c, p in zip(runs["camrec"], runs[peer])] for peer in ("gst-launch", "ffmpeg")}
    result.body.append(
        f"camrec − gst-launch, per run: {spread(diffs['gst-launch'], '{:+.0f}', ' ms')}; "
        f"camrec − ffmpeg: {spread(diffs['ffmpeg'], '{:+.0f}', ' ms')}.")
    d = median(diffs["gst-launch"])
    met = d is not None and d <= 50
    result.summary.append(SummaryRow(
        "start-up to first frame in the file", spread([ms(r["startup"]) for r in runs["camrec"]], "{:.0f}", " ms"),
        spread([ms(r["startup"]) for r in runs["gst-launch"]], "{:.0f}", " ms"),
        spread([ms(r["startup"]) for r in runs["ffmpeg"]], "{:.0f}", " ms"),
        ratio_text(ratios["gst-launch"]) + (f", {d:+.0f} ms" if d is not None else ""),
        ratio_text(ratios["ffmpeg"]), "≤ gst-launch + 50 ms", met))
    profiles = []
    if ctx.profiling(not met):
        log("start-up: profiling camrec's and gst-launch's start-up with perf…")
        profiles = [profile_startup(ctx, tool) for tool in ("camrec", "gst-launch")]
        result.body.append("### Profile: camrec's and gst-launch's start-up\n\n"
                           + ("Taken to test the profiling (the figure meets its goal). " if met else "")
                           + "One extra start-up per tool; only the samples up to the capture of the first frame "
                           "stored in the file are kept. " + profile.tables(profiles))
    if not met and d is not None:
        s_diff = median([ms(c["streamon"] - p["streamon"]) if c["streamon"] is not None and p["streamon"] is not None
                         else None for c, p in zip(runs["camrec"], runs["gst-launch"])])
        result.gaps.append(
            f"**Start-up**: camrec's first frame is captured {d:.0f} ms later than gst-launch's (goal ≤ 50 ms); "
            f"{s_diff:.0f} ms of it before the camera starts streaming (process start → STREAMON), i.e. "
            "initialisation before the pipeline runs (see section 2)." if s_diff is not None else
            f"**Start-up**: camrec's first frame is {d:.0f} ms later than gst-launch's (goal ≤ 50 ms).")
        if profiles and all(p.ok for p in profiles):
            cam, gst = profiles
            result.gaps[-1] += (
                f" Profile (perf, one extra start-up each, samples up to the first stored frame; tables in section 2): "
                f"camrec used {cam.cpu_seconds * 1000:.0f} CPU ms in its {cam.seconds * 1000:.0f} ms, "
                f"{profile.describe(cam)}; gst-launch {gst.cpu_seconds * 1000:.0f} CPU ms in {gst.seconds * 1000:.0f} ms, "
                f"{profile.describe(gst)}.")
        elif profiles:
            result.gaps[-1] += " No profile: " + "; ".join(p.error for p in profiles if not p.ok) + "."
    ctx.shared["startup"] = runs
    result.seconds = time.monotonic() - started
    return result
