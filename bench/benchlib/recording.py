"""1. Recording cost: CPU seconds per recorded second, and dropped frames."""

from __future__ import annotations

import json
import time
from pathlib import Path

from . import profile
from .common import Child, load_average, log, median, ratio_text, spread
from .media import recording_drops, x264_settings
from .section import Context, SectionResult, SummaryRow, table
from .tools import MJPEG_1080, TOOLS, YUYV_720, Mode


def camrec_result(finished) -> dict:
    """camrec's JSON result line (or {})."""
    try:
        for line in reversed(Path(finished.stdout_path).read_text().splitlines()):
            data = json.loads(line)
            if data.get("type") == "result":
                return data
    except (OSError, ValueError):
        pass
    return {}


def rotate(items, k):
    k %= len(items)
    return list(items[k:]) + list(items[:k])


def record_once(ctx: Context, tool: str, mode: Mode, device: str, seconds: float, run_dir: Path):
    """Starts one recording; returns (child, output path)."""
    output = run_dir / f"{tool}.mp4"
    argv = ctx.toolbox.record_command(tool, mode, device, seconds, output)
    child = Child(argv, ctx.toolbox.env(mode.vcam(device)), run_dir, tool, nice=ctx.nice,
                  timeout=seconds * 3 + 60)
    return child, output


def analyse(tool: str, mode: Mode, finished, output: Path, light: bool = False) -> dict:
    """CPU, frames and drops of one finished recording (light: only the frames and drops, see
    media.recording_drops, and no x264 settings)."""
    check = recording_drops(output, mode.width, mode.height, mode.fps, light) if output.exists() else {}
    frames = check.get("frames") or 0
    recorded = frames / mode.fps if frames else None
    run = {
        "tool": tool, "rc": finished.returncode, "cpu": finished.cpu, "wall": finished.wall,
        "rss_kb": finished.max_rss_kb, "frames": frames or None, "recorded": recorded,
        "cpu_per_s": finished.cpu / recorded if recorded else None,
        "dropped": check.get("dropped"), "first": check.get("first"), "pts_gaps": check.get("pts_gaps"),
        "x264": x264_settings(output) if output.exists() and not light else None, "note": "",
    }
    if tool == "camrec":
        result = camrec_result(finished)
        run["reported_dropped"] = result.get("dropped_frames")
        run["note"] = result.get("message", "")
    if finished.returncode != 0:
        run["note"] = (run["note"] + f" exit {finished.returncode}: {finished.stderr_tail(2)}").strip()
    return run


def measure_mode(ctx: Context, mode: Mode, seconds: float, concurrent: bool) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {tool: [] for tool in TOOLS}
    makers = ctx.shared.get("trim-inputs", [])   # the trim inputs, when they are being made in the background
    background = ctx.shared.setdefault(f"recording-{mode.height}-background", [])
    for r in range(ctx.settings.runs):
        before = any(maker.running for maker in makers)
        run_dir = ctx.dir(f"record-{mode.fourcc}-{mode.height}p/run{r + 1}")
        order = rotate(TOOLS, r)
        log(f"recording cost {mode.name}: run {r + 1}/{ctx.settings.runs}, "
            f"{'side by side' if concurrent else 'one at a time'}, {seconds:g} s each ({', '.join(order)})")
        if concurrent:
            started = [(tool, *record_once(ctx, tool, mode, f"/dev/video{i}", seconds, run_dir))
                       for i, tool in enumerate(order)]
            finished = [(tool, child.wait(), output) for tool, child, output in started]
        else:
            finished = []
            for i, tool in enumerate(order):
                child, output = record_once(ctx, tool, mode, f"/dev/video{i}", seconds, run_dir)
                finished.append((tool, child.wait(), output))
        load = load_average()
        background.append((before, any(maker.running for maker in makers)))
        for tool, done, output in finished:
            runs[tool].append({**analyse(tool, mode, done, output), "load": load})
    return runs


