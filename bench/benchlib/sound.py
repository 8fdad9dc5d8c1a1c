"""Section 12: recording with sound (issue 13). Not in the default suite (`--only sound`).

(a) Cost: camrec without sound, camrec `--audio vsink.monitor` into MP4 (AAC) and MKV (Opus),
and ffmpeg doing the same (`-f v4l2` + `-f pulse`, libx264 with x264enc's settings as camrec
sets them, AAC or libopus at camrec's bitrates), one tool at a time on the emulated camera at
640x480@30 MJPEG, with the test sound server's click player running: CPU s per recorded s,
peak RSS, dropped frames.
(b) Sync: camrec MP4, camrec MKV and ffmpeg (MP4, AAC) side by side for `--length` seconds
(default 600, --quick 60) on emulated cameras that flash every 2 s of CLOCK_MONOTONIC while the
click player clicks at the same instants: the offset (sound − picture) of every click against
its flash (benchlib/avsync.py, docs/av-sync-harness.md).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from . import avsync
from .common import Child, load_average, log, median, spread
from .media import recording_drops
from .section import Context, SectionResult, SummaryRow, table
from .tools import Mode

MJPEG_480 = Mode("640x480@30 MJPEG", 640, 480, 30, "mjpeg")
AAC_BITRATE = 128_000     # camrec's default for stereo AAC
OPUS_BITRATE = 96_000     # camrec's default for stereo Opus
FRAME_MS = 1000 / 30
GOAL_DRIFT_MS = 20.0

# (name, tool, container, sound)
VARIANTS = (
    ("camrec, no sound", "camrec", "mp4", False),
    ("camrec, MP4 + AAC", "camrec", "mp4", True),
    ("camrec, MKV + Opus", "camrec", "mkv", True),
    ("ffmpeg, MP4 + AAC", "ffmpeg", "mp4", True),
    ("ffmpeg, MKV + Opus", "ffmpeg", "mkv", True),
)


def fmt(value, pattern: str = "{:.3f}") -> str:
    return "—" if value is None else pattern.format(value)


def ffmpeg_argv(ctx: Context, mode: Mode, device: str, monitor: str | None, seconds: float, output: Path,
                container: str) -> list[str]:
    """ffmpeg with x264enc's settings as camrec sets them (tools.Toolbox.ffmpeg_record: preset,
    tune, GOP, ABR bitrate and VBV, 4:2:0, the camera's timestamps passed through) plus the sound
    server's source at camrec's codec and bitrate; `-t` ends both streams (`-frames:v` would
    end the picture only). MP4 fragmented per keyframe as camrec's hybrid MP4 is."""
    s = ctx.toolbox.encoder_settings(mode)
    bitrate = int(s.get("bitrate", "2048"))
    vbv_ms = int(s.get("vbv-buf-capacity", "600"))
    argv = ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
            "-thread_queue_size", "512", "-f", "v4l2", "-input_format", mode.ffmpeg_input_format,
            "-video_size", mode.size, "-framerate", str(mode.fps), "-i", device]
    if monitor:
        argv += ["-thread_queue_size", "512", "-f", "pulse", "-i", monitor]
    argv += ["-t", f"{seconds:g}", "-map", "0:v"] + (["-map", "1:a"] if monitor else []) + [
        "-c:v", "libx264", "-preset", s.get("speed-preset", "veryfast"),
        "-tune", s.get("tune", "zerolatency"), "-g", s.get("key-int-max", str(mode.fps)),
        "-b:v", f"{bitrate}k", "-maxrate", f"{bitrate}k", "-bufsize", f"{bitrate * vbv_ms // 1000}k",
        "-pix_fmt", "yuv420p", "-fps_mode", "passthrough"]
    if monitor:
        if container == "mp4":
            argv += ["-c:a", "aac", "-b:a", f"{AAC_BITRATE // 1000}k"]
        else:
            argv += ["-c:a", "libopus", "-b:a", f"{OPUS_BITRATE // 1000}k"]
    if container == "mp4":
        argv += ["-movflags", "+frag_keyframe+empty_moov+default_base_moof"]
    return argv + ["-y", str(output)]


