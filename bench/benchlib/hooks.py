"""Section 21: a command per finished file (issue 35 item 1): the movie's frames at 1280x720@30
while `--on-file` commands keep 20 processes busy at once, against the same recording without
them. camrec's alone: no peer runs a command per file while recording. Opt-in (--only hooks)."""

from __future__ import annotations

import time
from pathlib import Path

from .common import Child, json_lines, log, median
from .section import Context, SectionResult, SummaryRow, table
from .textrec import frames_in
from .tools import YUYV_720

JOBS = 20
BUSY_SECONDS = 8


def hook_command(trace: Path) -> str:
    """A command that spins the CPU for BUSY_SECONDS of wall time (as a transcode or a
    checksum of a big file would), noting its start and end in `trace`."""
    return ("sh -c 'echo + $(date +%s.%N) >> " + str(trace) + "; end=$(( $(date +%s) + " + str(BUSY_SECONDS) + " )); "
            "while [ $(date +%s) -lt $end ]; do i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; done; "
            "echo - $(date +%s.%N) >> " + str(trace) + "'")


def peak(trace: Path) -> int:
    """The most commands that ran at once, from their start and end marks."""
    events = []
    for text in trace.read_text(errors="replace").splitlines() if trace.exists() else []:
        sign, _, when = text.partition(" ")
        try:
            events.append((float(when), 1 if sign == "+" else -1))
        except ValueError:
            continue
    running = best = 0
    for _, step in sorted(events, key=lambda event: (event[0], event[1])):
        running += step
        best = max(best, running)
    return best


def one_run(ctx: Context, run_dir: Path, name: str, hooked: bool, seconds: float) -> dict:
    movie = run_dir / f"{name}.mp4"
    trace = run_dir / f"{name}.trace"
    trace.unlink(missing_ok=True)
    extra = ["--still-every", "0.25s"]
    if hooked:
        extra += ["--on-file", hook_command(trace), "--on-file-jobs", str(JOBS), "--on-file-timeout", "60s"]
    argv = ctx.toolbox.camrec_record(YUYV_720, "/dev/video0", seconds, movie, extra=extra)
    done = Child(argv, ctx.toolbox.env(YUYV_720.vcam("/dev/video0")), run_dir, name, nice=ctx.nice,
                 timeout=seconds * 4 + 300).wait()
    lines = json_lines(done.stdout_path)
    hooks = [line for line in lines if line.get("type") == "hook"]
    result = next((line for line in lines if line.get("type") == "result"), {})
    return {
        "rc": done.returncode, "wall": done.wall, "frames": frames_in(movie), "dropped": result.get("dropped_frames"),
        "hooks": len(hooks), "hooks_ok": sum(1 for line in hooks if line.get("exit_status") == 0),
        "peak": peak(trace) if hooked else 0,
    }


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("hooks", "21. A command per finished file")
    run_dir = ctx.dir("hooks")
    seconds = 10.0 if ctx.settings.quick else 30.0
    runs = 1 if ctx.settings.quick else 3
    expected = int(seconds * YUYV_720.fps)
    figures: dict[str, list[dict]] = {"without --on-file": [], f"--on-file, {JOBS} at once": []}
    for r in range(runs):
        for name, hooked in (("without --on-file", False), (f"--on-file, {JOBS} at once", True)):
            log(f"hooks: {name}, run {r + 1}")
            figures[name].append(one_run(ctx, run_dir, f"{'h' if hooked else 'n'}{r}", hooked, seconds))
    result.method = [
        f"The emulated camera at {YUYV_720.name}, {seconds:g}-s recordings (x264enc, camrec's defaults) with a still every "
        f"0.25 s (4 files a second), {runs} of each: without `--on-file`, and with `--on-file-jobs {JOBS}` and a command "
        f"that keeps a CPU busy for {BUSY_SECONDS} s of wall time per file (a shell loop: as a checksum or a transcode "
        f"would), so that {JOBS} run at once on 2 cores. Frames: ffprobe's count of the movie's frames against the "
        f"{expected} the camera delivered. Peak: the most commands running at once, from marks each writes at its start "
        "and end. The commands run at nice 10 (camrec's choice), the recording at the bench's own priority."
    ]
    rows = []
    lost_with = 0
    measured = True
    for name, runs_of in figures.items():
        ok = [r for r in runs_of if r["rc"] == 0 and r["frames"] is not None]
        measured = measured and len(ok) == len(runs_of)
        if "at once" in name:
            lost_with = max([lost_with, *[expected - r["frames"] for r in ok]])
        rows.append([
            name, ", ".join(str(r["frames"]) for r in ok) or "failed", ", ".join(str(r["dropped"]) for r in ok) or "—",
            ", ".join(f"{r['hooks_ok']}/{r['hooks']}" for r in ok) if "at once" in name else "—",
            ", ".join(str(r["peak"]) for r in ok) if "at once" in name else "—",
            f"{median([r['wall'] for r in ok]):.1f}" if ok else "—",
        ])
    result.body = [table(["run", f"frames in the movie (of {expected})", "dropped (reported)", "commands exited 0",
                          "peak at once", "wall s (median, with the wait for the commands)"], rows)]
    peaks = [r["peak"] for r in figures[f"--on-file, {JOBS} at once"]]
    result.summary.append(SummaryRow(
        figure=f"movie frames lost with {JOBS} --on-file commands running at once (720p30)",
        camrec=(str(lost_with) + f" (peak {min(peaks) if peaks else 0}–{max(peaks) if peaks else 0} at once)") if measured else "not measured",
        goal="0", met=(lost_with == 0) if measured else None))
    result.seconds = time.monotonic() - started
    return result