def camera_baseline(ctx: Context, mode: Mode) -> dict[str, list[float]]:
    """CPU seconds per second of the emulated camera alone (v4l2src ! fakesink), part of every
    tool's figure alike; and of the camera plus the conversion to I420 that camrec's pipeline
    does, once keeping the camera's colorimetry and once to the caps camrec asks for."""
    decode = ["!", "jpegdec"] if mode.fourcc == "mjpeg" else []
    variants = {
        "camera": [],
        "convert": [*decode, "!", "videoconvert", "!", "video/x-raw,format=I420"],
        "camrec": [*decode, "!", "videoconvert", "!", ctx.toolbox.convert_caps(mode)],
    }
    if "colorimetry" not in ctx.toolbox.convert_caps(mode):
        del variants["camrec"]   # camrec keeps the camera's colorimetry: the same as "convert"
    frames = round(ctx.settings.baseline_seconds * mode.fps)
    values: dict[str, list[float]] = {"camrec": [], **{name: [] for name in variants}}
    run_dir = ctx.dir(f"camera-baseline-{mode.fourcc}-{mode.height}p")
    for r in range(3):
        for name, middle in variants.items():
            argv = ["gst-launch-1.0", "-q", "v4l2src", "device=/dev/video0", f"num-buffers={frames}", *middle,
                    "!", "fakesink"]
            done = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0")), run_dir, f"{name}{r + 1}", nice=ctx.nice,
                         timeout=60).wait()
            if done.returncode == 0:
                values[name].append(done.cpu / (frames / mode.fps))
    return values


def profile_tools(ctx: Context, mode: Mode, tools, cpu: dict[str, float]) -> list:
    """One extra recording of each tool under perf (6 s; 3 s with --quick); the shares are also
    shown as CPU s per recorded s (share × the tool's median from the table above)."""
    seconds = 3 if ctx.settings.quick else 6
    run_dir = ctx.dir(f"profile-{mode.fourcc}-{mode.height}p")
    log(f"recording cost {mode.name}: profiling {', '.join(tools)} with perf…")
    profiles = []
    for tool in tools:
        argv = ctx.toolbox.record_command(tool, mode, "/dev/video0", seconds, run_dir / f"{tool}.mp4")
        profiles.append(profile.profile([(argv, ctx.toolbox.env(mode.vcam("/dev/video0")))], run_dir, tool, tool,
                                        nice=ctx.nice, timeout=seconds * 3 + 60))
    return profiles


def pct_swift(p, cpu: float | None) -> str:
    """camrec's own Swift code and the Swift runtime (camrec, libswift*, Foundation, dispatch):
    share of camrec's samples (among its top shared objects) and CPU s per recorded s."""
    share = sum(v for d, v in p.dsos if d == "camrec" or d.startswith(("libswift", "libFoundation",
                                                                          "lib_Foundation", "libdispatch")))
    return f"{share * 100:.1f} % of its samples" + (f", {share * cpu:.4f} CPU s per recorded s" if cpu else "")


def buffers_note(ctx: Context) -> str:
    """What makes the GStreamer pipelines lose frames under load first (from section 2's probe logs)."""
    runs = ctx.shared.get("startup") or {}
    count = lambda tool: median([r.get("buffers") for r in runs.get(tool, [])])
    cam, ff = count("camrec"), count("ffmpeg")
    if cam and ff and cam < ff:
        return (f" What limits it: `v4l2src` (camrec, gst-launch) queues {cam:.0f} buffers with the camera, ffmpeg "
                f"{ff:.0f}; a capture thread that waits more than {cam:.0f} frame intervals (133 ms) for a CPU finds no "
                "free buffer and the camera loses the frame.")
    return ""


def settings_check(runs: dict[str, list[dict]]) -> str:
    """Whether the three encoders ran with identical x264 settings (from the SEI x264 writes)."""
    found = {tool: next((r["x264"] for r in runs[tool] if r["x264"]), None) for tool in TOOLS}
    if not all(found.values()):
        return "x264 settings: could not read them from every file."
    reference = found["gst-launch"].split()
    notes = []
    for tool in ("camrec", "ffmpeg"):
        other = found[tool].split()
        diff = sorted(set(other) ^ set(reference))
        if diff:
            notes.append(f"{tool} differs from gst-launch in: `{' '.join(diff)}`")
    if not notes:
        return f"x264 settings read back from the three files are identical: `{found['gst-launch']}`"
    return "x264 settings (read back from each file's x264 SEI): " + "; ".join(notes)


def PLAN(s):
    return ((YUYV_720, s.rec720_seconds, True), (MJPEG_1080, s.rec1080_seconds, False))