def camrec_result(path: Path) -> dict:
    result = {}
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("{") and '"type":"result"' in line:
                try:
                    result = json.loads(line)
                except ValueError:
                    pass
    return result


def command(ctx: Context, tool: str, mode: Mode, monitor: str | None, seconds: float, output: Path,
            container: str) -> list[str]:
    if tool == "camrec":
        extra = ["--audio", monitor] if monitor else []
        return ctx.toolbox.camrec_record(mode, "/dev/video0", seconds, output, extra)
    return ffmpeg_argv(ctx, mode, "/dev/video0", monitor, seconds, output, container)


def env(ctx: Context, server: avsync.SoundServer, mode: Mode, flash: bool) -> dict[str, str]:
    vcam = mode.vcam("/dev/video0") + (",flash=2s" if flash else "")
    return server.env(ctx.toolbox.env(vcam))


def cost_runs(ctx: Context, server: avsync.SoundServer, mode: Mode, seconds: float, run_dir: Path) -> list[dict]:
    """Each variant once, one at a time (no two tools share the CPU)."""
    rows = []
    for name, tool, container, sound in VARIANTS:
        slug = name.replace(", ", "-").replace(" + ", "-").replace(" ", "-").lower()
        output = run_dir / f"cost-{slug}.{container}"
        argv = command(ctx, tool, mode, server.monitor if sound else None, seconds, output, container)
        log(f"sound: {name}, {seconds:g} s")
        # Under GNU time, as section 11: a child of this Python process would inherit its RSS in
        # ru_maxrss; wait4 on GNU time still counts the tool's CPU (its waited-for child).
        rss_file = run_dir / f"cost-{slug}.time"
        gnu_time = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
        finished = Child([gnu_time, "-f", "%M %U %S", "-o", rss_file, *argv], env(ctx, server, mode, False), run_dir,
                         f"cost-{slug}", nice=ctx.nice, timeout=seconds + 60).wait()
        try:
            rss_kb = int(rss_file.read_text().split()[-3])
        except (OSError, ValueError, IndexError):
            rss_kb = None
        check = recording_drops(output, mode.width, mode.height, mode.fps, light=True) if output.exists() else {}
        frames = check.get("frames") or 0
        recorded = frames / mode.fps if frames else None
        result = camrec_result(finished.stdout_path) if tool == "camrec" else {}
        rows.append({"name": name, "tool": tool, "container": container, "sound": sound, "exit": finished.returncode,
                     "cpu": finished.cpu, "user": finished.user, "system": finished.system,
                     "cpu_per_s": finished.cpu / recorded if recorded else None, "rss_kb": rss_kb,
                     "frames": frames, "dropped": check.get("dropped"),
                     "reported": result.get("dropped_frames"), "dropped_audio_ms": result.get("dropped_audio_ms"),
                     "load": load_average().split(",")[0], "wall": finished.wall})
    return rows


def fit_ppm(times: list[float], offsets: list[float]) -> float | None:
    """Least-squares slope of offset (s) against time (s), in parts per million."""
    n = len(times)
    if n < 3:
        return None
    mt, mo = sum(times) / n, sum(offsets) / n
    var = sum((t - mt) ** 2 for t in times)
    return sum((t - mt) * (o - mo) for t, o in zip(times, offsets)) / var * 1e6 if var else None


SYNC = (("camrec MP4 + AAC", "camrec", "mp4"), ("camrec MKV + Opus", "camrec", "mkv"), ("ffmpeg MP4 + AAC", "ffmpeg", "mp4"))


