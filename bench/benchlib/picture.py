"""9. The picture: what rotation, mirroring and overlays cost per recorded second, in camrec
and in ffmpeg doing the same with its own filters (transpose, hflip, drawtext, overlay)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from .common import load_average, log, median, ratio_text, run_quiet, spread
from .filters import FilterTimer, cameras_for, side_by_side
from .media import probe_video, recording_drops
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
TEXT = "%Y-%m-%d %H:%M:%S"
# camrec's text is a 24th of the picture's shorter side (30 px at 720p) and half of that from
# the edges (15 px): ffmpeg's drawtext gets the same size, place, font, white on a black border.
DRAWTEXT = (f"drawtext=fontfile={FONT}:text='%{{localtime\\:%Y-%m-%d %H\\\\\\:%M\\\\\\:%S}}'"
            ":fontsize=30:fontcolor=white:borderw=2:bordercolor=black:shadowx=1:shadowy=1:x=15:y=h-th-15")


@dataclasses.dataclass(frozen=True)
class Variant:
    key: str
    name: str
    camrec: tuple[str, ...]       # camrec's options
    ffmpeg: str | None            # ffmpeg's -vf chain (None: none, as in section 1), or a filter_complex
    complex: bool = False         # ffmpeg: -filter_complex with the logo as a second input
    stamps: bool = True           # the camera's frame stamp stays readable (not turned)


VARIANTS = (
    Variant("plain", "plain (no picture option)", (), None),
    Variant("rotate", "--rotate 90", ("--rotate", "90"), "format=yuv420p,transpose=clock", stamps=False),
    Variant("mirror", "--mirror", ("--mirror",), "format=yuv420p,hflip", stamps=False),
    Variant("text", "--overlay date and time, bottom left",
            ("--overlay", TEXT, "--overlay-position", "bottom-left"), f"format=yuv420p,{DRAWTEXT}"),
    Variant("all", "--rotate 90 --mirror, the text and a 160x80 PNG logo (half transparent)",
            ("--rotate", "90", "--mirror", "--overlay", TEXT, "--overlay-position", "bottom-left",
             "--overlay-image", "LOGO"),
            f"[0:v]format=yuv420p,transpose=cclock_flip,{DRAWTEXT}[v];[1:v]format=rgba[l];"
            "[v][l]overlay=W-w-15:15:format=yuv420", complex=True, stamps=False),
)


def make_logo(run_dir: Path) -> Path:
    logo = run_dir / "logo.png"
    run_quiet(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red@0.5:s=160x80,format=rgba",
               "-frames:v", "1", str(logo)])
    return logo


def commands(ctx: Context, variant: Variant, device: str, seconds: float, run_dir: Path, logo: Path):
    """(camrec argv, ffmpeg argv, camrec output, ffmpeg output) for one variant."""
    mode = YUYV_720
    out_c, out_f = run_dir / f"camrec-{variant.key}.mp4", run_dir / f"ffmpeg-{variant.key}.mp4"
    extra = [str(logo) if word == "LOGO" else word for word in variant.camrec]
    camrec = ctx.toolbox.camrec_record(mode, device[0], seconds, out_c, extra)
    ffmpeg = ctx.toolbox.ffmpeg_record(mode, device[1], round(seconds * mode.fps), out_f)
    if variant.ffmpeg:
        at = ffmpeg.index("-c:v")
        if variant.complex:
            # The logo is a second input (looped still image); the filter graph's output is mapped.
            inputs = ffmpeg.index("-frames:v")
            ffmpeg[inputs:inputs] = ["-loop", "1", "-i", str(logo)]
            at = ffmpeg.index("-c:v")
            ffmpeg[at:at] = ["-filter_complex", variant.ffmpeg]
        else:
            ffmpeg[at:at] = ["-vf", variant.ffmpeg]
    return camrec, ffmpeg, out_c, out_f


def analyse(finished, output: Path, stamps: bool) -> dict:
    mode = YUYV_720
    frames = (probe_video(output).get("packets") or 0) if output.exists() else 0
    dropped = None
    if stamps and output.exists():
        dropped = recording_drops(output, mode.width, mode.height, mode.fps, light=True).get("dropped")
    note = "" if finished.returncode == 0 else f"exit {finished.returncode}: {finished.stderr_tail(2)}"
    return {"cpu": finished.cpu, "frames": frames or None, "dropped": dropped, "note": note,
            "cpu_per_s": finished.cpu / (frames / mode.fps) if frames else None}


def measure(ctx: Context) -> dict[str, dict[str, list[dict]]]:
    s = ctx.settings
    runs = s.runs if s.quick else 3
    seconds = 4 if s.quick else 10
    results = {v.key: {"camrec": [], "ffmpeg": []} for v in VARIANTS}
    logo = make_logo(ctx.dir("picture"))
    loads = []
    for r in range(runs):
        for i, variant in enumerate(VARIANTS):
            run_dir = ctx.dir(f"picture/run{r + 1}")
            # The two tools side by side on two emulated cameras; which gets which camera and who
            # starts first alternates.
            devices = cameras_for(r, i)
            log(f"picture: run {r + 1}/{runs}, {variant.name}, {seconds:g} s, camrec and ffmpeg side by side")
            camrec, ffmpeg, out_c, out_f = commands(ctx, variant, devices, seconds, run_dir, logo)
            for tool, finished, out in side_by_side(ctx, run_dir, variant.key, devices, (camrec, out_c), (ffmpeg, out_f),
                                                    camrec_first=(r + i) % 2 == 0, seconds=seconds):
                results[variant.key][tool].append(analyse(finished, out, variant.stamps))
            loads.append(load_average().split()[0])
    ctx.shared["picture-loads"] = loads
    ctx.shared["picture-shape"] = (runs, seconds)
    return results


# The filters alone, without camera or encoder: 1280x720 I420 frames through the GStreamer element
# camrec runs (camrecflip, camrec's own, from libgstcamrec.so; textoverlay), through GStreamer's own
# element for the same (videoflip, which camrec used before camrecflip), and through ffmpeg's filter,
# each minus a pass-through run of the same tool.
ALONE = (
    ("--rotate 90", ["!", "camrecflip", "method=90r"], ["!", "videoflip", "video-direction=90r"], "transpose=clock"),
    ("--mirror", ["!", "camrecflip", "method=horiz"], ["!", "videoflip", "video-direction=horiz"], "hflip"),
    ("--overlay date and time", ["!", "textoverlay", "text=2026-11-30 21:35:00", "font-desc=DejaVu Sans Mono Bold 30px",
                                 "auto-resize=false", "halignment=left", "valignment=bottom", "xpad=15", "ypad=15"],
     None, DRAWTEXT),
)


def filters_alone(ctx: Context) -> list[list[str]]:
    frames = 150 if ctx.settings.quick else 300
    run_dir = ctx.dir("picture/alone")
    log("picture: the filters alone (GStreamer's elements and ffmpeg's filters, no camera, no encoder)")
    timer = FilterTimer(ctx, run_dir, frames)
    rows = []
    for name, middle, reference, vf in ALONE:
        g = timer.gst(middle, "gst")
        v = timer.gst(reference, "gst-ref") if reference else []
        f = timer.ffmpeg(f"format=yuv420p,{vf}", "ff")
        element = " ".join(w for w in middle if w != "!").split(" text=")[0]
        other = " ".join(w for w in reference if w != "!") if reference else ""
        ctx.shared.setdefault("picture-alone", {})[name] = (element, median(g), vf.split("=")[0], median(f))
        rows.append([name, f"`{element}`", spread(g, "{:.2f}", " ms"),
                     f"`{other}`" if other else "—", spread(v, "{:.2f}", " ms") if v else "—",
                     f"`{vf.split('=')[0]}`", spread(f, "{:.2f}", " ms")])
    return rows


def section(ctx: Context) -> SectionResult:
    began = time.monotonic()
    result = SectionResult("picture", "9. The picture: rotation, mirroring, overlays")
    code, text = ctx.toolbox.help_text()
    if "--rotate" not in text:
        result.measured = False
        result.not_measured = "this camrec has no --rotate"
        return result
    results = measure(ctx)
    alone_rows = filters_alone(ctx)
    runs, seconds = ctx.shared["picture-shape"]
    result.method = [
        f"1280x720@30 YUYV from the emulated camera, {runs} runs of {seconds:g} s per variant, camrec and ffmpeg "
        "side by side on two emulated cameras (same moment, same load; which one starts first alternates), the "
        "variants one after the other in each run. CPU = user + system seconds from `wait4(2)`; per recorded "
        "second = CPU / (stored frames / 30). ffmpeg records as in section 1 (x264 with camrec's settings, "
        "fragmented MP4) with its own filters doing the same work: `transpose=clock` for `--rotate 90`, `hflip` for "
        "`--mirror`, `drawtext` (the same DejaVu Sans Mono Bold font at camrec's 30 px, white with a black border "
        "and shadow, 15 px from the bottom left, `%{localtime}` per frame) for `--overlay '%Y-%m-%d %H:%M:%S'`, "
        "and `transpose=cclock_flip` + `drawtext` + `overlay` of the PNG (a looped second input) for all of them "
        "at once. Each chain starts with `format=yuv420p` so that ffmpeg filters the same 4:2:0 frames it encodes "
        "(its cheapest order; camrec also converts to I420 first). ffmpeg's `localtime` is the time the frame is "
        "drawn, camrec's the time the camera took it (see docs/camera-controls.md): the same rendering work. The camera's "
        "cost is in both tools' figures alike (section 1 gives it).",
        "\"added\" is the variant's median CPU s per recorded s minus the same tool's plain median, i.e. what "
        "the option costs that tool; ratios are camrec / ffmpeg per run (side by side), median (min–max). "
        "Dropped frames are counted from the camera's frame stamps where the picture is not turned.",
    ]
    plain = {tool: median([r["cpu_per_s"] for r in results["plain"][tool]]) for tool in ("camrec", "ffmpeg")}
    rows = []
    for variant in VARIANTS:
        rs = results[variant.key]
        med = {tool: median([r["cpu_per_s"] for r in rs[tool]]) for tool in ("camrec", "ffmpeg")}
        added = {tool: (med[tool] - plain[tool]) if med[tool] is not None and plain[tool] is not None else None
                 for tool in med}
        ratios = [c["cpu_per_s"] / f["cpu_per_s"] if c["cpu_per_s"] and f["cpu_per_s"] else None
                  for c, f in zip(rs["camrec"], rs["ffmpeg"])]
        drops = (spread([r["dropped"] for r in rs["camrec"]], "{:.0f}") + " / "
                 + spread([r["dropped"] for r in rs["ffmpeg"]], "{:.0f}")) if variant.stamps else "— (turned)"
        notes = "; ".join(sorted({r["note"] for tool in rs for r in rs[tool] if r["note"]}))
        fmt = lambda v: "—" if v is None else f"{v:+.3f}"
        rows.append([variant.name, spread([r["cpu_per_s"] for r in rs["camrec"]]),
                     spread([r["cpu_per_s"] for r in rs["ffmpeg"]]),
                     fmt(added["camrec"]) if variant.key != "plain" else "", fmt(added["ffmpeg"]) if variant.key != "plain" else "",
                     ratio_text(ratios), drops, spread([r["frames"] for r in rs["camrec"]], "{:.0f}"), notes])
        r_med = median(ratios)
        ok = r_med is not None and r_med <= 1.0
        if variant.key != "plain":
            result.summary.append(SummaryRow(
                f"CPU s per recorded s, 1280x720@30 YUYV, {variant.name}",
                spread([r["cpu_per_s"] for r in rs["camrec"]]), "—", spread([r["cpu_per_s"] for r in rs["ffmpeg"]]),
                "—", ratio_text(ratios), "≤ ffmpeg doing the same", ok))
            if not ok and r_med is not None:
                gap = (f"**The picture, {variant.name}**: camrec uses {r_med:.2f}× ffmpeg's CPU "
                       f"(camrec adds {fmt(added['camrec'])} CPU s per s to its plain recording, ffmpeg "
                       f"{fmt(added['ffmpeg'])}).")
                alone = ctx.shared.get("picture-alone", {}).get(variant.name)
                if alone and alone[1] is not None and alone[3] is not None:
                    gap += (f" The filter alone (no camera, no encoder): camrec's `{alone[0]}` takes {alone[1]:.2f} ms "
                            f"per 720p frame, ffmpeg's `{alone[2]}` {alone[3]:.2f} ms "
                            f"({(alone[1] - alone[3]) * 30 / 1000:+.3f} CPU s per recorded s at 30 fps).")
                result.gaps.append(gap)
    result.body.append(table(["variant", "camrec CPU s per recorded s", "ffmpeg CPU s per recorded s",
                              "camrec added", "ffmpeg added", "camrec / ffmpeg", "dropped frames camrec / ffmpeg",
                              "stored frames (camrec)", "notes"], rows))
    result.body.append("Load average (1 min) after each pair: " + ", ".join(ctx.shared.get("picture-loads", [])) + ".")
    frames = 150 if ctx.settings.quick else 300
    result.body.append(
        f"The filters alone: CPU ms per 1280x720 I420 frame of each filter, {frames} frames, 3 runs each, minus a "
        "pass-through run of the same tool (GStreamer: `videotestsrc pattern=snow ! … ! fakesink` through the element "
        "camrec uses, camrecflip from the release build's libgstcamrec.so, and through GStreamer 1.22's videoflip, "
        "which camrec used before; ffmpeg: `-f lavfi testsrc2` through its filter to `-f null`). What it says: how "
        "much of each option's cost is the filter itself, the rest of the difference being the pipelines around it.")
    result.body.append(table(["option", "element camrec uses", "CPU per frame", "GStreamer's element", "CPU per frame",
                              "ffmpeg filter", "CPU per frame"], alone_rows))
    result.seconds = time.monotonic() - began
    return result
