"""3. Stills during recording: trigger-to-file latency, and drops during a burst."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from .common import Child, log, median, run_quiet, spread
from .media import image_stamp, stamps
from .recording import camrec_result
from .section import Context, SectionResult, SummaryRow, table
from .startup import read_probe
from .tools import YUYV_720

BURST = 20           # stills
BURST_SECONDS = 2.0  # spread over this long
SINGLE_GAP = 0.4     # seconds between single triggers


def supported(ctx: Context) -> tuple[bool, str]:
    """camrec takes stills during a recording when its record help documents SIGUSR1 and
    --stills (the interface this section drives)."""
    rc, text = ctx.toolbox.help_text("record")
    if rc == 0 and "SIGUSR1" in text and "--stills" in text:
        return True, ""
    return False, "camrec has no `still` yet (its record help documents no SIGUSR1 still and no `--stills`)"


def jpeg_encode_ms(ctx: Context) -> float | None:
    """CPU milliseconds of one JPEG encode of the camera's 1280x720 YUYV frame (jpegenc,
    quality 90): the CPU difference between `v4l2src ! jpegenc ! fakesink` and
    `v4l2src ! fakesink` over 60 frames, median of 3 runs each."""
    run_dir = ctx.dir("stills/jpeg-reference")
    mode = YUYV_720
    cpu = {}
    for name, middle in (("with", ["!", "jpegenc", "quality=90"]), ("without", [])):
        values = []
        for r in range(3):
            argv = ["gst-launch-1.0", "-q", "v4l2src", "device=/dev/video0", "num-buffers=60", *middle, "!", "fakesink"]
            done = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0")), run_dir, f"{name}{r}", nice=ctx.nice,
                         timeout=60).wait()
            values.append(done.cpu)
        cpu[name] = median(values)
    return max(0.0, (cpu["with"] - cpu["without"]) / 60 * 1000)


def one_run(ctx: Context, run_dir: Path, mode=YUYV_720, extra=()) -> dict:
    """One recording with single stills and a burst (camrec's options `extra`, e.g.
    `--codec copy` on an H.264 camera for section 10)."""
    device = "/dev/video0"
    output = run_dir / "movie.mp4"
    probe_log = run_dir / "camrec.probe"
    probe_log.unlink(missing_ok=True)
    singles = ctx.settings.still_singles
    seconds = 1.5 + singles * SINGLE_GAP + BURST_SECONDS + 2.5
    argv = ctx.toolbox.camrec_record(mode, device, seconds, output, extra=[*extra, "--stills", str(run_dir / "still-%04d.jpg")])
    child = Child(argv, ctx.toolbox.env(mode.vcam(device), probe_log, probe_max=100000), run_dir, "camrec",
                  live=True, nice=ctx.nice, timeout=seconds + 60)
    is_started = lambda line: '"type":"started"' in line.replace(" ", "")
    is_still = lambda line: '"type":"still"' in line.replace(" ", "")
    run = {"latency": [], "burst_latency": [], "age": [], "missing": 0, "dropped": None, "burst_dropped": None,
           "reported_dropped": None, "note": "", "absent": 0}
    if child.wait_for_line(is_started, 30) is None:
        done = child.wait()
        run["note"] = f"no started line: {done.stderr_tail(2)}"
        return run
    time.sleep(1.0)
    triggers = []
    index = 0
    for _ in range(singles):
        at = time.monotonic()
        child.signal(signal.SIGUSR1)
        triggers.append(at)
        found = child.wait_for_line(is_still, 3.0, index)
        if found:
            index = found[0] + 1
            run["latency"].append(found[1] - at)
            try:
                reported = Path(json.loads(found[2]).get("path", ""))
                if not (reported if reported.is_absolute() else run_dir / reported).exists():
                    run["absent"] += 1
            except ValueError:
                run["absent"] += 1
        else:
            run["missing"] += 1
        time.sleep(max(0.0, at + SINGLE_GAP - time.monotonic()))
    burst_start = time.monotonic()
    burst_triggers = []
    for k in range(BURST):
        due = burst_start + k * BURST_SECONDS / BURST
        time.sleep(max(0.0, due - time.monotonic()))
        burst_triggers.append(time.monotonic())
        child.signal(signal.SIGUSR1)
    burst_end = time.monotonic()
    done = child.wait()
    still_lines = [(t, json.loads(text)) for t, text in done.lines if is_still(text)]
    for trigger, (t, _) in zip(burst_triggers, still_lines[singles - run["missing"]:]):
        run["burst_latency"].append(t - trigger)
    run["burst_taken"] = len(still_lines) - (singles - run["missing"])
    # Which frame each still holds, and how old it was at its trigger (capture time from the probe).
    _, captured = read_probe(probe_log)
    for trigger, (_, line) in zip(triggers + burst_triggers, still_lines):
        path = Path(line.get("path", ""))
        if not path.is_absolute():
            path = run_dir / path
        seq = image_stamp(path, mode.width, mode.height) if path.exists() else None
        if seq is not None and seq in captured:
            run["age"].append(captured[seq] - trigger)
    # Movie drops: every camera stamp in the movie; a lost frame whose capture time falls in the
    # burst (from its start to 0.5 s after its last trigger) counts as a burst drop.
    result = camrec_result(done)
    run["reported_dropped"] = result.get("dropped_frames")
    if output.exists():
        seqs = [s for s in stamps(output, mode.width, mode.height) if s is not None]
        if seqs:
            present = set(seqs)
            lost = [s for s in range(0, max(seqs) + 1) if s not in present]
            run["dropped"] = len(lost)
            streamons, _ = read_probe(probe_log)
            base = streamons[-1] if streamons else None
            when = lambda s: captured.get(s, (base + (s + 1) / mode.fps) if base is not None else None)
            run["burst_dropped"] = sum(1 for s in lost if when(s) is not None and burst_start <= when(s) <= burst_end + 0.5)
    if done.returncode != 0:
        run["note"] = f"exit {done.returncode}: {done.stderr_tail(2)}"
    return run


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("stills", "3. Stills during recording")
    ok, why = supported(ctx)
    if not ok:
        result.measured = False
        result.not_measured = why
        result.summary.append(SummaryRow("still latency (trigger → file), 1280x720 JPEG", f"not measured: {why}",
                                         goal="< 2 frame intervals + 1 JPEG encode"))
        result.summary.append(SummaryRow("movie drops during a burst of 20 stills in 2 s", "not measured",
                                         goal="0"))
        return result
    result.method = [
        "camrec records 1280x720@30 YUYV with `--stills DIR/still-%04d.jpg --json`; the harness sends "
        f"SIGUSR1 {ctx.settings.still_singles} times {SINGLE_GAP:g} s apart (each waits for its still), then "
        f"{BURST} times in {BURST_SECONDS:g} s. Latency = arrival of camrec's `still` JSON line (printed once "
        "the file is written) − the moment the signal was sent. The frame each JPEG holds is read from "
        "its camera stamp, and its capture time from the probe: 'frame age' = capture − trigger "
        "(negative: the newest frame before the trigger). Movie drops are counted from the camera "
        "stamps of every frame in the movie; a lost frame captured during the burst (until 0.5 s after "
        "its last trigger) is a burst drop. The goal's JPEG encode is measured here too: CPU time of "
        "`jpegenc quality=90` on the camera's own 1280x720 YUYV frames (`v4l2src ! jpegenc ! fakesink` minus "
        "`v4l2src ! fakesink`, 60 frames, median of 3). Neither peer can take a "
        "still on a trigger while recording, so there is no peer figure.",
        f"{ctx.settings.runs} recordings.",
    ]
    jpeg_ms = jpeg_encode_ms(ctx)
    limit = 2 * 1000 / 30 + (jpeg_ms or 0)
    runs = []
    for r in range(ctx.settings.runs):
        log(f"stills: run {r + 1}/{ctx.settings.runs}")
        runs.append(one_run(ctx, ctx.dir(f"stills/run{r + 1}")))
    singles = [v * 1000 for run in runs for v in run["latency"]]
    burst = [v * 1000 for run in runs for v in run["burst_latency"]]
    ages = [v * 1000 for run in runs for v in run["age"]]
    rows = [
        ["latency, single stills", spread(singles, "{:.0f}", " ms"), f"worst {max(singles):.0f} ms" if singles else ""],
        ["latency, during the burst", spread(burst, "{:.0f}", " ms"), f"worst {max(burst):.0f} ms" if burst else ""],
        ["frame age at trigger (capture − trigger)", spread(ages, "{:+.0f}", " ms"), ""],
        ["stills missing (no `still` line)", str(sum(r["missing"] for r in runs)), ""],
        ["single stills not yet on disk when their line arrived", str(sum(r["absent"] for r in runs)), ""],
        ["stills taken per burst of 20", spread([r.get("burst_taken") for r in runs], "{:.0f}"), ""],
        ["movie drops during the burst", spread([r["burst_dropped"] for r in runs], "{:.0f}"), ""],
        ["movie drops, whole recording (camrec says)",
         f"{spread([r['dropped'] for r in runs], '{:.0f}')} ({spread([r['reported_dropped'] for r in runs], '{:.0f}')})", ""],
        ["one 1280x720 JPEG encode of a camera frame (jpegenc q=90)", f"{jpeg_ms:.1f} ms" if jpeg_ms is not None else "—", ""],
    ]
    result.body.append(table(["figure", "median (min–max)", ""], rows))
    notes = sorted({r["note"] for r in runs if r["note"]})
    if notes:
        result.body.append("Notes: " + "; ".join(notes))
    worst = max(singles + burst) if singles or burst else None
    lat_ok = worst is not None and median(singles) is not None and median(singles) < limit and worst < limit \
        and all(r["missing"] == 0 for r in runs)
    result.summary.append(SummaryRow(
        "still latency (trigger → file), 1280x720 JPEG",
        f"{spread(singles, '{:.0f}', ' ms')}, worst {worst:.0f} ms" if worst is not None else "—",
        "no peer", "no peer", goal=f"< {limit:.0f} ms (2 × 33.3 ms + {jpeg_ms:.0f} ms JPEG)", met=lat_ok))
    burst_drops = [r["burst_dropped"] for r in runs]
    drop_ok = all(d == 0 for d in burst_drops)
    result.summary.append(SummaryRow("movie drops during a burst of 20 stills in 2 s",
                                     spread(burst_drops, "{:.0f}"), "no peer", "no peer", goal="0", met=drop_ok))
    if not lat_ok and worst is not None:
        result.gaps.append(f"**Still latency**: median {median(singles):.0f} ms, worst {worst:.0f} ms against "
                           f"a goal of {limit:.0f} ms (frame age at trigger {spread(ages, '{:+.0f}', ' ms')}: "
                           "the rest is encoding and writing).")
    if not drop_ok:
        result.gaps.append(f"**Drops during a still burst**: {spread(burst_drops, '{:.0f}')} frames per burst.")
    result.seconds = time.monotonic() - started
    return result
