"""7. Segments: a run cut into movies of a fixed length (`camrec --segment`), against
gst-launch's `splitmuxsink` and ffmpeg's segment muxer doing the same job.

Three parts:

1. Boundaries under load: 1280x720@30 YUYV from the emulated camera (as section 1), cut every
   2 s, with a busy-loop process per core at normal priority running the whole time. Frames lost
   at the cuts come from the camera's frame stamps, read back from every file (the next file's
   first stamp must follow the previous file's last); the frames of each file from ffprobe
   (camrec's own JSON `segment` lines are checked against them).
2. The cost of durability: the same job on a quiet machine; camrec fdatasyncs each growing movie
   (a few times a second), the peers do not. CPU per recorded second, and the flushes counted with
   `strace -f -c --seccomp-bpf` in one extra run per tool.
3. A long run: 1 hour of 640x480@30 test pattern in 1-minute movies, the newest 10 kept (10 s
   movies for 3 minutes with --quick), the three tools side by side; VmRSS and the number of open
   descriptors of each process sampled every 30 s (10 s with --quick). It starts first and runs
   in the background of parts 1 and 2.

The section is not part of the default suite (its hour does not fit the 20-minute budget): it
runs with `--only segments` or `--all`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from .common import Child, load_average, log, median, ratio_text, run_quiet, spread
from .media import probe_video, stamps
from .section import Context, SectionResult, SummaryRow, table
from .tools import TOOLS, YUYV_720, Mode

SEGMENT = 2            # seconds per movie in parts 1 and 2
LONG_SEGMENT = {False: 60, True: 10}
LONG_SECONDS = {False: 3600, True: 180}
LONG_SAMPLE = {False: 30, True: 10}
KEEP = 10
TEST_480 = Mode("640x480@30 test pattern", 640, 480, 30, "test")
HOG = ["python3", "-c", "while True: pass"]
SYNC_CALLS = ("fdatasync", "fsync", "sync_file_range", "msync")


# ---- the commands -------------------------------------------------------------------------

def printed(ctx: Context, mode: Mode) -> list[str]:
    """camrec's own gst-launch line for one mode (one movie, not segmented), as words."""
    if mode.fourcc != "test":
        return shlex.split(ctx.toolbox.pipeline(mode, "/dev/video0", Path("probe.mp4")))
    key = f"printed-{mode.size}"
    if key not in ctx.shared:
        done = run_quiet([ctx.toolbox.camrec, "--device", "test", "--size", mode.size, "--fps", str(mode.fps),
                          "--print-pipeline", "--force", "probe.mp4"], env=dict(os.environ, NO_COLOR="1"))
        ctx.shared[key] = done.stdout.strip().splitlines()[-1]
    return shlex.split(ctx.shared[key])


def chain(ctx: Context, mode: Mode) -> list[str]:
    """The recording branch of camrec's pipeline, from its queue to the muxer (queue !
    videoconvert ! caps ! x264enc … ! h264parse): the same threads and settings as camrec."""
    words = printed(ctx, mode)
    begin = words.index("t.") + 1
    while words[begin] == "!":
        begin += 1
    end = next(i for i, w in enumerate(words) if w in ("mp4mux", "matroskamux", "splitmuxsink"))
    body = words[begin:end - 1]
    return [w for w in body if not w.startswith("name=")]


def encoder_settings(ctx: Context, mode: Mode) -> dict[str, str]:
    words = printed(ctx, mode)
    i = words.index("x264enc")
    settings = {}
    for w in words[i + 1:]:
        if w == "!":
            break
        if "=" in w:
            k, v = w.split("=", 1)
            settings[k] = v
    return settings


def gst_segments(ctx: Context, mode: Mode, source: list[str], frames: int, pattern: Path, seconds: int,
                 max_files: int = 0) -> list[str]:
    """gst-launch: the source, camrec's own recording branch (queue, conversion, encoder), then
    splitmuxsink as the brief of this section has it."""
    sink = ["splitmuxsink", f"location={pattern}", f"max-size-time={seconds * 1_000_000_000}",
            "send-keyframe-requests=true", "muxer-factory=mp4mux"]
    if max_files:
        sink.append(f"max-files={max_files}")
    return ["gst-launch-1.0", "-q", "-e", *source[:1], f"num-buffers={frames}", *source[1:],
            "!", *chain(ctx, mode), "!", *sink]


