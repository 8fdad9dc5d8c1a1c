"""Section 23: a loud sound as a clip's trigger (issue 35 item 3): what `--on-sound` costs a
1280x720@30 recording with sound. Three variants side by side in turn: the recording with
`--audio test` and clips ready (`--pre-roll 1s`: the pre-roll is kept, nothing triggers), the
same with `--on-sound 0` (GStreamer's `level` on the sound branch and camrec's detector, never
triggered: the test tone is at -17 dBFS), and with `--on-sound -30` (the tone triggers at once and
keeps the clip going to the end: the detector and a clip written all along). camrec's alone: no
peer makes a clip when it gets loud. Opt-in (--only soundtrigger)."""

from __future__ import annotations

import time
from pathlib import Path

from .common import Child, json_lines, log, median, spread
from .section import Context, SectionResult, SummaryRow, table
from .textrec import frames_in
from .tools import YUYV_720

VARIANTS = (
    ("clips ready, no --on-sound", ["--pre-roll", "1s"]),
    ("--on-sound 0 (measured, never loud enough)", ["--pre-roll", "1s", "--on-sound", "0"]),
    ("--on-sound -30 (the tone triggers: a clip all along)", ["--pre-roll", "1s", "--on-sound", "-30", "--post-roll", "1s"]),
)


def one_run(ctx: Context, run_dir: Path, name: str, extra: list[str], seconds: float) -> dict:
    movie = run_dir / f"{name}.mp4"
    argv = ctx.toolbox.camrec_record(YUYV_720, "/dev/video0", seconds, movie, extra=["--audio", "test", *extra])
    done = Child(argv, ctx.toolbox.env(YUYV_720.vcam("/dev/video0")), run_dir, name, nice=ctx.nice,
                 timeout=seconds * 4 + 120).wait()
    lines = json_lines(done.stdout_path)
    result = next((line for line in lines if line.get("type") == "result"), {})
    frames = frames_in(movie)
    return {
        "rc": done.returncode, "cpu": done.cpu, "frames": frames, "dropped": result.get("dropped_frames"),
        "sounds": sum(1 for line in lines if line.get("type") == "sound"),
        "clips": sum(1 for line in lines if line.get("type") == "clip"),
        "per_second": done.cpu / (frames / YUYV_720.fps) if frames else None,
    }


def section(ctx: Context) -> SectionResult:
    started = time.monotonic()
    result = SectionResult("soundtrigger", "23. A loud sound as a clip's trigger")
    code, text = ctx.toolbox.help_text()
    if "--on-sound" not in text:
        result.measured = False
        result.not_measured = "this camrec has no --on-sound"
        return result
    run_dir = ctx.dir("soundtrigger")
    seconds = 8.0 if ctx.settings.quick else 20.0
    runs = 1 if ctx.settings.quick else 3
    figures: dict[str, list[dict]] = {name: [] for name, _ in VARIANTS}
    for r in range(runs):
        # The variants one after the other, their order turned each run.
        order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
        for name, extra in order:
            log(f"soundtrigger: run {r + 1}/{runs}, {name}")
            figures[name].append(one_run(ctx, run_dir, f"r{r}-{VARIANTS.index((name, extra))}", extra, seconds))
    expected = int(seconds * YUYV_720.fps)
    result.method = [
        f"The emulated camera at {YUYV_720.name} with `--audio test` (a 440 Hz tone at -17 dBFS), {seconds:g}-s "
        f"recordings, {runs} of each variant, one after the other with their order turned each run. CPU = user + "
        "system seconds of camrec from `wait4(2)`, per recorded second (CPU / (stored frames / 30)). The first "
        "variant keeps clips ready (`--pre-roll 1s`) with no trigger; the second adds `--on-sound 0`, which measures "
        "the sound every 50 ms (`level`) and never triggers; the third `--on-sound -30`, which triggers at the "
        "first 200 ms and keeps one clip going to the end. Frames: ffprobe's count of the movie's against the "
        f"{expected} the camera delivered."
    ]
    rows = []
    medians: dict[str, float | None] = {}
    measured = True
    for name, _ in VARIANTS:
        ok = [r for r in figures[name] if r["rc"] == 0 and r["per_second"] is not None]
        measured = measured and len(ok) == len(figures[name])
        medians[name] = median([r["per_second"] for r in ok]) if ok else None
        rows.append([name, spread([r["per_second"] for r in ok], "{:.3f}", " s") if ok else "failed",
                     ", ".join(str(r["frames"]) for r in ok) or "—", ", ".join(str(r["dropped"]) for r in ok) or "—",
                     ", ".join(f"{r['sounds']}/{r['clips']}" for r in ok) or "—"])
    result.body = [table(["variant", "CPU s per recorded s", f"movie frames (of {expected})", "dropped (reported)",
                          "sound lines / clips"], rows)]
    base, measuring = medians[VARIANTS[0][0]], medians[VARIANTS[1][0]]
    added = (measuring - base) if base is not None and measuring is not None else None
    result.summary.append(SummaryRow(
        figure="CPU `--on-sound` adds to a 720p30 recording with sound and clips ready (s per recorded s)",
        camrec=f"{added:+.3f} ({base:.3f} → {measuring:.3f})" if measured and added is not None else "not measured",
        goal="≤ +0.010 (1% of a core)", met=(added <= 0.010) if measured and added is not None else None))
    result.seconds = time.monotonic() - started
    return result
