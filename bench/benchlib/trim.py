"""4. Trim: camrec --mode accurate against ffmpeg stream copy and a full re-encode."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

from .common import Child, log, median, ratio_text, run_quiet, spread
from .media import band_height, first_stamp, last_stamp, probe_video
from .section import Context, SectionResult, SummaryRow, table
from .recording import rotate

WIDTH, HEIGHT, FPS = 1280, 720, 30
REENCODE_RUNS = 3   # the slow reference (about 40 s a run here); the goal compares with the copy
GOP = 250   # x264's default keyint: 8.3 s, so the cut at 120 s falls 100 frames after a keyframe


def stamp_filter() -> str:
    """drawbox filters that write the emulated camera's stamp (docs/virtual-camera.md) with the
    frame number n, so every frame of the trim input says which frame it is."""
    b = band_height(WIDTH)
    parts = [f"drawbox=x=0:y=0:w={35 * b}:h={b}:color=black:t=fill",
             f"drawbox=x=0:y=0:w={b}:h={b}:color=white:t=fill"]
    bits = 20
    for k in range(bits):
        parts.append(f"drawbox=x={(33 - k) * b}:y=0:w={b}:h={b}:color=white:t=fill:enable='mod(floor(n/{2 ** k}),2)'")
    parity = "+".join(f"mod(floor(n/{2 ** k}),2)" for k in range(bits))
    parts.append(f"drawbox=x={34 * b}:y=0:w={b}:h={b}:color=white:t=fill:enable='mod({parity},2)'")
    return ",".join(parts)


def make_input(ctx: Context) -> Path:
    """A stamped 1280x720@30 H.264 (x264 veryfast, GOP 250, B-frames) + AAC file, made once
    and kept in bench/out/ (never committed)."""
    seconds = ctx.settings.trim_input_seconds
    path = ctx.out / f"trim-input-{seconds}s-v1.mp4"
    if path.exists() and probe_video(path)["packets"] == seconds * FPS:
        return path
    log(f"making the trim input ({seconds} s of 1280x720@30 H.264 + AAC; cached in {path})…")
    script = ctx.out / "trim-stamp-filter.txt"
    script.write_text(stamp_filter())
    partial = path.with_suffix(".partial.mp4")
    run_quiet(["ffmpeg", "-nostdin", "-v", "error", "-y",
               "-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate={FPS}",
               "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
               "-t", str(seconds), "-filter_script:v", str(script),
               "-c:v", "libx264", "-preset", "veryfast", "-g", str(GOP), "-keyint_min", str(GOP),
               "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
               "-movflags", "+faststart", str(partial)])
    partial.rename(path)
    return path


def supported(ctx: Context) -> tuple[bool, str]:
    rc, text = ctx.toolbox.help_text("trim")
    if rc == 0 and "camrec trim" in text and "--mode" in text and "accurate" in text:
        return True, ""
    return False, "camrec has no `trim` yet (`camrec trim --help` does not describe it)"


def commands(ctx: Context, source: Path, output: Path, tool: str) -> list[str]:
    start, end = ctx.settings.trim_start, ctx.settings.trim_end
    if tool.startswith("camrec"):
        mode = "keyframe" if tool == "camrec keyframe" else "accurate"
        return [str(ctx.toolbox.camrec), "trim", "--start", f"{start:g}", "--end", f"{end:g}", "--mode", mode,
                "-o", str(output), "--force", "--json", str(source)]
    seek = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-ss", f"{start:g}", "-to", f"{end:g}", "-i", str(source)]
    if tool == "ffmpeg copy":
        return seek + ["-c", "copy", str(output)]
    return seek + ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", str(output)]


def check(output: Path, start_frame: int, end_frame: int) -> dict:
    info = probe_video(output)
    shown = first_stamp(output, WIDTH, HEIGHT)
    stored = first_stamp(output, WIDTH, HEIGHT, ignore_editlist=True)
    last = last_stamp(output, WIDTH, HEIGHT)
    return {"frames": info["packets"], "first": shown, "stored": stored, "last": last,
            "error": None if shown is None else shown - start_frame,
            "stored_error": None if stored is None else stored - start_frame,
            "end_error": None if last is None else last - end_frame}


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    s = ctx.settings
    result = SectionResult("trim", "4. Trim")
    ok, why = supported(ctx)
    source = make_input(ctx)
    start_frame = math.ceil(s.trim_start * FPS)
    end_frame = math.ceil(s.trim_end * FPS) - 1
    result.method = [
        f"Input: {s.trim_input_seconds} s of 1280x720@30 H.264 (x264 veryfast, GOP {GOP} frames = x264's "
        "default, 3 B-frames) + AAC 48 kHz, from ffmpeg's `testsrc2` with the emulated camera's stamp "
        "drawn into the top 32 rows (the frame number), cached in `bench/out/`. "
        f"Cut {s.trim_start:g} s → {s.trim_end:g} s: the first wanted frame is {start_frame}, the last "
        f"{end_frame}; {s.trim_start:g} s falls {start_frame % GOP} frames after a keyframe.",
        f"Tools, {s.runs} runs each in rotated order ({min(s.runs, REENCODE_RUNS)} for the slow re-encode, a "
        "reference only: the goal compares with the stream copy), wall time (the tool's own process, from fork to exit): "
        f"`camrec trim --start {s.trim_start:g} --end {s.trim_end:g} --mode accurate`; "
        f"`ffmpeg -ss {s.trim_start:g} -to {s.trim_end:g} -i IN -c copy` (stream copy); "
        f"`ffmpeg -ss {s.trim_start:g} -to {s.trim_end:g} -i IN -c:v libx264 -preset ultrafast -c:a copy` "
        "(full video re-encode; audio copied as camrec's accurate mode does, so the difference is the video work). "
        "When camrec can trim, `camrec trim --mode keyframe` (its pure copy) runs too, to split camrec's time "
        "into its copy path and its re-encoding.",
        "First-frame error = camera stamp of the output's first frame − the first wanted frame, read "
        "twice: as players show it (ffmpeg decoding with the edit list honoured) and as stored "
        "(`-ignore_editlist 1`, what a player or tool that ignores edit lists shows). ffmpeg's stream copy "
        "keeps the GOP before the start and hides it with an edit list.",
    ]
    label = (f"trim {s.trim_start:g}→{s.trim_end:g} s of a {s.trim_input_seconds / 60:g}-min 720p H.264+AAC file: "
             "wall time")
    tools = ["ffmpeg copy", "ffmpeg re-encode"] + (["camrec", "camrec keyframe"] if ok else [])
    runs = {tool: [] for tool in tools}
    for r in range(s.runs):
        log(f"trim: run {r + 1}/{s.runs}")
        run_dir = ctx.dir(f"trim/run{r + 1}")
        for tool in rotate(tools, r):
            if tool == "ffmpeg re-encode" and r >= REENCODE_RUNS:
                continue
            output = run_dir / (tool.replace(" ", "-") + ".mp4")
            done = Child(commands(ctx, source, output, tool), dict(os.environ), run_dir,
                         tool.replace(" ", "-"), nice=ctx.nice, timeout=900).wait()
            run = {"wall": done.wall, "cpu": done.cpu, "rc": done.returncode,
                   "note": "" if done.returncode == 0 else f"exit {done.returncode}: {done.stderr_tail(2)}"}
            if done.returncode == 0 and output.exists():
                run.update(check(output, start_frame, end_frame))
            if r < s.runs - 1:
                output.unlink(missing_ok=True)   # a trimmed 6-minute copy is over 100 MB; keep the last run's
            runs[tool].append(run)
    rows = []
    for tool in tools:
        rs = runs[tool]
        rows.append([tool, spread([r["wall"] for r in rs], "{:.2f}", " s"), spread([r["cpu"] for r in rs], "{:.2f}", " s"),
                     spread([r.get("error") for r in rs], "{:+.0f}"), spread([r.get("stored_error") for r in rs], "{:+.0f}"),
                     spread([r.get("end_error") for r in rs], "{:+.0f}"), spread([r.get("frames") for r in rs], "{:.0f}"),
                     "; ".join(sorted({r["note"] for r in rs if r["note"]}))])
    result.body.append(table(["tool", "wall time", "CPU time", "first-frame error, shown (frames)",
                              "first-frame error, stored (frames)", "last-frame error (frames)",
                              "stored video frames", "notes"], rows))
    result.body.append(f"Expected: {end_frame - start_frame + 1} frames; 1 frame = {1000 / FPS:.1f} ms.")
    if not ok:
        result.measured = False
        result.not_measured = why
        result.summary.append(SummaryRow(label, f"not measured: {why}",
                                         "", f"copy {spread([r['wall'] for r in runs['ffmpeg copy']], '{:.2f}', ' s')}, "
                                         f"re-encode {spread([r['wall'] for r in runs['ffmpeg re-encode']], '{:.1f}', ' s')}",
                                         goal="≤ 2× stream copy"))
        result.summary.append(SummaryRow("trim: first-frame error", "not measured", "",
                                         f"copy {spread([r.get('stored_error') for r in runs['ffmpeg copy']], '{:+.0f}')} "
                                         f"frames stored, {spread([r.get('error') for r in runs['ffmpeg copy']], '{:+.0f}')} shown",
                                         goal="0 frames"))
        result.seconds = time.monotonic() - started
        return result
    vs_copy = [c["wall"] / p["wall"] for c, p in zip(runs["camrec"], runs["ffmpeg copy"]) if p["wall"]]
    vs_re = [c["wall"] / p["wall"] for c, p in zip(runs["camrec"], runs["ffmpeg re-encode"]) if p["wall"]]
    t_ok = median(vs_copy) is not None and median(vs_copy) <= 2.0 and all(r["rc"] == 0 for r in runs["camrec"])
    result.summary.append(SummaryRow(
        label,
        spread([r["wall"] for r in runs["camrec"]], "{:.2f}", " s"), "",
        f"copy {spread([r['wall'] for r in runs['ffmpeg copy']], '{:.2f}', ' s')}, "
        f"re-encode {spread([r['wall'] for r in runs['ffmpeg re-encode']], '{:.1f}', ' s')}",
        "", f"{ratio_text(vs_copy)} copy, {ratio_text(vs_re)} re-encode", "≤ 2× stream copy", t_ok))
    errors = [r.get("error") for r in runs["camrec"]] + [r.get("stored_error") for r in runs["camrec"]]
    e_ok = all(e == 0 for e in errors)
    result.summary.append(SummaryRow(
        "trim: first-frame error (shown / stored)",
        f"{spread([r.get('error') for r in runs['camrec']], '{:+.0f}')} / "
        f"{spread([r.get('stored_error') for r in runs['camrec']], '{:+.0f}')} frames", "",
        f"copy {spread([r.get('error') for r in runs['ffmpeg copy']], '{:+.0f}')} / "
        f"{spread([r.get('stored_error') for r in runs['ffmpeg copy']], '{:+.0f}')}; re-encode "
        f"{spread([r.get('error') for r in runs['ffmpeg re-encode']], '{:+.0f}')} / "
        f"{spread([r.get('stored_error') for r in runs['ffmpeg re-encode']], '{:+.0f}')}",
        "", "", "0 frames", e_ok))
    if not t_ok:
        key = median([r["wall"] for r in runs["camrec keyframe"]])
        acc = median([r["wall"] for r in runs["camrec"]])
        copy = median([r["wall"] for r in runs["ffmpeg copy"]])
        result.gaps.append(
            f"**Trim time**: camrec's accurate cut takes {ratio_text(vs_copy)} the stream copy's time (goal ≤ 2×): "
            f"{acc:.2f} s against {copy:.2f} s. What limits it: camrec's pure copy (`--mode keyframe`, the same "
            f"demuxing, indexing and muxing through GStreamer without any re-encoding) already takes {key:.2f} s, "
            f"so {key:.2f} s of it is the copy path (ffmpeg's copies in {copy:.2f} s) and {max(0.0, acc - key):.2f} s "
            "is the re-encoded head (from the start to the next keyframe).")
    if not e_ok:
        result.gaps.append(f"**Trim accuracy**: camrec's first frame is off by "
                           f"{spread([r.get('error') for r in runs['camrec']], '{:+.0f}')} frames (goal 0).")
    result.seconds = time.monotonic() - started
    return result