def sync_runs(ctx: Context, server: avsync.SoundServer, mode: Mode, seconds: float, run_dir: Path) -> list[dict]:
    """The three recorders side by side, each with its own emulated camera."""
    log(f"sound: sync, {len(SYNC)} recorders side by side for {seconds:g} s")
    children = []
    for name, tool, container in SYNC:
        slug = f"sync-{tool}-{container}"
        output = run_dir / f"{slug}.{container}"
        argv = command(ctx, tool, mode, server.monitor, seconds, output, container)
        children.append((name, tool, output, Child(argv, env(ctx, server, mode, True), run_dir, slug, nice=ctx.nice,
                                                   timeout=seconds + 120)))
        time.sleep(0.3)
    rows = []
    for name, tool, output, child in children:
        finished = child.wait()
        result = camrec_result(finished.stdout_path) if tool == "camrec" else {}
        row = {"name": name, "exit": finished.returncode, "dropped_audio_ms": result.get("dropped_audio_ms"),
               "reported": result.get("dropped_frames"), "offsets_ms": [], "clicks": [], "note": ""}
        if output.exists():
            try:
                sync = avsync.measure(output)
                row["offsets_ms"] = [o * 1000 for o in sync.offsets]
                row["clicks"] = sync.clicks
                row["flashes"] = len(sync.flashes)
                check = recording_drops(output, mode.width, mode.height, mode.fps, light=True)
                row["dropped"] = check.get("dropped")
                row["frames"] = check.get("frames")
            except Exception as error:  # a movie the harness cannot read is a result too
                row["note"] = f"not measured: {error}"
        else:
            row["note"] = f"no movie (exit {finished.returncode})"
        add_stats(row, run_dir / "clickplayer.log")
        rows.append(row)
    return rows


def add_stats(row: dict, player_log: Path) -> None:
    """Start, end, drift, range and trend of a sync row's offsets, corrected by the click
    player's own error for each click (on a loaded machine its clicks can land tens of ms
    off their instants; the raw figures are kept as raw_*)."""
    raw = row["offsets_ms"]
    errors = player_errors(player_log) if player_log.exists() else {}
    fixed, k0 = corrected_offsets(row["clicks"], raw, errors) if len(row["clicks"]) == len(raw) else ([], None)
    row["corrected_ms"], row["first_click"] = fixed, k0
    row["player_worst_ms"] = None
    if k0 is not None:
        steps = [round((c - row["clicks"][0]) / 2) for c in row["clicks"]]
        row["player_worst_ms"] = max(abs(errors[k0 + s]) for s in steps)
    offs = fixed if k0 is not None else raw
    row["corrected"] = k0 is not None
    row["raw_start"] = raw[0] if raw else None
    row["raw_end"] = raw[-1] if raw else None
    row["start"] = offs[0] if offs else None
    row["end"] = offs[-1] if offs else None
    row["drift"] = offs[-1] - offs[0] if offs else None
    row["min"] = min(offs) if offs else None
    row["max"] = max(offs) if offs else None
    paired = row["clicks"] if len(row["clicks"]) == len(offs) else None
    row["ppm"] = fit_ppm(paired, [o / 1000 for o in offs]) if paired else None


