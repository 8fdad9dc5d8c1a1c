"""4. Trim: camrec --mode accurate against ffmpeg stream copy and a full re-encode."""

from __future__ import annotations

import atexit
import dataclasses
import math
import os
import shutil
import signal
import time
from pathlib import Path

from . import profile
from .common import Child, log, median, ratio_text, spread
from .media import band_height, first_stamp, last_stamp, probe_video
from .section import Context, SectionResult, SummaryRow, part_rows, table
from .recording import rotate

WIDTH, HEIGHT, FPS = 1280, 720, 30
REENCODE_RUNS = 5   # the slow reference (about 32 s a run here): 5 runs like every other figure


@dataclasses.dataclass(frozen=True)
class InputSpec:
    """One trim input: how x264 makes it, and how the report names it."""
    key: str
    name: str          # in the report
    file: str          # under bench/out/, with {seconds}
    gop: int
    x264: tuple        # ffmpeg video options
    description: str
    phase: int = 0     # the keyframes are the frames n with n % gop == phase (and frame 0)


INPUTS = (
    # x264's defaults (GOP 250 = 8.3 s, 3 B-frames with B-pyramid): the cut at 120 s falls 100
    # frames after a keyframe, and the end's last frames are B-frames that refer past the end.
    InputSpec("x264", "x264 defaults", "trim-input-{seconds}s-v1.mp4", 250,
              ("-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0"),
              "x264 veryfast with x264's default GOP (250 frames, 8.3 s) and 3 B-frames"),
    # camrec's own recordings at 720p: 1 s GOP, no B-frames, x264enc's ABR at 1935 kbit/s
    # (made with the ultrafast preset so that it is quick to make: the trim copies it, and the
    # edges decode a little faster than camrec's veryfast CABAC would). Its IDR keyframes fall
    # half a GOP off the whole seconds, so that the cut at 120 s is mid-GOP, as a cut at an
    # arbitrary time is (on whole seconds both ends of the cut would be keyframes).
    InputSpec("camrec", "camrec-like", "trim-input-camrec-{seconds}s-v2.mp4", 30,
              ("-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "1000", "-keyint_min", "30",
               "-sc_threshold", "0", "-bf", "0", "-forced-idr", "1", "-force_key_frames", "expr:eq(mod(n+15,30),0)",
               "-b:v", "1935k", "-maxrate", "1935k", "-bufsize", "1161k"),
              "camrec's 720p recording settings (an IDR every 30 frames = 1 s, no B-frames, 1935 kbit/s; x264 "
              "ultrafast instead of camrec's veryfast, to make it quickly), keyframes half a second off the whole "
              "seconds", phase=15),
)


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


def input_path(ctx: Context, spec: InputSpec) -> Path:
    return ctx.out / spec.file.format(seconds=ctx.settings.trim_input_seconds)