def measure(ctx: Context, mode: Mode):
    """Runs (once) the recordings of one mode; the suite calls this at the point in its
    schedule where the machine has room, section() reports it."""
    key = f"recording-{mode.height}"
    if key not in ctx.shared:
        for m, seconds, concurrent in PLAN(ctx.settings):
            if m == mode:
                ctx.shared[key] = measure_mode(ctx, mode, seconds, concurrent)
    return ctx.shared[key]


def measure_baseline(ctx: Context, mode: Mode):
    """Runs (once) the camera baseline of one mode (short gst-launch runs, CPU time only)."""
    key = f"recording-{mode.height}-baseline"
    if key not in ctx.shared:
        ctx.shared[key] = camera_baseline(ctx, mode)
    return ctx.shared[key]


def background_note(ctx: Context, mode: Mode) -> str:
    """What ran in the background of this mode's runs besides the memory recordings: the trim
    input being made (only when it was not cached), and why that leaves these figures alone."""
    flags = ctx.shared.get(f"recording-{mode.height}-background") or []
    during = [r + 1 for r, (before, after) in enumerate(flags) if before or after]
    if not during:
        return ""
    whole = all(before and after for before, after in flags)
    which = f"all {len(flags)} runs" if whole else "runs " + ", ".join(map(str, during)) + \
        f" of {len(flags)} (it finished during run {during[-1]})"
    policy = next((maker.policy for maker in ctx.shared.get("trim-inputs", []) if hasattr(maker, "policy")), "SCHED_IDLE")
    return (f" In this run the trim inputs (section 4; not cached yet) were being made in the background during {which}, "
            f"at the lowest CPU priority ({policy}): "
            "the kernel gives it a CPU only when no other thread wants "
            "one and takes the CPU back as soon as a recording's thread wakes up (microseconds), so it cannot take "
            "CPU time from the tools, which is what is measured here, nor hold a capture thread off for the 4 frame "
            "intervals (133 ms) it takes to lose a frame; the three tools have it alike"
            + ("." if whole else " in those runs.")
            + " A check with and without it (bench/README.md) found no difference in CPU time and no lost frame. "
            "Making it meanwhile saves the suite about 2 minutes on a fresh checkout; cached, it is not made.")


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    s = ctx.settings
    result = SectionResult("recording", "1. Recording cost")
    enc = ctx.toolbox.encoder_settings(YUYV_720)
    result.method = [
        "Each tool records from the emulated camera (LD_PRELOAD, inside each process, so each pays the "
        "same camera cost) to a fragmented MP4. CPU = user + system seconds of the process and all its "
        "threads, from `wait4(2)` (no wrapper process); per recorded second = CPU / (stored frames / 30). "
        "Dropped frames are counted from the camera's frame stamp, not from the tools: the camera numbers "
        "frames from 0 at STREAMON, so (stamp of the last stored frame + 1) − stored frames were lost. "
        "camrec's own `dropped_frames` is shown beside it.",
        f"1280x720 YUYV: {s.runs} runs of {s.rec720_seconds:g} s, the three tools side by side in each run "
        "(same moment, same background load; together about 1.2 of the 2 cores), start order rotated. "
        f"1920x1080 MJPEG: {s.runs} runs of {s.rec1080_seconds:g} s, one tool at a time in rotated order: "
        "one such recording needs about a whole core, so three side by side would overload the 2 cores. The "
        f"issue asks 60 s per run, and 3 tools × {s.runs} runs × 60 s one at a time is {3 * s.runs:g} minutes of a "
        "20-minute budget that already holds the 720p runs (5 minutes), the 10-minute memory recording and the "
        "scale search (3 minutes). The 1080p runs take place inside the memory recording's 10 minutes, after "
        "sections 2–4 and the camera baselines (about 5.5 minutes with section 4's five 32-s re-encodes); "
        f"{s.rec1080_seconds:g}-s runs, 3 × {s.runs} × ({s.rec1080_seconds:g} s + about 1 s to start, finalise "
        f"and check) = {3 * s.runs * (s.rec1080_seconds + 1) / 60:.0f} minutes, fill it to about 9.5 of its 10 "
        f"minutes. Every second more per run costs {3 * s.runs:g} s of the suite: 20-s runs would take it past 19 "
        "minutes, too close to 20 on a machine whose load stretches every part. What shorter runs change is the "
        "share of starting and finalising (about 0.1 CPU s in every tool, "
        f"{0.1 / s.rec1080_seconds * 100:.1f} % of a {s.rec1080_seconds:g}-s run); the ratios are paired per run "
        "all the same."
        + (" They share the machine with the background memory recordings (section 5: three 640x480 "
           "recordings, about 0.35 core), the same for the three tools." if s.memory_seconds else "")
        + background_note(ctx, MJPEG_1080)
        + (" The camera baselines (next to each table) are measured after section 3, with the memory "
           "recordings in the background too." if s.memory_seconds else "")
        if not s.quick else f"Quick smoke run: {s.runs} runs of a few seconds; not a measurement.",
        f"Ratios are per run (camrec / peer in the same run), shown as median (min–max). "
        f"Encoder settings taken from camrec's pipeline: x264 `{' '.join(f'{k}={v}' for k, v in enc.items() if k != 'name')}`.",
    ]
    for mode, seconds, concurrent in PLAN(s):
        runs, baseline = measure(ctx, mode), measure_baseline(ctx, mode)
        rows = []
        for tool in TOOLS:
            rs = runs[tool]
            drops = spread([r["dropped"] for r in rs], "{:.0f}")
            if tool == "camrec":
                drops += f" (camrec says {spread([r.get('reported_dropped') for r in rs], '{:.0f}')})"
            rows.append([tool, spread([r["cpu_per_s"] for r in rs]), drops,
                         spread([r["frames"] for r in rs], "{:.0f}"),
                         spread([r["rss_kb"] / 1024 for r in rs], "{:.1f}", " MB"),
                         ", ".join(r["load"].split()[0] for r in rs),
                         "; ".join(sorted({r["note"] for r in rs if r["note"]})) or ""])
        vs = {peer: [c["cpu_per_s"] / p["cpu_per_s"] if c["cpu_per_s"] and p["cpu_per_s"] else None
                     for c, p in zip(runs["camrec"], runs[peer])] for peer in ("gst-launch", "ffmpeg")}
        result.body.append(f"### {mode.name}, {seconds:g} s per run")
        result.body.append(table(["tool", "CPU s per recorded s", "dropped frames (camera stamps)",
                                  "stored frames", "peak RSS", "load average after each run", "notes"], rows))
        caps = ctx.toolbox.convert_caps(mode)
        conversion = median(baseline["camrec"]) - median(baseline["convert"]) \
            if baseline["camrec"] and baseline["convert"] and "colorimetry" in caps else None
        result.body.append(
            f"camrec / gst-launch CPU: {ratio_text(vs['gst-launch'])}; camrec / ffmpeg CPU: "
            f"{ratio_text(vs['ffmpeg'])}. The emulated camera alone (`v4l2src ! fakesink`) costs "
            f"{spread(baseline['camera'])} CPU s per s of this, in every tool's figure. "
            f"Camera + {'jpegdec + ' if mode.fourcc == 'mjpeg' else ''}videoconvert to I420 keeping the camera's "
            f"colorimetry: {spread(baseline['convert'])}"
            + (f"; to camrec's caps `{caps}`: {spread(baseline['camrec'])} (3 runs each), so converting the "
               + (f"colours costs {conversion:.3f} CPU s per s." if conversion >= 0.01 else
                  "colours costs nothing measurable.") if conversion is not None else " (3 runs each)."))
        ctx.shared[f"conversion-{mode.height}"] = conversion
        result.body.append(settings_check(runs))
        med = {tool: median([r["cpu_per_s"] for r in runs[tool]]) for tool in TOOLS}
        r_gst, r_ff = median(vs["gst-launch"]), median(vs["ffmpeg"])
        cpu_ok = r_gst is not None and r_ff is not None and r_gst <= 1.05 and r_ff <= 1.0
        result.summary.append(SummaryRow(
            f"CPU s per recorded s, {mode.name}", spread([r["cpu_per_s"] for r in runs["camrec"]]),
            spread([r["cpu_per_s"] for r in runs["gst-launch"]]), spread([r["cpu_per_s"] for r in runs["ffmpeg"]]),
            ratio_text(vs["gst-launch"]), ratio_text(vs["ffmpeg"]),
            "≤ ffmpeg, ≤ 1.05× gst-launch", cpu_ok))
        all_drops = [r["dropped"] for r in runs["camrec"]]
        drops_ok = all(d == 0 for d in all_drops) and len(all_drops) > 0
        result.summary.append(SummaryRow(
            f"dropped frames, {mode.name}", spread(all_drops, "{:.0f}"),
            spread([r["dropped"] for r in runs["gst-launch"]], "{:.0f}"),
            spread([r["dropped"] for r in runs["ffmpeg"]], "{:.0f}"), "", "", "0 in every run", drops_ok))
        if not cpu_ok and r_gst is not None:
            what = []
            if r_gst > 1.05:
                what.append(f"{r_gst:.2f}× gst-launch's CPU (goal ≤ 1.05×)")
            if r_ff is not None and r_ff > 1.0:
                what.append(f"{r_ff:.2f}× ffmpeg's CPU (goal ≤ 1×)")
            gap = f"**Recording CPU, {mode.name}**: camrec uses {' and '.join(what)}."
            if r_gst <= 1.05:
                gap += (" gst-launch, running the very same pipeline, costs the same as camrec, so the "
                        "difference is in the GStreamer pipeline, not in camrec's bindings.")
            peer = "ffmpeg" if r_gst <= 1.05 else "gst-launch"
            conversion = ctx.shared.get(f"conversion-{mode.height}")
            if conversion is not None and conversion > 0.01 and peer == "ffmpeg":
                gap += (f" Part of it is a choice of camrec's: its caps (`{ctx.toolbox.convert_caps(mode)}`) make "
                        f"`videoconvert` convert the camera's colours ({conversion:.3f} CPU s per s measured on "
                        "its own), where ffmpeg keeps the camera's samples as they are.")
        if ctx.profiling(not cpu_ok):
            tools = ["camrec", "gst-launch"] + (["ffmpeg"] if r_ff is None or r_ff > 1.0 else [])
            profiles = profile_tools(ctx, mode, tools, med)
            result.body.append(f"#### Profile: camrec against {' and '.join(tools[1:])}, {mode.name}\n\n"
                               + ("One extra " if not cpu_ok else "Taken to test the profiling (the figure meets its "
                                  "goal): one extra ") + f"{3 if s.quick else 6}-s recording per tool. "
                               + profile.tables(profiles, [med.get(t) for t in tools], "CPU s per recorded s"))
        if not cpu_ok and r_gst is not None:
            bad = [p for p in profiles if not p.ok]
            if bad:
                gap += " No profile: " + bad[0].error + "."
            else:
                by_tool = dict(zip(tools, profiles))
                cam, other = by_tool["camrec"], by_tool[peer if peer in by_tool else "gst-launch"]
                cost = lambda p, t, d: (p.kernel if d == "[kernel]" else p.dso_share(d)) * (med.get(t) or 0)
                names = {d for d, _ in cam.dsos} | {d for d, _ in other.dsos}
                diffs = sorted(((cost(cam, "camrec", d) - cost(other, other.label, d), d) for d in names), reverse=True)[:3]
                gap += (f" Profile (perf, one extra {3 if s.quick else 6}-s recording each, tables in section 1): camrec: "
                        f"{profile.describe(cam)}; {other.label}: {profile.describe(other)}. Largest differences "
                        f"(CPU s per recorded s, camrec − {other.label}): "
                        + ", ".join(f"`{d}` {v:+.3f}" for v, d in diffs)
                        + f"; camrec's own Swift code and the Swift runtime: {pct_swift(cam, med.get('camrec'))}.")
            result.gaps.append(gap)
        if not drops_ok:
            same = sum(1 for c, g, f in zip(runs["camrec"], runs["gst-launch"], runs["ffmpeg"])
                       if (c["dropped"] or 0) > 0 and ((g["dropped"] or 0) > 0 or (f["dropped"] or 0) > 0))
            lossy = sum(1 for c in runs["camrec"] if (c["dropped"] or 0) > 0)
            result.gaps.append(
                f"**Dropped frames, {mode.name}**: camrec lost frames in {lossy} of {len(runs['camrec'])} runs "
                f"({spread(all_drops, '{:.0f}')} per run; gst-launch {spread([r['dropped'] for r in runs['gst-launch']], '{:.0f}')}, "
                f"ffmpeg {spread([r['dropped'] for r in runs['ffmpeg']], '{:.0f}')})"
                + (f"; in {same} of those runs a peer lost frames too, so the machine (shared, load average in "
                   "the table) was short of CPU at the time" if same else "") + "." + buffers_note(ctx))
    result.seconds = time.monotonic() - started
    return result