def ffmpeg_segments(ctx: Context, mode: Mode, source: list[str], frames: int, pattern: Path, seconds: int,
                    wrap: int = 0) -> list[str]:
    """ffmpeg with x264enc's settings as in section 1, then the segment muxer."""
    s = encoder_settings(ctx, mode)
    bitrate = int(s.get("bitrate", "2048"))
    vbv_ms = int(s.get("vbv-buf-capacity", "600"))
    argv = ["ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning", *source,
            "-frames:v", str(frames), "-c:v", "libx264", "-preset", s.get("speed-preset", "veryfast"),
            "-tune", s.get("tune", "zerolatency"), "-g", s.get("key-int-max", str(mode.fps)),
            "-b:v", f"{bitrate}k", "-maxrate", f"{bitrate}k", "-bufsize", f"{bitrate * vbv_ms // 1000}k",
            "-pix_fmt", "yuv420p", "-fps_mode", "passthrough",
            "-f", "segment", "-segment_time", str(seconds), "-reset_timestamps", "1", "-segment_format", "mp4"]
    if wrap:
        argv += ["-segment_wrap", str(wrap)]
    return argv + ["-y", str(pattern)]


def camera_command(ctx: Context, tool: str, mode: Mode, device: str, seconds: float, folder: Path,
                   segment: int) -> list[str]:
    frames = round(seconds * mode.fps)
    if tool == "camrec":
        return ctx.toolbox.camrec_record(mode, device, seconds, folder / "camrec.mp4",
                                         extra=("--segment", f"{segment}s"))
    if tool == "gst-launch":
        source = ["v4l2src", f"device={device}", "!",
                  f"video/x-raw,format=YUY2,width={mode.width},height={mode.height},framerate={mode.fps}/1"]
        return gst_segments(ctx, mode, source, frames, folder / "gst-%04d.mp4", segment)
    source = ["-f", "v4l2", "-input_format", mode.ffmpeg_input_format, "-video_size", mode.size,
              "-framerate", str(mode.fps), "-i", device]
    return ffmpeg_segments(ctx, mode, source, frames, folder / "ffmpeg-%04d.mp4", segment)


def test_command(ctx: Context, tool: str, seconds: float, folder: Path, segment: int) -> list[str]:
    mode = TEST_480
    frames = round(seconds * mode.fps)
    if tool == "camrec":
        return [str(ctx.toolbox.camrec), "--device", "test", "--size", mode.size, "--fps", str(mode.fps),
                "--max-duration", f"{seconds:g}", "--segment", f"{segment}s", "--keep", str(KEEP), "--json",
                str(folder / "camrec.mp4")]
    if tool == "gst-launch":
        source = ["videotestsrc", "is-live=true", "pattern=smpte", "horizontal-speed=4", "!",
                  f"video/x-raw,width={mode.width},height={mode.height},framerate={mode.fps}/1"]
        return gst_segments(ctx, mode, source, frames, folder / "gst-%04d.mp4", segment, max_files=KEEP)
    source = ["-re", "-f", "lavfi", "-i", f"testsrc2=size={mode.size}:rate={mode.fps}"]
    return ffmpeg_segments(ctx, mode, source, frames, folder / "ffmpeg-%04d.mp4", segment, wrap=KEEP)


# ---- helpers ------------------------------------------------------------------------------

