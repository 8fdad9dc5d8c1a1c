"""Section 13's motion part: what the motion trigger (`--on-motion`) costs and how soon it
sees an object. camrec only: neither gst-launch-1.0 nor ffmpeg has a motion trigger."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .clips import ctl, is_type, record_argv, start, tool_pid
from .common import Child, log, median, spread
from .media import stamps
from .section import Context, SectionResult, SummaryRow
from .tools import YUYV_480, YUYV_720

# The emulated camera's still scene (docs/virtual-camera.md): nothing moves, so the detector
# runs without triggering and only its branch is measured.
STILL = ",objects=none"
# Objects entering at these camera frames (30 frames each), with a slow light ramp and
# sensor noise that must not trigger.
ENTRIES = (150, 300, 450)
SCENE = ",objects=" + "+".join(f"{e}:30" for e in ENTRIES) + ",ramp=150,noise=6"


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each of pid's threads so far, by thread name: schedstat's time on a CPU
    (nanoseconds; stat's user and system ticks are 10 ms, too coarse for a small thread)."""
    found: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            on_cpu = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):   # the thread ended meanwhile
            continue
        found[name] = found.get(name, 0.0) + on_cpu / 1e9
    return found


def cpu_cost(ctx: Context, seconds: float, rounds: int) -> dict[str, list[float]]:
    """CPU s per recorded s of a 720p recording with clips on (`--post-roll 1s`) and
    `--on-motion`, on the still scene: the whole process's, and the motion branch's own
    (the thread of its queue, `motionqueue:src`, which scales, converts and compares; the
    camera thread's share is one test of a counter per frame). Read from /proc per thread
    once `ctl status` says `seconds` were recorded, so the rest of the machine's load (and
    the noise of two separate runs) does not enter the motion branch's figure."""
    mode = YUYV_720
    run_dir = ctx.dir("clips/motion-cpu")
    cpu: dict[str, list[float]] = {"process": [], "motion": []}
    for r in range(rounds):
        sock = run_dir / f"motion{r}.sock"
        argv = record_argv(ctx, mode, "/dev/video0", run_dir / f"motion{r}.mp4", sock, "none",
                           ["--post-roll", "1s", "--on-motion"])
        child = start(ctx, argv, ctx.toolbox.env(mode.vcam("/dev/video0") + STILL), run_dir, f"motion{r}", seconds + 120)
        pid = tool_pid(child) if child.wait_for_line(is_type("started"), 30) else None
        elapsed = None
        threads: dict[str, float] = {}
        while pid is not None and child.running:
            elapsed = ctl(ctx, sock, "status").get("elapsed")
            if elapsed is not None and elapsed >= seconds:
                threads = thread_cpu(pid)
                break
            time.sleep(0.5)
        ctl(ctx, sock, "stop")
        done = child.wait()
        if not threads or not elapsed:
            log(f"motion cpu {r}: no reading (exit {done.returncode}): {done.stderr_tail(2)}")
            continue
        cpu["process"].append(sum(threads.values()) / elapsed)
        # In CPU milliseconds per recorded second: the figure is small.
        cpu["motion"].append(1000 * sum(v for k, v in threads.items() if k.startswith("motionqueue")) / elapsed)
    return cpu


def delay(ctx: Context, rounds: int) -> dict:
    """640x480 from the scene with objects entering: each `motion` line's frame (read back
    from the movie's camera stamps) against its object's entry frame."""
    mode = YUYV_480
    run_dir = ctx.dir("clips/motion-delay")
    seconds = ENTRIES[-1] / mode.fps + 3
    found = {"delays": [], "extra": 0, "missed": 0, "entries": 0}
    for r in range(rounds):
        output = run_dir / f"scene{r}.mp4"
        argv = ctx.toolbox.camrec_record(mode, "/dev/video0", seconds, output,
                                         extra=["--on-motion", "--pre-roll", "1s", "--post-roll", "1s"])
        done = Child(argv, ctx.toolbox.env(mode.vcam("/dev/video0") + SCENE), run_dir, f"scene{r}",
                     nice=ctx.nice, timeout=seconds + 60).wait()
        if done.returncode != 0:
            log(f"motion delay {r}: exit {done.returncode}: {done.stderr_tail(2)}")
            continue
        found["entries"] += len(ENTRIES)
        lines = [json.loads(line) for line in Path(done.stdout_path).read_text().splitlines() if line.startswith("{")]
        movie = stamps(output, mode.width, mode.height)
        seen = set()
        for line in lines:
            if line.get("type") != "motion":
                continue
            index = round(line["time"] * mode.fps)
            stamp = movie[index] if 0 <= index < len(movie) else None
            entry = next((e for e in ENTRIES if stamp is not None and e <= stamp < e + 30), None)
            if entry is None or entry in seen:
                found["extra"] += 1
                continue
            seen.add(entry)
            found["delays"].append((stamp - entry) / mode.fps)
        found["missed"] += len(ENTRIES) - len(seen)
    return found


def motion_part(ctx: Context, result: SectionResult) -> None:
    seconds, rounds = (10.0, 1) if ctx.settings.quick else (30.0, 3)
    cpu = cpu_cost(ctx, seconds, rounds)
    found = delay(ctx, 1 if ctx.settings.quick else 2)
    process, motion = median(cpu["process"]), median(cpu["motion"])
    share = None if process is None or motion is None or not process else motion / 1000 / process
    result.body += [
        "### The motion trigger",
        "",
        f"CPU: {rounds} × {seconds:g}-s recordings of 1280x720@30 YUYV with `--on-motion` and clips on "
        "(`--post-roll 1s`) on the emulated camera's still scene (`objects=none`: nothing moves, so nothing "
        "triggers and the detector's steady cost is measured). Each thread's CPU is read from `/proc/PID/task` "
        "once `ctl status` reports the recorded seconds: the motion branch is its queue's thread "
        "(`motionqueue:src`: scaling to 64 pixels wide, grey conversion, comparison), the process is every "
        "thread of camrec (the encoder's included). Delay: 640x480@30 with objects entering at camera frames "
        f"{', '.join(map(str, ENTRIES))} while the light ramps and every pixel is noisy (`ramp=150,noise=6`); "
        "each `motion` line's frame is read back from the movie's camera stamps.",
        "",
        "| measure | value |",
        "| --- | --- |",
        f"| CPU s per recorded s, the whole recording with `--on-motion` | {spread(cpu['process'])} |",
        f"| CPU ms per recorded s, the motion branch's thread | {spread(cpu['motion'])} |",
        f"| the motion branch's share of the recording's CPU | {'—' if share is None else f'{share:.1%}'} |",
        f"| detection delay: entry frame → the motion line's frame (s) | {spread(found['delays'])} |",
        f"| entries detected / entries | {found['entries'] - found['missed']} / {found['entries']} |",
        f"| motion lines without an object entering (ramp, noise) | {found['extra']} |",
        "",
    ]
    result.summary.append(SummaryRow(
        "event clips (section 13): the motion trigger's CPU (its thread, 720p30, still scene) against the whole "
        "recording's; detection delay (640x480, objects entering)",
        f"{spread(cpu['motion'])} CPU ms per s against {spread(cpu['process'])} CPU s "
        f"({'—' if share is None else f'{share:.1%}'}); delay {spread(found['delays'])} s; "
        f"{found['entries'] - found['missed']} / {found['entries']} entries, {found['extra']} false",
        "no motion trigger", "no motion trigger", goal="far below the encoder's (< 10 %); every entry, none false",
        met=None if share is None else (share < 0.1 and found["missed"] == 0 and found["extra"] == 0)))
