"""Section 25: reaction recordings (issue 36 item 3): `camrec react VIDEO OUT` at 720p30 (the camera
over a 720p30 video, picture-in-picture) against ffmpeg composing the same with its `overlay`
filter (the video played with -re, the camera scaled to the inset) before the same x264 encoder,
side by side on two emulated cameras. Opt-in (--only react)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from .common import Child, load_average, log, median, ratio_text, spread
from .filters import cameras_for
from .media import probe_video
from .section import Context, SectionResult, SummaryRow, table
from .tools import YUYV_720

# camrec react's default inset: bottom right, 30% of the canvas width, a margin of 1/40 of the
# shorter side (720 / 40 = 18 px): 384x216 at 878,486 on a 1280x720 canvas.
INSET_WIDTH, MARGIN = 384, 18


def video(ctx: Context, seconds: float) -> Path:
    """A 720p30 H.264 video with sound, `seconds` long (made once per run directory)."""
    path = ctx.dir("react") / f"video-{seconds:g}s.mp4"
    if not path.exists():
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                        f"testsrc2=size=1280x720:rate=30:duration={seconds:g}", "-f", "lavfi", "-i",
                        f"sine=frequency=1000:duration={seconds:g}", "-c:v", "libx264", "-preset", "veryfast",
                        "-b:v", "3M", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)], check=True)
    return path


def ffmpeg_react(ctx: Context, device: str, source: Path, output: Path) -> list[str]:
    """ffmpeg doing react's work: the video at its own pace (-re), the camera scaled into the
    inset and overlaid bottom right, x264 with camrec's settings, the video's sound in AAC."""
    s = ctx.toolbox.encoder_settings(YUYV_720)
    bitrate = int(s.get("bitrate", "2048"))
    vbv_ms = int(s.get("vbv-buf-capacity", "600"))
    graph = (f"[1:v]scale={INSET_WIDTH}:-2[inset];"
             f"[0:v][inset]overlay=x=W-w-{MARGIN}:y=H-h-{MARGIN}:eof_action=endall:shortest=1[out]")
    return ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
            "-re", "-i", str(source),
            "-f", "v4l2", "-input_format", YUYV_720.ffmpeg_input_format, "-video_size", YUYV_720.size,
            "-framerate", str(YUYV_720.fps), "-i", device,
            "-filter_complex", graph, "-map", "[out]", "-map", "0:a",
            "-c:v", "libx264", "-preset", s.get("speed-preset", "veryfast"), "-tune", s.get("tune", "zerolatency"),
            "-g", s.get("key-int-max", str(YUYV_720.fps)), "-b:v", f"{bitrate}k", "-maxrate", f"{bitrate}k",
            "-bufsize", f"{bitrate * vbv_ms // 1000}k", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-y", str(output)]


def analyse(finished, output: Path) -> dict:
    frames = (probe_video(output).get("packets") or 0) if output.exists() else 0
    note = "" if finished.returncode == 0 else f"exit {finished.returncode}: {finished.stderr_tail(2)}"
    return {"cpu_per_s": finished.cpu / (frames / YUYV_720.fps) if frames else None, "frames": frames or None,
            "rss_mb": finished.max_rss_kb / 1024, "note": note}


def section(ctx: Context) -> SectionResult:
    began = time.monotonic()
    result = SectionResult("react", "25. Reaction recordings against ffmpeg's overlay")
    code, text = ctx.toolbox.help_text("react")
    if code != 0 or "--pip" not in text:
        result.measured = False
        result.not_measured = "this camrec has no react"
        return result
    s = ctx.settings
    runs = s.runs if s.quick else 3
    seconds = 6 if s.quick else 20
    source = video(ctx, seconds)
    results = {"camrec": [], "ffmpeg": []}
    loads = []
    for r in range(runs):
        run_dir = ctx.dir(f"react/run{r + 1}")
        devices = cameras_for(r, 0)
        env = ctx.toolbox.env(f"{devices[0]},formats=yuyv,sizes=1280x720@30;{devices[1]},formats=yuyv,sizes=1280x720@30")
        out_c, out_f = run_dir / "camrec.mp4", run_dir / "ffmpeg.mp4"
        camrec = [str(ctx.toolbox.camrec), "react", "--device", devices[0], "--audio", "none", "--no-preview",
                  "--json", "--force", str(source), str(out_c)]
        ffmpeg = ffmpeg_react(ctx, devices[1], source, out_f)
        log(f"react: run {r + 1}/{runs}, {seconds:g} s of 720p30 video, camrec and ffmpeg side by side")
        order = [("camrec", camrec, out_c), ("ffmpeg", ffmpeg, out_f)]
        if r % 2:
            order.reverse()
        started = [(tool, Child(argv, env, run_dir, tool, nice=ctx.nice, timeout=seconds * 3 + 60), out)
                   for tool, argv, out in order]
        for tool, child, out in started:
            results[tool].append(analyse(child.wait(), out))
        loads.append(load_average().split()[0])
    expected = round(seconds * YUYV_720.fps)
    result.method = [
        f"A {seconds:g}-s 1280x720@30 H.264 video with sound; the camera 1280x720@30 YUYV from the emulated camera; "
        f"{runs} runs, camrec and ffmpeg side by side on two emulated cameras (who starts first alternates). camrec: "
        "`camrec react --audio none --no-preview VIDEO OUT` (the camera bottom right, 30% of the width, the video's "
        "sound). ffmpeg: `-re -i VIDEO` and the camera, `scale` to the inset and `overlay` bottom right, x264 with camrec's "
        "settings (preset, tune, GOP, ABR bitrate and VBV as in section 1), the video's sound in AAC, fragmented MP4. "
        "CPU = user + system seconds from `wait4(2)`, per recorded second = CPU / (stored frames / 30); peak RSS from "
        f"`ru_maxrss`. The video has {expected} frames: each tool should store about that many.",
    ]
    rows = []
    for tool in ("camrec", "ffmpeg"):
        rs = results[tool]
        rows.append([tool, spread([x["cpu_per_s"] for x in rs]), spread([x["rss_mb"] for x in rs], "{:.1f}", " MB"),
                     spread([x["frames"] for x in rs], "{:.0f}"), "; ".join(sorted({x["note"] for x in rs if x["note"]}))])
    result.body.append(table(["tool", "CPU s per recorded s", "peak RSS", "stored frames", "notes"], rows))
    result.body.append("Load average (1 min) after each pair: " + ", ".join(loads) + ".")
    ratios = [c["cpu_per_s"] / f["cpu_per_s"] if c["cpu_per_s"] and f["cpu_per_s"] else None
              for c, f in zip(results["camrec"], results["ffmpeg"])]
    r_med = median(ratios)
    result.summary.append(SummaryRow(
        "react: CPU s per recorded s, 720p30 video with the camera over it (camrec react / ffmpeg -re + overlay)",
        spread([x["cpu_per_s"] for x in results["camrec"]]), "—", spread([x["cpu_per_s"] for x in results["ffmpeg"]]),
        "—", ratio_text(ratios), "≤ ffmpeg doing the same", r_med is not None and r_med <= 1.0))
    frames = [x["frames"] for x in results["camrec"] if x["frames"]]
    result.summary.append(SummaryRow(
        "react: frames stored of the video's", spread(frames, "{:.0f}") + f" of {expected}", "—",
        spread([x["frames"] for x in results["ffmpeg"]], "{:.0f}"), "", "", f"≥ {expected - 2} (the video's, less the start)",
        bool(frames) and min(frames) >= expected - 2))
    if r_med is not None and r_med > 1.0:
        result.gaps.append(f"**react**: camrec uses {r_med:.2f}× ffmpeg's CPU composing a 720p30 video with the camera over it.")
    result.seconds = time.monotonic() - began
    return result