class Hogs:
    """A busy-loop process per core at normal priority (nice 0), for the time of one recording."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        self.children: list[subprocess.Popen] = []

    def __enter__(self):
        for _ in range(os.cpu_count() or 1):
            self.children.append(subprocess.Popen(HOG, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.DEVNULL,
                                                  preexec_fn=lambda: os.setpriority(os.PRIO_PROCESS, 0, 0)))
        return self

    def __exit__(self, *exc):
        for child in self.children:
            child.send_signal(signal.SIGKILL)
        for child in self.children:
            child.wait()
        return False


class StatusSampler:
    """VmRSS (KB) and the number of open descriptors of a process, every `interval` seconds."""

    def __init__(self, pid: int, started_at: float, interval: float):
        self.pid = pid
        self.started_at = started_at
        self.interval = interval
        self.samples: list[tuple[float, int, int]] = []   # (seconds since start, KB, fds)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(self.interval):
            try:
                rss = None
                with open(f"/proc/{self.pid}/status") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            rss = int(line.split()[1])
                            break
                fds = len(os.listdir(f"/proc/{self.pid}/fd"))
            except (OSError, ValueError):
                return
            if rss is None:   # a zombie: the process has exited
                return
            self.samples.append((time.monotonic() - self.started_at, rss, fds))

    def finish(self):
        self.stop.set()
        self.thread.join(timeout=5)
        return self.samples


def movies(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.mp4") if p.stat().st_size > 0)


def json_lines(path: Path) -> list[dict]:
    found = []
    try:
        for line in path.read_text().splitlines():
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if isinstance(data, dict):
                found.append(data)
    except OSError:
        pass
    return found


def counts_text(values: list[int]) -> str:
    """[60, 60, 59] → '60 ×2, 59 ×1' (most frequent first)."""
    tally: dict[int, int] = {}
    for v in values:
        tally[v] = tally.get(v, 0) + 1
    return ", ".join(f"{v} ×{n}" for v, n in sorted(tally.items(), key=lambda item: (-item[1], item[0])))


def in_slots(every: list[list[int]], want: int) -> int:
    """How many movies hold only stamps of their own slot: movie k of the camera frames from
    s0 + k·want to s0 + (k+1)·want − 1, s0 the first stored stamp (the last movie: from its slot's
    start on)."""
    if not every or not every[0]:
        return 0
    s0, count = every[0][0], 0
    for k, found in enumerate(every):
        if not found:
            continue
        low, high = s0 + k * want, s0 + (k + 1) * want - 1
        if found[0] >= low and (found[-1] <= high or k == len(every) - 1):
            count += 1
    return count


def analyse_files(tool: str, mode: Mode, done, folder: Path, segment: int) -> dict:
    """Frames per movie (ffprobe), lost frames inside the movies and at the cuts (the camera's
    stamps), camrec's JSON lines against the files."""
    files = movies(folder)
    want = segment * mode.fps
    per_file, firsts, lasts, inside, every = [], [], [], 0, []
    for path in files:
        try:
            found = [s for s in stamps(path, mode.width, mode.height) if s is not None]
        except subprocess.CalledProcessError:
            found = []   # not decodable: counted as a movie without stamps
        per_file.append(probe_video(path)["packets"] or 0)
        if not found:
            every.append([])
            firsts.append(None)
            lasts.append(None)
            continue
        every.append(found)
        firsts.append(found[0])
        lasts.append(found[-1])
        inside += sum(max(0, b - a - 1) for a, b in zip(found, found[1:]))
    at_cuts, overlap, cuts = 0, 0, 0
    for k in range(1, len(files)):
        if lasts[k - 1] is None or firsts[k] is None:
            continue
        cuts += 1
        gap = firsts[k] - lasts[k - 1] - 1
        if gap > 0:
            at_cuts += gap
        elif gap < 0:
            overlap += -gap
    last = next((s for s in reversed(lasts) if s is not None), None)
    total = sum(per_file)
    run = {
        "tool": tool, "rc": done.returncode, "cpu": done.cpu, "rss_kb": done.max_rss_kb, "files": len(files),
        "frames": total, "per_file": per_file, "recorded": total / mode.fps if total else None,
        "cpu_per_s": done.cpu / (total / mode.fps) if total else None,
        "dropped": (last + 1 - total) if last is not None else None,
        "at_cuts": at_cuts, "inside": inside, "overlap": overlap, "cuts": cuts,
        # every movie but the last must hold exactly `want` frames
        "exact": sum(1 for n in per_file[:-1] if n == want), "cut_movies": max(0, len(per_file) - 1),
        # movies that hold their own slot of the camera's timeline, [first + k·want, first + (k+1)·want)
        # (frames lost inside it aside): the cut is exact in time even when frames were lost
        "in_slot": in_slots(every, want),
        "last_frames": per_file[-1] if per_file else None, "note": "",
    }
    if tool == "camrec":
        lines = json_lines(done.stdout_path)
        segs = [d for d in lines if d.get("type") == "segment"]
        result = next((d for d in reversed(lines) if d.get("type") == "result"), {})
        run["json_frames"] = [d.get("frames") for d in segs]
        run["json_match"] = len(segs) == len(per_file) and all(a == b for a, b in zip(run["json_frames"], per_file))
        run["reported_dropped"] = result.get("dropped_frames")
    if done.returncode != 0:
        run["note"] = f"exit {done.returncode}: {done.stderr_tail(2)}"
    return run


def run_one(ctx: Context, tool: str, mode: Mode, seconds: float, run_dir: Path, name: str,
            hogs: bool = False, strace: bool = False):
    folder = run_dir / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    argv = camera_command(ctx, tool, mode, "/dev/video0", seconds, folder, SEGMENT)
    trace = folder / "strace.txt"
    if strace:
        argv = ["strace", "-f", "-c", "--seccomp-bpf", "-e", "trace=" + ",".join(SYNC_CALLS), "-o", str(trace),
                *argv]
    env = ctx.toolbox.env(mode.vcam("/dev/video0"))
    if hogs:
        with Hogs(run_dir):
            time.sleep(1)   # the hogs are running before the recording starts
            done = Child(argv, env, folder, tool, nice=ctx.nice, timeout=seconds * 3 + 60).wait()
    else:
        done = Child(argv, env, folder, tool, nice=ctx.nice, timeout=seconds * 3 + 60).wait()
    run = analyse_files(tool, mode, done, folder, SEGMENT)
    if strace:
        run["syncs"] = read_strace(trace)
    return run


def read_strace(path: Path) -> dict[str, int]:
    calls = {}
    try:
        for line in path.read_text().splitlines():
            words = line.split()
            if len(words) >= 5 and words[-1] in SYNC_CALLS and words[3].isdigit():
                calls[words[-1]] = int(words[3])
    except OSError:
        return {"error": 1}
    return calls


