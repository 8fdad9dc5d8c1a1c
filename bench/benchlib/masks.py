"""Section 22: privacy masks (issue 35 item 4): what three `--mask` rectangles cost per recorded
second at 1280x720@30, against ffmpeg burning the same three black boxes with `drawbox` before
the same x264 encoder. Opt-in (--only masks)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from .common import load_average, log, median, ratio_text, spread
from .filters import FilterTimer, cameras_for, side_by_side
from .media import probe_video, recording_drops
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

# Three rectangles in a 1280x720 picture, clear of the emulated camera's frame stamp (its top
# rows), as camrec takes them and as ffmpeg's drawbox draws them (75%,50%,25%,50% is
# 960,360,320,360 in pixels).
MASKS = ("100,80,300,200", "75%,50%,25%,50%", "0,600,1280,120")
BOXES = ((100, 80, 300, 200), (960, 360, 320, 360), (0, 600, 1280, 120))
DRAWBOX = ",".join(f"drawbox=x={x}:y={y}:w={w}:h={h}:color=black:t=fill" for x, y, w, h in BOXES)


@dataclasses.dataclass(frozen=True)
class Variant:
    key: str
    name: str
    camrec: tuple[str, ...]
    ffmpeg: str | None


VARIANTS = (
    Variant("plain", "plain (no mask)", (), None),
    Variant("masks", "3 masks (--mask ×3 / drawbox ×3)", tuple(w for m in MASKS for w in ("--mask", m)),
            f"format=yuv420p,{DRAWBOX}"),
)


def analyse(finished, output: Path) -> dict:
    mode = YUYV_720
    frames = (probe_video(output).get("packets") or 0) if output.exists() else 0
    dropped = recording_drops(output, mode.width, mode.height, mode.fps, light=True).get("dropped") if output.exists() else None
    note = "" if finished.returncode == 0 else f"exit {finished.returncode}: {finished.stderr_tail(2)}"
    return {"cpu": finished.cpu, "frames": frames or None, "dropped": dropped, "note": note,
            "cpu_per_s": finished.cpu / (frames / mode.fps) if frames else None}


def measure(ctx: Context) -> tuple[dict, int, float, list[str]]:
    s = ctx.settings
    runs = s.runs if s.quick else 3
    seconds = 4 if s.quick else 10
    mode = YUYV_720
    results = {v.key: {"camrec": [], "ffmpeg": []} for v in VARIANTS}
    loads = []
    for r in range(runs):
        for i, variant in enumerate(VARIANTS):
            run_dir = ctx.dir(f"masks/run{r + 1}")
            # Side by side on two emulated cameras; which gets which camera and who starts first alternates.
            devices = cameras_for(r, i)
            log(f"masks: run {r + 1}/{runs}, {variant.name}, {seconds:g} s, camrec and ffmpeg side by side")
            out_c, out_f = run_dir / f"camrec-{variant.key}.mp4", run_dir / f"ffmpeg-{variant.key}.mp4"
            camrec = ctx.toolbox.camrec_record(mode, devices[0], seconds, out_c, list(variant.camrec))
            ffmpeg = ctx.toolbox.ffmpeg_record(mode, devices[1], round(seconds * mode.fps), out_f)
            if variant.ffmpeg:
                at = ffmpeg.index("-c:v")
                ffmpeg[at:at] = ["-vf", variant.ffmpeg]
            for tool, finished, out in side_by_side(ctx, run_dir, variant.key, devices, (camrec, out_c), (ffmpeg, out_f),
                                                    camrec_first=(r + i) % 2 == 0, seconds=seconds):
                results[variant.key][tool].append(analyse(finished, out))
            loads.append(load_average().split()[0])
    return results, runs, seconds, loads


def filters_alone(ctx: Context) -> tuple[list[str], tuple[float | None, float | None]]:
    """CPU ms per 720p I420 frame of camrecmask (from the release build's libgstcamrec.so) and of
    ffmpeg's three drawbox filters, each minus a pass-through run of the same tool."""
    frames = 150 if ctx.settings.quick else 300
    run_dir = ctx.dir("masks/alone")
    rectangles = " ".join(f"{x},{y},{w},{h}" for x, y, w, h in BOXES)
    log("masks: the filters alone (camrecmask and ffmpeg's drawbox, no camera, no encoder)")
    timer = FilterTimer(ctx, run_dir, frames)
    g = timer.gst(["!", "camrecmask", f"rectangles={rectangles}"], "gst")
    f = timer.ffmpeg(f"format=yuv420p,{DRAWBOX}", "ff")
    row = ["3 rectangles", f"`camrecmask rectangles=\"{rectangles}\"`", spread(g, "{:.3f}", " ms"),
           "`drawbox` ×3", spread(f, "{:.3f}", " ms")]
    return row, (median(g), median(f))


def section(ctx: Context) -> SectionResult:
    began = time.monotonic()
    result = SectionResult("masks", "22. Privacy masks against ffmpeg's drawbox")
    code, text = ctx.toolbox.help_text()
    if "--mask" not in text:
        result.measured = False
        result.not_measured = "this camrec has no --mask"
        return result
    results, runs, seconds, loads = measure(ctx)
    alone_row, alone = filters_alone(ctx)
    result.method = [
        f"1280x720@30 YUYV from the emulated camera, {runs} runs of {seconds:g} s per variant, camrec and ffmpeg side by "
        "side on two emulated cameras (same moment, same load; which one starts first alternates). camrec records with "
        "`" + " ".join(f"--mask {m}" for m in MASKS) + "`; ffmpeg records as in section 1 (x264 with camrec's "
        f"settings, fragmented MP4) with `-vf format=yuv420p,{DRAWBOX}`: the same three black boxes on the same 4:2:0 "
        "frames before the same encoder. CPU = user + system seconds from `wait4(2)`; per recorded second = CPU / "
        "(stored frames / 30). \"added\" is the masked median minus the same tool's plain median; ratios are "
        "camrec / ffmpeg per run (side by side), median (min–max). Dropped frames are counted from the camera's frame "
        "stamps (the masks keep clear of them).",
    ]
    plain = {tool: median([r["cpu_per_s"] for r in results["plain"][tool]]) for tool in ("camrec", "ffmpeg")}
    rows = []
    fmt = lambda v: "—" if v is None else f"{v:+.3f}"
    for variant in VARIANTS:
        rs = results[variant.key]
        med = {tool: median([r["cpu_per_s"] for r in rs[tool]]) for tool in ("camrec", "ffmpeg")}
        added = {tool: (med[tool] - plain[tool]) if med[tool] is not None and plain[tool] is not None else None
                 for tool in med}
        ratios = [c["cpu_per_s"] / f["cpu_per_s"] if c["cpu_per_s"] and f["cpu_per_s"] else None
                  for c, f in zip(rs["camrec"], rs["ffmpeg"])]
        drops = {tool: [r["dropped"] for r in rs[tool]] for tool in ("camrec", "ffmpeg")}
        notes = "; ".join(sorted({r["note"] for tool in rs for r in rs[tool] if r["note"]}))
        rows.append([variant.name, spread([r["cpu_per_s"] for r in rs["camrec"]]),
                     spread([r["cpu_per_s"] for r in rs["ffmpeg"]]),
                     fmt(added["camrec"]) if variant.key != "plain" else "",
                     fmt(added["ffmpeg"]) if variant.key != "plain" else "",
                     ratio_text(ratios), spread(drops["camrec"], "{:.0f}") + " / " + spread(drops["ffmpeg"], "{:.0f}"),
                     spread([r["frames"] for r in rs["camrec"]], "{:.0f}"), notes])
        if variant.key == "plain":
            continue
        r_med = median(ratios)
        ok = r_med is not None and r_med <= 1.0
        result.summary.append(SummaryRow(
            "CPU s per recorded s, 1280x720@30 YUYV, 3 masks (camrec --mask ×3 / ffmpeg drawbox ×3)",
            spread([r["cpu_per_s"] for r in rs["camrec"]]), "—", spread([r["cpu_per_s"] for r in rs["ffmpeg"]]),
            "—", ratio_text(ratios), "≤ ffmpeg doing the same", ok))
        lost = [d for d in drops["camrec"] if d is not None]
        result.summary.append(SummaryRow(
            "dropped frames, 1280x720@30 YUYV, 3 masks",
            spread(drops["camrec"], "{:.0f}"), "—", spread(drops["ffmpeg"], "{:.0f}"), "", "", "0 in every run",
            bool(lost) and max(lost) == 0))
        if not ok and r_med is not None:
            gap = (f"**Privacy masks**: camrec with 3 masks uses {r_med:.2f}× ffmpeg's CPU with 3 drawbox filters "
                   f"(camrec adds {fmt(added['camrec'])} CPU s per s to its plain recording, ffmpeg {fmt(added['ffmpeg'])}).")
            if alone[0] is not None and alone[1] is not None:
                gap += (f" The filter alone: camrecmask {alone[0]:.3f} ms per 720p frame, drawbox ×3 {alone[1]:.3f} ms.")
            result.gaps.append(gap)
    result.body.append(table(["variant", "camrec CPU s per recorded s", "ffmpeg CPU s per recorded s", "camrec added",
                              "ffmpeg added", "camrec / ffmpeg", "dropped frames camrec / ffmpeg",
                              "stored frames (camrec)", "notes"], rows))
    result.body.append("Load average (1 min) after each pair: " + ", ".join(loads) + ".")
    frames = 150 if ctx.settings.quick else 300
    result.body.append(
        f"The filters alone: CPU ms per 1280x720 I420 frame, {frames} frames, 3 runs each, minus a pass-through run of "
        "the same tool (GStreamer: `videotestsrc pattern=snow ! … ! fakesink` through camrecmask from the release "
        "build's libgstcamrec.so; ffmpeg: `-f lavfi testsrc2` through its filters to `-f null`).")
    result.body.append(table(["masks", "camrec's element", "CPU per frame", "ffmpeg filter", "CPU per frame"], [alone_row]))
    result.seconds = time.monotonic() - began
    return result