def section(ctx: Context, length: float | None = None) -> SectionResult:
    began = time.monotonic()
    result = SectionResult("sound", "12. Sound: cost and A/V sync")
    code, text = ctx.toolbox.help_text()
    if "--audio" not in text:
        result.measured = False
        result.not_measured = "camrec has no `--audio`"
        return result
    mode = MJPEG_480
    quick = ctx.settings.quick
    cost_seconds = 10.0 if quick else 60.0
    sync_seconds = length if length is not None else (60.0 if quick else 600.0)
    run_dir = ctx.run_dir / "sound"
    run_dir.mkdir(exist_ok=True)
    load_start = load_average()
    server = avsync.sound_server(run_dir)
    try:
        cost = cost_runs(ctx, server, mode, cost_seconds, run_dir)
        sync = sync_runs(ctx, server, mode, sync_seconds, run_dir)
        click_errors = server.click_errors_ms()
    finally:
        server.stop()
    load_end = load_average()
    ctx.shared["sound"] = {"cost": cost, "sync": sync}
    (run_dir / "results.json").write_text(json.dumps(ctx.shared["sound"], indent=1))

    result.method = [
        f"Sound from the test sound server (a user-space PulseAudio with a null sink, `{server.monitor}` its "
        "monitor; `benchlib/avsync.py`), into which the click player clicks every 2 s of CLOCK_MONOTONIC in a "
        "closed loop (docs/av-sync-harness.md); the picture from the emulated camera at "
        f"{mode.name}. camrec as a user runs it (`--audio {server.monitor}`: AAC {AAC_BITRATE // 1000} kbit/s "
        f"into the hybrid MP4, Opus {OPUS_BITRATE // 1000} kbit/s into MKV); ffmpeg with `-f v4l2` and "
        "`-f pulse`, libx264 with the settings camrec gives x264enc (preset, tune, GOP, ABR bitrate and VBV, as "
        "section 1 pairs them), `-c:a aac` or `-c:a libopus` at the same bitrates, `-fps_mode passthrough` "
        "and, for MP4, a fragmented MP4; `-t` ends both of its streams.",
        f"**Cost**: each variant once for {cost_seconds:g} s, one at a time, the click player running; CPU = "
        "user + system seconds of the process and its threads (`wait4(2)` on GNU time, which runs the tool; peak RSS from GNU time's `%M`, as in section 11) per recorded second (stored frames / "
        "30), so the emulated camera (in every process alike) is in every figure. The machine is shared "
        "(2 cores, another engineer's test suite ran meanwhile): the CPU figures are noisy, one run each; "
        "compare within the table, not across runs of the suite. Dropped frames from the camera's stamps.",
        f"**Sync**: camrec MP4, camrec MKV and ffmpeg (MP4 + AAC) side by side for {sync_seconds:g} s, each "
        "with its own emulated camera flashing at every 2-s multiple of CLOCK_MONOTONIC (`flash=2s`). In each "
        "movie the first frame of each flash and the first sample of each click are found with ffprobe/ffmpeg "
        "(`avsync.measure`); offset = click − nearest flash (positive: the sound is late). Start = the first "
        "click's offset, end = the last one's; drift = end − start; trend = the least-squares slope over "
        "every click, in ppm (µs per s). Each offset is corrected by the click player's own check of that click "
        "(how far from its instant it reached the monitor, `clickplayer.log`; the movie's clicks are matched to the "
        "player's by the alignment that makes the corrected series smoothest): on a loaded machine pacat can run "
        "dry and later clicks land tens of ms off until the player catches up. The uncorrected start and end and "
        "the worst click error are given too.",
    ]
    rows = []
    for r in cost:
        rows.append([r["name"], fmt(r["cpu_per_s"]), f"{r['user']:.1f} + {r['system']:.1f}",
                     fmt(r["rss_kb"] / 1024 if r["rss_kb"] else None, "{:.0f} MB"), fmt(r["dropped"], "{:.0f}")
                     + (f" ({r['reported']})" if r["reported"] is not None else ""),
                     fmt(r["dropped_audio_ms"], "{:.0f}") if r["tool"] == "camrec" and r["sound"] else "",
                     f"{r['frames']}", str(r["exit"]), r["load"]])
    result.body.append(table(["variant", "CPU s per recorded s", "user + sys s", "peak RSS",
                              "dropped frames: stamps (camrec says)", "dropped_audio_ms", "stored frames",
                              "exit", "load (1 min) after"], rows))
    by = {r["name"]: r for r in cost}
    for container, cname, fname in (("MP4 + AAC", "camrec, MP4 + AAC", "ffmpeg, MP4 + AAC"),
                                    ("MKV + Opus", "camrec, MKV + Opus", "ffmpeg, MKV + Opus")):
        c, f = by.get(cname), by.get(fname)
        if c and f:
            ratio = c["cpu_per_s"] / f["cpu_per_s"] if c["cpu_per_s"] and f["cpu_per_s"] else None
            result.summary.append(SummaryRow(
                f"CPU s per recorded s with sound, {mode.name} + `{server.monitor}`, {container} (one run each)",
                fmt(c["cpu_per_s"]), "—", fmt(f["cpu_per_s"]), "—", fmt(ratio, "{:.2f}×")))
    srows = []
    for r in sync:
        srows.append([r["name"], fmt(r["start"], "{:+.1f}"), fmt(r["end"], "{:+.1f}"), fmt(r["drift"], "{:+.1f}"),
                      f"{fmt(r['min'], '{:+.1f}')} to {fmt(r['max'], '{:+.1f}')}", fmt(r["ppm"], "{:+.1f}"),
                      f"{fmt(r['raw_start'], '{:+.1f}')} → {fmt(r['raw_end'], '{:+.1f}')}",
                      fmt(r["player_worst_ms"], "{:.1f}"),
                      str(len(r["offsets_ms"])), fmt(r.get("dropped"), "{:.0f}"),
                      fmt(r["dropped_audio_ms"], "{:.0f}") if r["name"].startswith("camrec") else "",
                      str(r["exit"]), r["note"]])
    result.body.append(table(["recorder", "start (ms)", "end (ms)", "drift end − start (ms)", "min to max (ms)",
                              "trend (ppm)", "uncorrected start → end (ms)", "worst click error (ms)", "clicks paired", "dropped frames", "dropped_audio_ms", "exit", "notes"],
                             srows))
    if click_errors:
        result.body.append(f"The click player's own check: its clicks reached the monitor "
                           f"{spread(click_errors, '{:+.2f}', ' ms')} from their instants ({len(click_errors)} clicks).")
    for r in sync:
        if not r["name"].startswith("camrec"):
            continue
        ok = (r["start"] is not None and abs(r["start"]) <= FRAME_MS and r["drift"] is not None
              and abs(r["drift"]) < GOAL_DRIFT_MS)
        peer = next((p for p in sync if p["name"].startswith("ffmpeg")), None)
        result.summary.append(SummaryRow(
            f"A/V offset start → end over {sync_seconds:g} s, {r['name']}",
            f"{fmt(r['start'], '{:+.1f}')} → {fmt(r['end'], '{:+.1f}')} ms",
            "—", f"{fmt(peer['start'], '{:+.1f}')} → {fmt(peer['end'], '{:+.1f}')} ms" if peer else "—",
            goal="start within 33 ms; drift < 20 ms over 10 min", met=ok))
        if not ok:
            result.gaps.append(f"**A/V sync, {r['name']}**: offset {fmt(r['start'], '{:+.1f}')} ms at the start, "
                               f"{fmt(r['end'], '{:+.1f}')} ms at the end of {sync_seconds:g} s (goal: within one frame, "
                               f"33 ms, at the start; drift under 20 ms over 10 minutes).")
    result.body.append(f"Load average (1, 5, 15 min) at the start of this section: {load_start}; at its end: "
                       f"{load_end} (2 cores, shared). Section time: {(time.monotonic() - began) / 60:.1f} min.")
    result.seconds = time.monotonic() - began
    return result