# ---- the long run ---------------------------------------------------------------------------

class LongRun:
    """The three tools record the test pattern in 1-minute movies, the newest 10 kept, side by
    side, in the background of parts 1 and 2."""

    def __init__(self, ctx: Context):
        quick = ctx.settings.quick
        self.seconds = LONG_SECONDS[quick]
        self.segment = LONG_SEGMENT[quick]
        self.interval = LONG_SAMPLE[quick]
        self.run_dir = ctx.dir("segments/long")
        self.started = time.monotonic()
        self.load_before = load_average()
        self.results: dict[str, dict] = {}
        self.children = []
        for tool in TOOLS:
            folder = self.run_dir / tool
            folder.mkdir(parents=True, exist_ok=True)
            argv = test_command(ctx, tool, self.seconds, folder, self.segment)
            child = Child(argv, dict(os.environ, NO_COLOR="1"), folder, tool, nice=ctx.nice,
                          timeout=self.seconds * 1.5 + 120)
            self.children.append((tool, child, folder, StatusSampler(child.pid, child.started_at, self.interval)))
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self) -> None:
        for tool, child, folder, sampler in self.children:
            done = child.wait()
            samples = sampler.finish()
            (folder / f"{tool}.samples.tsv").write_text(
                "seconds\tVmRSS_kB\tfds\n" + "".join(f"{s:.1f}\t{kb}\t{n}\n" for s, kb, n in samples))
            self.results[tool] = {"done": done, "samples": samples, "folder": folder}

    def join(self) -> None:
        if self.thread.is_alive():
            left = self.seconds - (time.monotonic() - self.started)
            log(f"segments: waiting for the long run (about {max(0, left) / 60:.0f} more minutes)…")
        self.thread.join(timeout=max(1.0, self.seconds + 300 - (time.monotonic() - self.started)))


def long_summary(tool: str, data: dict, segment: int) -> dict:
    done, samples, folder = data["done"], data["samples"], data["folder"]
    files = movies(folder)
    info = {"tool": tool, "rc": done.returncode, "cpu": done.cpu, "wall": done.wall, "peak": done.max_rss_kb,
            "kept": len(files), "samples": len(samples)}
    if samples:
        rss = [kb for _, kb, _ in samples]
        fds = [n for _, _, n in samples]
        # The base: the first sample after the first cut (2 movies in). Finalising the first movie and
        # opening the second allocates once (about 5 MB in camrec), a warm-up like section 5's start-up.
        base = next((kb for t, kb, _ in samples if t >= 2 * segment), rss[0])
        info.update(rss_first=rss[0], rss_last=rss[-1], rss_max=rss[-1] if len(rss) == 1 else max(rss),
                    rss_base=base, growth=(rss[-1] - base) / 1024, growth_first=(rss[-1] - rss[0]) / 1024,
                    rss_min=min(rss), fd_first=fds[0], fd_last=fds[-1],
                    fd_min=min(fds), fd_max=max(fds), first_t=samples[0][0], last_t=samples[-1][0])
    want = segment * 30
    if tool == "camrec":
        lines = json_lines(done.stdout_path)
        segs = [d.get("frames") for d in lines if d.get("type") == "segment"]
        result = next((d for d in reversed(lines) if d.get("type") == "result"), {})
        info.update(movies=len(segs), per_file=segs, deleted=sum(1 for d in lines if d.get("type") == "deleted"),
                    dropped=result.get("dropped_frames"), frames=sum(n or 0 for n in segs))
    else:
        per_file = [probe_video(p)["packets"] or 0 for p in files]
        info.update(movies=None, per_file=per_file, deleted=None, dropped=None, frames=None)
    per_file = info["per_file"]
    info["exact"] = sum(1 for n in per_file[:-1] if n == want)
    info["cut_movies"] = max(0, len(per_file) - 1)
    if info.get("frames"):
        info["cpu_per_s"] = done.cpu / (info["frames"] / 30)
    else:
        info["cpu_per_s"] = done.cpu / done.wall if done.wall else None
    return info


def short(ctx: Context, line: str) -> str:
    """A command line as written to its .cmd file, for the report: `camrec` for the binary's path,
    movie names without their folders."""
    line = line.replace(str(ctx.toolbox.camrec), "camrec").replace(" '!' ", " ! ")
    return re.sub(r"/\S*/(?=[^/\s]+\.mp4)", "", line)


# ---- the section ----------------------------------------------------------------------------