class InputMaker:
    """Makes a stamped 1280x720@30 H.264 + AAC trim input (see ``INPUTS``)
    when it is not cached in bench/out/ (never committed). It runs in the background at the
    lowest CPU priority (SCHED_IDLE: it gets only CPU time that no other thread wants, and a
    thread that wakes up takes the CPU from it at once), so that the suite measures CPU time
    meanwhile (section 1's 1080p recordings, see bench/run) instead of waiting about 2 minutes."""

    def __init__(self, ctx: Context, spec: InputSpec):
        self.ctx = ctx
        self.spec = spec
        self.seconds = ctx.settings.trim_input_seconds
        self.path = input_path(ctx, spec)
        self.partial = self.path.with_suffix(".partial.mp4")
        self.child = None
        self.during: list[str] = []   # what the suite measured meanwhile (for the report)
        if self.path.exists() and probe_video(self.path)["packets"] == self.seconds * FPS:
            return
        log(f"making the {spec.name} trim input in the background ({self.seconds} s of 1280x720@30 H.264 + AAC; "
            f"cached in {self.path})…")
        script = ctx.out / "trim-stamp-filter.txt"
        script.write_text(stamp_filter())
        self.policy = "SCHED_IDLE" if shutil.which("chrt") else "nice 19"
        lowest = ["chrt", "--idle", "0"] if shutil.which("chrt") else ["nice", "-n", "19"]
        argv = ["ffmpeg", "-nostdin", "-v", "error", "-y",
                "-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate={FPS}",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                "-t", str(self.seconds), "-filter_script:v", str(script),
                *spec.x264, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
                "-movflags", "+faststart", str(self.partial)]
        self.child = Child(lowest + argv, dict(os.environ), ctx.dir("trim-input"), f"make-trim-input-{spec.key}",
                           timeout=3600)
        atexit.register(self.stop)

    def stop(self) -> None:
        """Ends the encode if the suite ends before it does (an error, Ctrl-C)."""
        if self.running:
            self.child.signal(signal.SIGKILL)

    @property
    def running(self) -> bool:
        return self.child is not None and self.child.running

    def note(self, what: str) -> None:
        """Notes that the suite measured `what` while the input was being made."""
        if self.running:
            self.during.append(what)

    def normal_priority(self) -> None:
        """Back to normal priority (every thread: x264's were made at SCHED_IDLE too) once nothing is
        measured meanwhile, so that other users' work on the machine cannot hold it back."""
        try:
            for tid in os.listdir(f"/proc/{self.child.pid}/task"):
                os.sched_setscheduler(int(tid), os.SCHED_OTHER, os.sched_param(0))
                os.setpriority(os.PRIO_PROCESS, int(tid), 0)
        except OSError:
            pass

    def wait(self) -> Path:
        """The input, once made (waits for the background encode when it is still running)."""
        if self.child is None:
            return self.path
        waiting = time.monotonic()
        if self.running:
            log("trim: waiting for the trim input to be finished (now at normal priority)…")
            self.normal_priority()
        done = self.child.wait()
        self.child = None
        if done.returncode != 0 or not self.partial.exists():
            raise SystemExit(f"bench: making the trim input failed (exit {done.returncode}): {done.stderr_tail(3)}")
        self.partial.rename(self.path)
        self.ctx.facts.setdefault("trim_inputs", {})[self.spec.key] = {"wall": done.wall, "cpu": done.cpu, "waited": time.monotonic() - waiting,
                                        "during": self.during, "policy": self.policy, "seconds": self.seconds}
        return self.path


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
    wanted = parts()
    makers = ctx.shared.get("trim-inputs") or ([InputMaker(ctx, spec) for spec in INPUTS] if "short" in wanted else [])
    start_frame = math.ceil(s.trim_start * FPS)
    end_frame = math.ceil(s.trim_end * FPS) - 1
    result.method = [
        f"Two inputs, each {s.trim_input_seconds} s of 1280x720@30 H.264 + AAC 48 kHz from ffmpeg's `testsrc2` "
        "with the emulated camera's stamp drawn into the top 32 rows (the frame number), cached in `bench/out/`: "
        + "; ".join(f"**{spec.name}**: {spec.description}, so {s.trim_start:g} s falls "
                    f"{(start_frame - spec.phase) % spec.gop} frames after a keyframe" for spec in INPUTS)
        + f". Cut {s.trim_start:g} s → {s.trim_end:g} s: the first wanted frame is {start_frame}, the last {end_frame}.",
        f"Tools, {s.runs} runs each in rotated order, wall time (the tool's own process, from fork to exit): "
        f"`camrec trim --start {s.trim_start:g} --end {s.trim_end:g} --mode accurate`; "
        f"`ffmpeg -ss {s.trim_start:g} -to {s.trim_end:g} -i IN -c copy` (stream copy); on the x264-defaults input also "
        f"`ffmpeg -ss {s.trim_start:g} -to {s.trim_end:g} -i IN -c:v libx264 -preset ultrafast -c:a copy` "
        "(full video re-encode; audio copied as camrec's accurate mode does, so the difference is the video work). "
        "`camrec trim --mode keyframe` (its pure copy) runs too, to split camrec's time into its copy and its "
        "re-encoding of the edges.",
        "First-frame error = camera stamp of the output's first frame − the first wanted frame, read "
        "twice: as players show it (ffmpeg decoding with the edit list honoured) and as stored "
        "(`-ignore_editlist 1`, what a player or tool that ignores edit lists shows). ffmpeg's stream copy "
        "keeps the GOP before the start and hides it with an edit list. Context switches: voluntary ones "
        "(a thread went to sleep: waiting for another thread, or for the disk) and involuntary ones, "
        "from `wait4(2)` of each measured run.",
    ]
    if "short" in wanted:
        for spec, maker in zip(INPUTS, makers):
            part_rows(result, "short", lambda: measure_input(ctx, spec, maker.wait(), ok, why, start_frame, end_frame,
                                                             result))
    else:
        for maker in makers:
            maker.stop()
    if "long" in wanted:
        from . import trim_long
        part_rows(result, "long", lambda: trim_long.measure(ctx, result, ok, why))
    result.seconds = time.monotonic() - started
    return result