def player_errors(log: Path) -> dict[int, float]:
    """The click player's own check, per click instant: {k: error in ms}, the click meant for
    k·2 s of CLOCK_MONOTONIC reached the monitor error ms from it (clickplayer.log lines
    `click T heard H error E ms`)."""
    errors = {}
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("click ") and " error " in line:
            errors[round(float(line.split()[1]) / 2)] = float(line.split(" error ")[1].split()[0])
    return errors


def corrected_offsets(clicks: list[float], offsets_ms: list[float], errors: dict[int, float]) -> tuple[list[float], int | None]:
    """The offsets less each click's own error, when the player's clicks were not at their
    instants (a loaded machine: pacat ran dry and the sink played a gap, so later clicks came
    early or late until the player caught up). A movie's clicks are numbered from its first
    (by their 2-s spacing); the movie's first click is the player's click k0, found as the k0
    that makes the corrected offsets smoothest (the errors jump by tens of ms, the recorder's
    offset moves by a fraction of a ms per click), among the k0 for which every click has an
    error. Returns (corrected offsets, k0); ([], None) when no alignment fits."""
    if not clicks or not errors:
        return [], None
    steps = [round((c - clicks[0]) / 2) for c in clicks]
    best = None
    for k0 in range(min(errors), max(errors) + 1):
        if any(k0 + s not in errors for s in steps):
            continue
        fixed = [o - errors[k0 + s] for o, s in zip(offsets_ms, steps)]
        roughness = sum(abs(b - a) for a, b in zip(fixed, fixed[1:]))
        if best is None or roughness < best[0]:
            best = (roughness, k0, fixed)
    return (best[2], best[1]) if best else ([], None)