def section(ctx: Context) -> SectionResult:
    result = SectionResult("segments", "7. Segments")
    started = time.monotonic()
    code, text = ctx.toolbox.help_text()
    if "--segment" not in text:
        result.measured = False
        result.not_measured = "camrec has no `--segment` (camrec --help)"
        return result
    s = ctx.settings
    quick = s.quick
    long_run = LongRun(ctx)
    log(f"segments: the {LONG_SECONDS[quick] / 60:g}-minute run in {LONG_SEGMENT[quick]}-s movies started "
        "in the background (three tools side by side)")
    runs = 1 if quick else 3
    load_seconds = 10 if quick else 60
    quiet_seconds = 10 if quick else 30
    trace_seconds = 10 if quick else 30
    mode = YUYV_720
    run_dir = ctx.dir("segments")
    loaded: dict[str, list[dict]] = {t: [] for t in TOOLS}
    quiet: dict[str, list[dict]] = {t: [] for t in TOOLS}
    traced: dict[str, dict] = {}
    loads = []
    for r in range(runs):
        order = TOOLS[r % 3:] + TOOLS[:r % 3]
        for tool in order:
            log(f"segments: {tool}, {load_seconds} s of {mode.name} in {SEGMENT}-s movies, both cores busy (run {r + 1}/{runs})")
            loaded[tool].append(run_one(ctx, tool, mode, load_seconds, run_dir / f"load{r + 1}", tool, hogs=True))
        loads.append(load_average())
    for r in range(runs):
        order = TOOLS[r % 3:] + TOOLS[:r % 3]
        for tool in order:
            log(f"segments: {tool}, {quiet_seconds} s of {mode.name} in {SEGMENT}-s movies, no hogs (run {r + 1}/{runs})")
            quiet[tool].append(run_one(ctx, tool, mode, quiet_seconds, run_dir / f"quiet{r + 1}", tool))
    for tool in TOOLS:
        log(f"segments: {tool} under strace (flushes counted), {trace_seconds} s")
        traced[tool] = run_one(ctx, tool, mode, trace_seconds, run_dir / "strace", tool, strace=True)
    long_run.join()
    longs = {tool: long_summary(tool, data, long_run.segment) for tool, data in long_run.results.items()}

    cmd = {tool: run_dir / "load1" / tool / f"{tool}.cmd" for tool in TOOLS}
    shown = {tool: (cmd[tool].read_text().strip() if cmd[tool].exists() else "?") for tool in TOOLS}
    shown = {tool: short(ctx, line) for tool, line in shown.items()}
    long_cmd = {tool: long_run.run_dir / tool / f"{tool}.cmd" for tool in TOOLS}
    long_shown = {tool: (long_cmd[tool].read_text().strip() if long_cmd[tool].exists() else "?") for tool in TOOLS}
    result.method = [
        f"Boundaries under load: each tool records {load_seconds} s of {mode.name} from the emulated camera (as in "
        f"section 1) cut into {SEGMENT}-s movies, one tool at a time ({runs} rounds, order rotated), while a busy "
        f"loop (`{shlex.join(HOG)}`) runs on each of the {os.cpu_count()} cores at nice 0 (the tools at nice {ctx.nice}, "
        "as in every section). Frames per movie: ffprobe's packet count of each file (camrec's JSON `segment` lines "
        "are compared with it). Lost frames: the camera stamps every frame with its number from 0 at STREAMON; "
        "decoded back from every movie, a jump between the last stamp of one movie and the first of the next is a "
        "frame lost at the cut, a jump inside a movie a frame lost elsewhere; total lost = last stamp + 1 − frames "
        f"stored. A cut is exact when every movie but the last holds {SEGMENT * mode.fps} frames. CPU and peak RSS "
        "from wait4(2). Commands (1st round):",
        "\n".join(f"- {tool}: `{shown[tool]}`" for tool in TOOLS),
        "gst-launch runs camrec's conversion and x264enc settings (from its `--print-pipeline`) into `splitmuxsink` "
        "(`send-keyframe-requests=true` asks the encoder for a keyframe at each cut, as camrec forces one); ffmpeg "
        "gets x264enc's settings as in section 1 and the segment muxer (it cuts at the first keyframe at or after "
        "each multiple of the segment time; `-g` gives one every second). Neither peer flushes to the disk; camrec "
        "fdatasyncs each movie being written a few times a second (power-loss durability).",
        f"The cost of durability: the same job, {quiet_seconds} s, no hogs, {runs} rounds; then one extra "
        f"{trace_seconds}-s run per tool under `strace -f -c --seccomp-bpf -e trace={','.join(SYNC_CALLS)}` "
        "(only those calls stop the process, so the tracing costs little) counting the flushes.",
        f"Long run: the three tools side by side, {LONG_SECONDS[quick] / 60:g} minutes of the 640x480@30 test "
        f"pattern (`videotestsrc` in camrec and gst-launch, ffmpeg's `testsrc2` at `-re`) in "
        f"{LONG_SEGMENT[quick]}-s movies, the newest {KEEP} kept (camrec `--keep {KEEP}`, splitmuxsink "
        f"`max-files={KEEP}`, ffmpeg `-segment_wrap {KEEP}`), started first and running in the background of the "
        f"two parts above. VmRSS (/proc/PID/status) and open descriptors (/proc/PID/fd) every "
        f"{LONG_SAMPLE[quick]} s; first = the first sample ({LONG_SAMPLE[quick]} s in); growth = last − the first sample "
        f"after the first cut ({2 * LONG_SEGMENT[quick]} s in: finalising the first movie and opening the second "
        "allocates once, a warm-up like section 5's start-up); the growth from the first sample is shown beside it; every sample is in "
        "`bench/out/run-*/segments/long/TOOL/TOOL.samples.tsv`. "
        "Commands:",
        "\n".join(f"- {tool}: `{short(ctx, long_shown[tool])}`" for tool in TOOLS),
    ]

    # ---- part 1 table
    rows = []
    for tool in TOOLS:
        rs = loaded[tool]
        rows.append([tool, spread([r["files"] for r in rs], "{:.0f}"),
                     " / ".join(f"{r['exact']}/{r['cut_movies']}" for r in rs),
                     " / ".join(f"{r['in_slot']}/{r['files']}" for r in rs),
                     counts_text([n for r in rs for n in r["per_file"][:-1]]) or "—",
                     spread([r["at_cuts"] for r in rs], "{:.0f}"), spread([r["inside"] for r in rs], "{:.0f}"),
                     spread([r["overlap"] for r in rs], "{:.0f}"), spread([r["dropped"] for r in rs], "{:.0f}"),
                     spread([r["cpu_per_s"] for r in rs]), spread([r["rss_kb"] / 1024 for r in rs], "{:.1f}", " MB"),
                     "; ".join(r["note"] for r in rs if r["note"]) or ""])
    result.body.append(f"#### Boundaries under load: {mode.name}, {SEGMENT}-s movies, {load_seconds} s, both cores "
                       f"busy (load average after each round: {', '.join(loads)})\n\n" + table(
        ["tool", "movies", "exact cuts (per run)", f"movies within their {SEGMENT}-s slot (per run)",
         "frames per movie (all but the last)", "lost at cuts",
         "lost inside movies", "repeated at cuts", "lost in all", "CPU s per recorded s", "peak RSS", "notes"], rows))
    cam = loaded["camrec"]
    json_ok = all(r.get("json_match") for r in cam)
    result.body.append(
        "camrec's JSON `segment` lines " + ("give the same frame counts as ffprobe for every movie"
                                            if json_ok else "differ from ffprobe's counts: " + "; ".join(
            f"JSON {r.get('json_frames')} vs files {r['per_file']}" for r in cam if not r.get("json_match")))
        + f"; its `result` line reports {', '.join(str(r.get('reported_dropped')) for r in cam)} dropped frames.")

    def ratios(data, key, peer):
        return [c[key] / p[key] if c.get(key) and p.get(key) else None for c, p in zip(data["camrec"], data[peer])]

    at_cuts = [r["at_cuts"] for r in cam]
    cuts_ok = bool(cam) and all(v == 0 for v in at_cuts) and all(r["dropped"] == 0 for r in cam)
    result.summary.append(SummaryRow(
        f"frames lost at {SEGMENT}-s cuts (in all), 720p30, both cores busy",
        f"{spread(at_cuts, '{:.0f}')} ({spread([r['dropped'] for r in cam], '{:.0f}')})",
        f"{spread([r['at_cuts'] for r in loaded['gst-launch']], '{:.0f}')} "
        f"({spread([r['dropped'] for r in loaded['gst-launch']], '{:.0f}')})",
        f"{spread([r['at_cuts'] for r in loaded['ffmpeg']], '{:.0f}')} "
        f"({spread([r['dropped'] for r in loaded['ffmpeg']], '{:.0f}')})", "", "", "0 in every run", cuts_ok))
    exact = lambda rs: " / ".join(f"{r['exact']}/{r['cut_movies']}" for r in rs)
    exact_ok = bool(cam) and all(r["exact"] == r["cut_movies"] and r["cut_movies"] > 0 for r in cam)
    result.summary.append(SummaryRow(
        f"movies of exactly {SEGMENT * mode.fps} frames, under load (per run)", exact(cam),
        exact(loaded["gst-launch"]), exact(loaded["ffmpeg"]), "", "", "all", exact_ok))
    slot = lambda rs: " / ".join(f"{r['in_slot']}/{r['files']}" for r in rs)
    slot_ok = bool(cam) and all(r["in_slot"] == r["files"] and r["files"] > 0 for r in cam)
    result.summary.append(SummaryRow(
        f"movies holding exactly their {SEGMENT}-s slot of camera time (lost frames aside), under load (per run)",
        slot(cam), slot(loaded["gst-launch"]), slot(loaded["ffmpeg"]), "", "", "all", slot_ok))
    if not slot_ok:
        result.gaps.append(f"**Segment cuts in time**: camrec's movies under load do not all hold their own "
                           f"{SEGMENT}-s slot of the camera's timeline: {slot(cam)} per run.")
    result.summary.append(SummaryRow(
        f"CPU s per recorded s, {SEGMENT}-s movies, both cores busy", spread([r["cpu_per_s"] for r in cam]),
        spread([r["cpu_per_s"] for r in loaded["gst-launch"]]), spread([r["cpu_per_s"] for r in loaded["ffmpeg"]]),
        ratio_text(ratios(loaded, "cpu_per_s", "gst-launch")), ratio_text(ratios(loaded, "cpu_per_s", "ffmpeg")),
        "", None))
    result.summary.append(SummaryRow(
        f"peak RSS, {SEGMENT}-s movies, both cores busy", spread([r["rss_kb"] / 1024 for r in cam], "{:.1f}", " MB"),
        spread([r["rss_kb"] / 1024 for r in loaded["gst-launch"]], "{:.1f}", " MB"),
        spread([r["rss_kb"] / 1024 for r in loaded["ffmpeg"]], "{:.1f}", " MB"),
        ratio_text(ratios(loaded, "rss_kb", "gst-launch")), ratio_text(ratios(loaded, "rss_kb", "ffmpeg")), "", None))
    if not cuts_ok:
        result.gaps.append(
            f"**Segment cuts under load**: camrec lost {spread(at_cuts, '{:.0f}')} frames at the {SEGMENT}-s cuts "
            f"({spread([r['dropped'] for r in cam], '{:.0f}')} in all) with both cores busy; gst-launch "
            f"{spread([r['at_cuts'] for r in loaded['gst-launch']], '{:.0f}')} "
            f"({spread([r['dropped'] for r in loaded['gst-launch']], '{:.0f}')}), ffmpeg "
            f"{spread([r['at_cuts'] for r in loaded['ffmpeg']], '{:.0f}')} "
            f"({spread([r['dropped'] for r in loaded['ffmpeg']], '{:.0f}')}).")
    if not exact_ok:
        result.gaps.append(f"**Segment length**: camrec's movies under load are not all {SEGMENT * mode.fps} frames: "
                           + "; ".join(counts_text(r["per_file"][:-1]) for r in cam) + ".")

    # ---- part 2 table
    rows = []
    for tool in TOOLS:
        rs = quiet[tool]
        t = traced.get(tool, {})
        syncs = t.get("syncs") or {}
        minutes = (t.get("recorded") or trace_seconds) / 60
        calls = {name: n for name, n in syncs.items() if name in SYNC_CALLS}
        rows.append([tool, spread([r["cpu_per_s"] for r in rs]),
                     ratio_text(ratios(quiet, "cpu_per_s", tool)) if tool != "camrec" else "",
                     spread([r["dropped"] for r in rs], "{:.0f}"), spread([r["at_cuts"] for r in rs], "{:.0f}"),
                     " / ".join(f"{r['exact']}/{r['cut_movies']}" for r in rs),
                     f"{calls.get('fdatasync', 0) / minutes:.0f}" if "error" not in syncs else "strace failed",
                     ", ".join(f"{name} {n / minutes:.0f}" for name, n in calls.items() if name != "fdatasync") or "none",
                     f"{t.get('cpu_per_s'):.3f}" if t.get("cpu_per_s") else "—"])
    result.body.append(f"#### The cost of durability: {mode.name}, {SEGMENT}-s movies, {quiet_seconds} s, no hogs\n\n" + table(
        ["tool", "CPU s per recorded s", "camrec / tool", "lost frames", "lost at cuts", "exact cuts (per run)",
         "fdatasync per minute (strace run)", "other flushes per minute", "CPU s per recorded s under strace"], rows))
    q = quiet["camrec"]
    r_gst, r_ff = median(ratios(quiet, "cpu_per_s", "gst-launch")), median(ratios(quiet, "cpu_per_s", "ffmpeg"))
    cpu_ok = r_gst is not None and r_ff is not None and r_gst <= 1.05 and r_ff <= 1.0
    result.summary.append(SummaryRow(
        f"CPU s per recorded s, {SEGMENT}-s movies (camrec flushing, the peers not)", spread([r["cpu_per_s"] for r in q]),
        spread([r["cpu_per_s"] for r in quiet["gst-launch"]]), spread([r["cpu_per_s"] for r in quiet["ffmpeg"]]),
        ratio_text(ratios(quiet, "cpu_per_s", "gst-launch")), ratio_text(ratios(quiet, "cpu_per_s", "ffmpeg")),
        "≤ ffmpeg, ≤ 1.05× gst-launch", cpu_ok))
    fsync = {tool: (traced.get(tool, {}).get("syncs") or {}).get("fdatasync", 0)
             / ((traced.get(tool, {}).get("recorded") or trace_seconds) / 60) for tool in TOOLS}
    result.summary.append(SummaryRow("fdatasync calls per minute of recording", f"{fsync['camrec']:.0f}",
                                     f"{fsync['gst-launch']:.0f}", f"{fsync['ffmpeg']:.0f}", "", "", "", None))
    quiet_drops = [r["dropped"] for r in q]
    if r_gst is not None and not cpu_ok:
        result.gaps.append(f"**Segmented recording CPU**: camrec uses {r_gst:.2f}× gst-launch's and {r_ff:.2f}× "
                           "ffmpeg's CPU (goal ≤ 1.05× and ≤ 1×); it flushes each movie to the disk, the peers "
                           "do not.")
    if any(d for d in quiet_drops if d):
        result.gaps.append(f"**Dropped frames, segmented, quiet machine**: camrec lost {spread(quiet_drops, '{:.0f}')}.")

    # ---- part 3 table
    d = long_run.seconds
    rows = []
    for tool in TOOLS:
        info = longs.get(tool)
        if not info:
            rows.append([tool, "did not finish"] + [""] * 7)
            continue
        if "rss_first" not in info:
            rows.append([tool, f"no samples (exit {info['rc']})"] + [""] * 7)
            continue
        mb = lambda kb: f"{kb / 1024:.1f}"
        per = info["per_file"]
        rows.append([
            tool, f"{mb(info['rss_first'])} / {mb(info['rss_base'])} / {mb(info['rss_last'])} / {mb(info['rss_max'])} MB",
            f"{info['growth']:+.2f} MB (from the first sample {info['growth_first']:+.2f} MB)", f"{info['fd_first']} / {info['fd_last']} / {info['fd_min']}–{info['fd_max']}",
            f"{info['peak'] / 1024:.1f} MB",
            (f"{info['movies']} written, {info['deleted']} deleted, {info['kept']} on disk" if tool == "camrec"
             else f"{info['kept']} on disk"),
            f"{info['exact']}/{info['cut_movies']}" + ("" if tool == "camrec" else " (kept ones)"),
            f"{info['cpu_per_s']:.3f}" if info.get("cpu_per_s") else "—",
            (f"{info['dropped']} dropped" if tool == "camrec" else "") + (f"; exit {info['rc']}" if info["rc"] else ""),
        ])
    result.body.append(
        f"#### Long run: {d / 60:g} minutes of 640x480@30 test pattern in {long_run.segment}-s movies, newest "
        f"{KEEP} kept (load average {long_run.load_before} at the start, {load_average()} at the end)\n\n" + table(
            ["tool", "RSS first / after the first cut / last / max", "RSS growth after the first cut", "fds first / last / range", "peak RSS (wait4)",
             "movies", f"movies of exactly {long_run.segment * 30} frames", "CPU s per s", "notes"], rows))
    c = longs.get("camrec") or {}
    growth = c.get("growth")
    fds_ok = "fd_first" in c and c["fd_last"] == c["fd_first"] and c["fd_max"] - c["fd_min"] <= 2
    mem_ok = growth is not None and abs(growth) < 5
    peer = lambda tool, f: f(longs[tool]) if tool in longs and "rss_first" in longs[tool] else "—"
    result.summary.append(SummaryRow(
        f"RSS growth over {d / 60:g} min in {long_run.segment}-s movies (--keep {KEEP}), after the first cut",
        f"{growth:+.2f} MB" if growth is not None else "—",
        peer("gst-launch", lambda i: f"{i['growth']:+.2f} MB"), peer("ffmpeg", lambda i: f"{i['growth']:+.2f} MB"),
        "", "", "< 5 MB", mem_ok if growth is not None else None))
    fd_text = lambda i: f"{i['fd_first']} → {i['fd_last']} ({i['fd_min']}–{i['fd_max']})"
    result.summary.append(SummaryRow(
        f"open descriptors over {d / 60:g} min, first → last (range)", peer("camrec", fd_text),
        peer("gst-launch", fd_text), peer("ffmpeg", fd_text), "", "", "constant", fds_ok if "fd_first" in c else None))
    if growth is not None and not mem_ok:
        result.gaps.append(f"**Long segmented run**: camrec's RSS grows {growth:+.2f} MB after the first cut over {d / 60:g} minutes "
                           f"in {long_run.segment}-s movies (goal < 5 MB).")
    if "fd_first" in c and not fds_ok:
        result.gaps.append(f"**Descriptors in a long segmented run**: camrec's open descriptors go {fd_text(c)} over "
                           f"{d / 60:g} minutes (goal: constant).")
    if c and c.get("dropped"):
        result.gaps.append(f"**Long segmented run**: camrec dropped {c['dropped']} frames.")
    result.seconds = time.monotonic() - started
    return result