def parts() -> set[str]:
    """The parts to run: BENCH_TRIM_PARTS=long (or short, comma-separated); both by default."""
    return set(os.environ.get("BENCH_TRIM_PARTS", "short,long").split(","))


def measure_input(ctx: Context, spec: InputSpec, source: Path, ok: bool, why: str, start_frame: int,
                  end_frame: int, result: SectionResult) -> None:
    """The trim runs on one input: a table, summary rows and, when the goal is missed, a gap with profiles."""
    s = ctx.settings
    label = (f"trim {s.trim_start:g}→{s.trim_end:g} s of a {s.trim_input_seconds / 60:g}-min 720p H.264+AAC file, "
             f"{spec.name} ({spec.gop / FPS:.1f} s GOP): wall time")
    tools = ["ffmpeg copy"] + (["ffmpeg re-encode"] if spec.key == "x264" else []) \
        + (["camrec", "camrec keyframe"] if ok else [])
    runs = {tool: [] for tool in tools}
    for r in range(s.runs):
        log(f"trim ({spec.name}): run {r + 1}/{s.runs}")
        run_dir = ctx.dir(f"trim/{spec.key}/run{r + 1}")
        for tool in rotate(tools, r):
            if tool == "ffmpeg re-encode" and r >= REENCODE_RUNS:
                continue
            output = run_dir / (tool.replace(" ", "-") + ".mp4")
            done = Child(commands(ctx, source, output, tool), dict(os.environ), run_dir,
                         tool.replace(" ", "-"), nice=ctx.nice, timeout=900).wait()
            run = {"wall": done.wall, "cpu": done.cpu, "rc": done.returncode, "switches": done.switches,
                   "preempted": done.preempted,
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
                     f"{spread([r['switches'] for r in rs], '{:.0f}')} / {spread([r['preempted'] for r in rs], '{:.0f}')}",
                     "; ".join(sorted({r["note"] for r in rs if r["note"]}))])
    result.body.append(f"### {spec.name} input ({spec.description})")
    result.body.append(table(["tool", "wall time", "CPU time", "first-frame error, shown (frames)",
                              "first-frame error, stored (frames)", "last-frame error (frames)",
                              "stored video frames", "context switches (voluntary / involuntary)", "notes"], rows))
    result.body.append(f"Expected: {end_frame - start_frame + 1} frames; 1 frame = {1000 / FPS:.1f} ms.")
    peers = f"copy {spread([r['wall'] for r in runs['ffmpeg copy']], '{:.2f}', ' s')}"
    if "ffmpeg re-encode" in runs:
        peers += f", re-encode {spread([r['wall'] for r in runs['ffmpeg re-encode']], '{:.1f}', ' s')}"
    if not ok:
        result.measured = False
        result.not_measured = why
        result.summary.append(SummaryRow(label, f"not measured: {why}", "", peers, goal="≤ 2× stream copy"))
        return
    vs_copy = [c["wall"] / p["wall"] for c, p in zip(runs["camrec"], runs["ffmpeg copy"]) if p["wall"]]
    ratios = f"{ratio_text(vs_copy)} copy"
    if "ffmpeg re-encode" in runs:
        vs_re = [c["wall"] / p["wall"] for c, p in zip(runs["camrec"], runs["ffmpeg re-encode"]) if p["wall"]]
        ratios += f", {ratio_text(vs_re)} re-encode"
    t_ok = median(vs_copy) is not None and median(vs_copy) <= 2.0 and all(r["rc"] == 0 for r in runs["camrec"])
    result.summary.append(SummaryRow(label, spread([r["wall"] for r in runs["camrec"]], "{:.2f}", " s"), "", peers,
                                     "", ratios, "≤ 2× stream copy", t_ok))
    errors = [r.get("error") for r in runs["camrec"]] + [r.get("stored_error") for r in runs["camrec"]]
    e_ok = all(e == 0 for e in errors)
    copy_errors = (f"copy {spread([r.get('error') for r in runs['ffmpeg copy']], '{:+.0f}')} / "
                   f"{spread([r.get('stored_error') for r in runs['ffmpeg copy']], '{:+.0f}')}")
    result.summary.append(SummaryRow(
        f"trim, {spec.name}: first-frame error (shown / stored)",
        f"{spread([r.get('error') for r in runs['camrec']], '{:+.0f}')} / "
        f"{spread([r.get('stored_error') for r in runs['camrec']], '{:+.0f}')} frames", "", copy_errors,
        "", "", "0 frames", e_ok))
    profiles = profile_trim(ctx, spec, source, result) if ctx.profiling(not t_ok) else []
    if not t_ok:
        key = median([r["wall"] for r in runs["camrec keyframe"]])
        acc = median([r["wall"] for r in runs["camrec"]])
        copy = median([r["wall"] for r in runs["ffmpeg copy"]])
        switches = lambda tool: median([r["switches"] for r in runs[tool]])
        gap = (f"**Trim time, {spec.name} input** ({spec.gop / FPS:.1f} s GOP): camrec's accurate cut takes "
               f"{ratio_text(vs_copy)} the stream copy's time (goal ≤ 2×): {acc:.2f} s against {copy:.2f} s. "
               f"What limits it: camrec's pure copy (`--mode keyframe`: the same reading of the sample tables and "
               f"kernel copy of the body, without the edges) takes {key:.2f} s, so {max(0.0, acc - key):.2f} s is "
               "the edges: decoding from the keyframe before the start and re-encoding up to the next keyframe "
               "(the head), and, where the last frames are B-frames that refer to a frame past the end, decoding "
               "from the last keyframe to re-encode them (the tail) — work a stream copy does not do, because it "
               "is not frame-accurate.")
        if profiles and not all(p.ok for p in profiles):
            gap += " No profile: " + "; ".join(p.error for p in profiles if not p.ok) + "."
        elif profiles:
            cam, ff = profiles
            gap += (f" Profile (perf, one extra run each, tables in section 4): camrec's accurate cut spent "
                    f"{cam.cpu_seconds:.2f} CPU s in {cam.seconds:.2f} s, {profile.describe(cam)}; its threads went to "
                    f"sleep {switches('camrec'):.0f} times a run (voluntary context switches; ffmpeg's copy "
                    f"{switches('ffmpeg copy'):.0f}). ffmpeg's copy: {ff.cpu_seconds:.2f} CPU s in {ff.seconds:.2f} s, "
                    f"{profile.describe(ff)}.")
        result.gaps.append(gap)
    if not e_ok:
        result.gaps.append(f"**Trim accuracy, {spec.name} input**: camrec's first frame is off by "
                           f"{spread([r.get('error') for r in runs['camrec']], '{:+.0f}')} frames (goal 0).")


def profile_trim(ctx: Context, spec: InputSpec, source: Path, result: SectionResult) -> list:
    """One extra run each of camrec's accurate cut and ffmpeg's stream copy under perf (their
    tables go into the section); each says why when perf could not run."""
    run_dir = ctx.dir(f"trim/{spec.key}/profile")
    log("trim: profiling camrec's accurate cut and ffmpeg's copy with perf…")
    profiles = []
    for tool, label in (("camrec", "camrec accurate"), ("ffmpeg copy", "ffmpeg copy")):
        output = run_dir / (tool.replace(" ", "-") + ".mp4")
        profiles.append(profile.profile([(commands(ctx, source, output, tool), dict(os.environ))], run_dir,
                                        tool.replace(" ", "-"), label, nice=ctx.nice, timeout=900))
        output.unlink(missing_ok=True)
    result.body.append(f"#### Profile ({spec.name} input): camrec's accurate cut against ffmpeg's stream copy\n\n"
                       + profile.tables(profiles))
    return profiles
